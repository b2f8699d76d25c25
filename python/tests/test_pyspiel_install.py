"""`boneyard.pyspiel.install()` (issue 36, 8): OpenSpiel's modules say
`import pyspiel`; after install() that import gives boneyard's module, and a
real OpenSpiel that is installed is never shadowed. Each case runs in a
child interpreter (sys.modules is process-wide)."""
import os
import subprocess
import sys
import textwrap

# A module written the way OpenSpiel's algorithms are: `import pyspiel` at
# the top, then pyspiel's names.
USES_PYSPIEL = textwrap.dedent("""
    import pyspiel

    def first_moves(game_string):
        game = pyspiel.load_game(game_string)
        state = game.new_initial_state()
        while state.is_chance_node():
            action, _ = state.chance_outcomes()[0]
            state.apply_action(action)
        return pyspiel, state.legal_actions()
""")


def run(tmp_path, code, fake_real_pyspiel=False):
    (tmp_path / "uses_pyspiel.py").write_text(USES_PYSPIEL)
    if fake_real_pyspiel:  # stands for OpenSpiel's installed extension
        (tmp_path / "pyspiel.py").write_text("REAL = True\n")
    env = dict(os.environ)
    paths = [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path)] + paths)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_without_install_import_pyspiel_fails(tmp_path):
    assert run(tmp_path, """
        import boneyard
        try:
            import uses_pyspiel
        except ImportError:
            print("no pyspiel")
    """) == "no pyspiel"


def test_install_lets_openspiel_style_modules_import_boneyard(tmp_path):
    assert run(tmp_path, """
        from boneyard import pyspiel
        assert pyspiel.install() is pyspiel and pyspiel.install() is pyspiel
        import uses_pyspiel
        module, legal = uses_pyspiel.first_moves("latin(single_hand=true)")
        assert module is pyspiel and legal
        print("ok")
    """) == "ok"


def test_a_real_openspiel_is_never_shadowed(tmp_path):
    assert run(tmp_path, """
        import sys
        from boneyard import pyspiel
        try:
            pyspiel.install()
        except ImportError as e:
            assert "does not shadow" in str(e), e
        assert "pyspiel" not in sys.modules
        import pyspiel as real
        assert real.REAL
        print("kept")
    """, fake_real_pyspiel=True) == "kept"


# A game module written the way OpenSpiel's Python games are (the modules
# open_spiel.python.games imports, and so open_spiel.python.policy, cfr,
# exploitability): a GameType with a parameter_specification and a GameInfo
# at import, classes deriving from pyspiel.Game and pyspiel.State (the
# state's fields plain attributes, _legal_actions, _apply_action,
# _action_to_string), an observer from make_py_observer (tensor, dict,
# set_from, string_from), an annotation naming StateStruct, and
# register_game. The game: a coin (chance) that only player 0 sees; player
# 0 passes (showdown for the stake) or bets; after a bet player 1 folds
# (player 0 wins the stake) or calls (showdown for twice the stake).
PYTHON_GAME = textwrap.dedent("""
    import numpy as np
    import pyspiel

    _GAME_TYPE = pyspiel.GameType(
        short_name="python_coin",
        long_name="Python Coin",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"stake": 1})
    _GAME_INFO = pyspiel.GameInfo(
        num_distinct_actions=2, max_chance_outcomes=2, num_players=2, min_utility=-2.0, max_utility=2.0,
        utility_sum=0.0, max_game_length=2)


    class CoinGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(_GAME_TYPE, _GAME_INFO, params or dict())
            self.stake = self.get_parameters()["stake"]

        def new_initial_state(self):
            return CoinState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return CoinObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


    class CoinState(pyspiel.State):
        def __init__(self, game, state: pyspiel.StateStruct | None = None):
            super().__init__(game)
            self.coin = None
            self.moves = []
            self.stake = game.stake

        def current_player(self):
            if self.coin is None:
                return pyspiel.PlayerId.CHANCE
            if self.is_terminal():
                return pyspiel.PlayerId.TERMINAL
            return len(self.moves)

        def _legal_actions(self, player):
            return [0, 1]

        def chance_outcomes(self):
            return [(0, 0.5), (1, 0.5)]

        def _apply_action(self, action):
            if self.coin is None:
                self.coin = action
            else:
                self.moves.append(action)

        def _action_to_string(self, player, action):
            if player == pyspiel.PlayerId.CHANCE:
                return "heads" if action else "tails"
            return ("pass", "bet")[action] if player == 0 else ("fold", "call")[action]

        def is_terminal(self):
            return self.moves in ([0], [1, 0], [1, 1])

        def returns(self):
            if not self.is_terminal():
                return [0.0, 0.0]
            sign = 1.0 if self.coin == 1 else -1.0
            win = {(0,): sign, (1, 0): 1.0, (1, 1): 2 * sign}[tuple(self.moves)] * self.stake
            return [win, -win]

        def __str__(self):
            return f"coin {self.coin} moves {self.moves}"


    class CoinObserver:
        def __init__(self, iig_obs_type):
            self.tensor = np.zeros(4, np.float32)
            self.dict = {"coin": self.tensor[:2], "moves": self.tensor[2:]}

        def set_from(self, state, player):
            self.tensor.fill(0)
            if player == 0 and state.coin is not None:
                self.dict["coin"][state.coin] = 1
            for i, m in enumerate(state.moves):
                self.dict["moves"][i] = 1 + m

        def string_from(self, state, player):
            coin = state.coin if player == 0 else "?"
            return f"p{player} coin {coin} moves {state.moves}"


    pyspiel.register_game(_GAME_TYPE, CoinGame)
""")


