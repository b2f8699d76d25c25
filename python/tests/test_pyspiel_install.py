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
# exploitability): a GameType and GameInfo at import, classes deriving from
# pyspiel.Game and pyspiel.State, an annotation naming StateStruct, and
# register_game.
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
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={})
    _GAME_INFO = pyspiel.GameInfo(
        num_distinct_actions=2, max_chance_outcomes=2, num_players=2, min_utility=-1.0, max_utility=1.0,
        utility_sum=0.0, max_game_length=3)
    _OBS = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)


    class CoinGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(_GAME_TYPE, _GAME_INFO, params or dict())


    class CoinState(pyspiel.State):
        def __init__(self, game, state: pyspiel.StateStruct | None = None):
            super().__init__(game)


    pyspiel.register_game(_GAME_TYPE, CoinGame)
""")


def test_openspiel_style_python_games_import_and_are_refused_clearly(tmp_path):
    (tmp_path / "python_coin.py").write_text(PYTHON_GAME)
    assert run(tmp_path, """
        from boneyard import pyspiel
        pyspiel.install()
        import python_coin  # the import succeeds: what policy.py needs
        assert "python_coin" in pyspiel.registered_names() and "latin" in pyspiel.registered_names()
        for make in (lambda: pyspiel.load_game("python_coin"), lambda: python_coin.CoinGame()):
            try:
                make()
            except ValueError as e:
                assert "incompatible" not in str(e) and "No constructor" not in str(e), e
                print(str(e).split(":")[0])
    """).splitlines() == ["'python_coin' is one of OpenSpiel's Python games (register_game)",
                          "boneyard.Game cannot be constructed"]