def test_openspiel_style_python_games_load_and_play(tmp_path):
    (tmp_path / "python_coin.py").write_text(PYTHON_GAME)
    assert run(tmp_path, """
        import pickle
        from boneyard import pyspiel
        pyspiel.install()
        import python_coin
        assert "python_coin" in pyspiel.registered_names() and "latin" in pyspiel.registered_names()

        # load_game makes the registered class with the declared defaults;
        # a parameter the game does not declare is refused.
        game = pyspiel.load_game("python_coin")
        assert isinstance(game, python_coin.CoinGame) and game.get_parameters() == {"stake": 1}
        assert pyspiel.load_game("python_coin(stake=2)").stake == 2
        assert pyspiel.load_game("python_coin", {"stake": 3}).stake == 3
        for bad in ("python_coin(bluff=1)", "python_coin(stake=1,stake=2)"):
            try:
                pyspiel.load_game(bad)
                raise AssertionError(bad)
            except pyspiel.SpielError as e:
                assert "bluff" in str(e) or "twice" in str(e), e
        # One Game and State for Python games and boneyard's own.
        assert isinstance(game, pyspiel.Game) and isinstance(pyspiel.load_game("latin"), pyspiel.Game)
        assert isinstance(pyspiel.load_game("latin").new_initial_state(), pyspiel.State)
        for make in (lambda: pyspiel.Game(python_coin._GAME_TYPE, python_coin._GAME_INFO, {}),
                     lambda: pyspiel.State(game)):
            try:
                make()
                raise AssertionError("a base class was constructed")
            except pyspiel.SpielError as e:
                assert "base class" in str(e), e

        # The sizes come from GameInfo; tensors from the observer.
        assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (2, 2, 2)
        assert (game.min_utility(), game.max_utility(), game.utility_sum(), game.max_game_length()) == (-2, 2, 0, 2)
        assert game.information_state_tensor_shape() == [4] and game.policy_tensor_shape() == [2]
        assert str(game) == "python_coin(stake=1)" and len(game.new_initial_states()) == 1

        root = game.new_initial_state()
        assert root.is_chance_node() and root.is_initial_state() and root.legal_actions() == [0, 1]
        assert root.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "heads"
        heads, tails = root.child(1), root.child(0)
        assert root.history() == [] and heads.history() == [1] and not heads.is_initial_state()
        assert heads.current_player() == 0 and heads.legal_actions(1) == [] and heads.action_to_string(1) == "bet"
        assert heads.legal_actions_mask().tolist() == [1, 1]
        # Player 1 cannot tell heads from tails; player 0 can.
        assert heads.information_state_string(1) == tails.information_state_string(1)
        assert heads.information_state_string(0) != tails.information_state_string(0)
        assert heads.information_state_tensor(0).tolist() == [0, 1, 0, 0]
        assert heads.child(1).information_state_tensor(1).tolist() == [0, 0, 2, 0]
        # clone copies the fields: the copy plays on alone.
        bet = heads.child(1)
        c = bet.clone()
        c.apply_action(1)
        assert c.is_terminal() and c.returns() == [2.0, -2.0] and not bet.is_terminal()
        assert c.full_history() == [(-1, 1), (0, 1), (1, 1)] and c.move_number() == 3
        assert c.rewards() == c.returns() and bet.rewards() == [0.0, 0.0]
        # serialize, deserialize_state, serialize_game_and_state, pickle.
        for back in (game.deserialize_state(c.serialize()), pickle.loads(pickle.dumps(c)),
                     pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, c))[1]):
            assert back.history() == c.history() and back.returns() == c.returns() and str(back) == str(c)
        try:
            game.max_chance_nodes_in_history()
            raise AssertionError("a chance game that does not say gave a bound")
        except pyspiel.SpielError:
            pass

        # An algorithm over the tree: best responses to the uniform policy
        # (player 0: bet on heads 1.5, pass on tails -1 → 0.5; player 1:
        # call after a bet, 0).
        table = {}
        def walk(s):
            if s.is_terminal():
                return
            if not s.is_chance_node():
                table[s.information_state_string()] = [(a, 0.5) for a in s.legal_actions()]
            for a in s.legal_actions():
                walk(s.child(a))
        walk(game.new_initial_state())
        br0 = pyspiel.TabularBestResponse(game, 0, table)
        br1 = pyspiel.TabularBestResponse(game, 1, table)
        print(br0.value(game.new_initial_state()), br1.value(game.new_initial_state()))
        print(sorted(br1.get_best_response_actions().items()))
    """).splitlines() == ["0.5 0.0", "[('p1 coin ? moves [1]', 1)]"]
