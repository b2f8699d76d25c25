"""More of pyspiel's surface (issue 36, 9), written from the contracts of
OpenSpiel's Python code: open_spiel/python/observation.py (make_observer,
_Observation read with np.frombuffer, tensors_info, set_from,
string_from), rl_environment's serialize_game_and_state, and the State
methods its algorithms call (is_initial_state, undo_action)."""
import random

import numpy as np
import pytest

from boneyard import pyspiel
from helpers import random_step


def observation_like_openspiel(game, iig_obs_type):
    """What open_spiel.python.observation.make_observation does with them."""
    observer = game.make_observer(iig_obs_type, {})
    obs = pyspiel._Observation(game, observer)
    tensor = np.frombuffer(obs, np.float32)
    views, offset = {}, 0
    for info in obs.tensors_info():
        size = int(np.prod(info.shape, dtype=np.int64))
        views[info.name] = tensor[offset:offset + size].reshape(info.shape)
        offset += size
    return obs, tensor, views


@pytest.mark.parametrize("perfect_recall", [True, False])
def test_observer_fills_the_buffer_openspiel_reads(perfect_recall):
    game = pyspiel.load_game("two-draw(single_hand=true)")
    obs, tensor, views = observation_like_openspiel(game, pyspiel.IIGObservationType(perfect_recall=perfect_recall))
    assert obs.has_tensor() and obs.has_string()
    state = game.new_initial_state(3)
    rng = random.Random(3)
    for _ in range(5):
        random_step(state, rng)
    for p in range(2):
        obs.set_from(state, p)
        if perfect_recall:
            assert np.array_equal(tensor, state.information_state_tensor(p).ravel())
            assert obs.string_from(state, p) == state.information_state_string(p)
        else:
            assert np.array_equal(tensor, state.observation_tensor(p).ravel())
            assert obs.string_from(state, p) == state.observation_string(p)
        assert list(views.values())[0].size == tensor.size
    again = pyspiel._Observation(game, game.make_observer(pyspiel.IIGObservationType(perfect_recall=perfect_recall)))
    again.decompress(obs.compress())
    assert np.array_equal(np.frombuffer(again, np.float32), tensor)


def test_observation_types_not_offered_are_refused():
    game = pyspiel.load_game("latin")
    with pytest.raises(ValueError, match="not offered"):
        game.make_observer(pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                                      private_info=pyspiel.PrivateInfoType.NONE))
    with pytest.raises(ValueError, match="no parameters"):
        game.make_observer(None, {"x": 1})
    assert pyspiel.IIGObservationType(perfect_recall=True) == pyspiel.IIGObservationType(perfect_recall=True)


def test_serialize_game_and_state_round_trips():
    for explicit in (False, True):
        game = pyspiel.load_game("latin(single_hand=true,target=100)")
        state = game.new_initial_state(5, explicit_chance=explicit)
        rng = random.Random(5)
        for _ in range(40):
            if state.is_terminal():
                break
            random_step(state, rng)
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert game2 == game
        assert state2.full_history() == state.full_history()
        assert state2.information_state_string(1) == state.information_state_string(1)
    with pytest.raises(ValueError, match=r"\[Game\]"):
        pyspiel.deserialize_game_and_state("nothing")


def test_is_initial_state_undo_action_and_sizes():
    game = pyspiel.load_game("two-draw(single_hand=true)")
    assert game.policy_tensor_shape() == [game.num_distinct_actions()]
    info = game.get_game_info()
    assert (info.num_players, info.num_distinct_actions, info.max_chance_outcomes) == (
        2, game.num_distinct_actions(), game.max_chance_outcomes())
    for state in (game.new_initial_state(), game.new_initial_state(8)):
        assert state.is_initial_state()
        rng = random.Random(8)
        seen = []
        while not state.is_terminal() and len(seen) < 40:
            seen.append((state.clone(), state.current_player()))
            random_step(state, rng)
        assert not state.is_initial_state()
        # Undo back to the start, checking each earlier state.
        for before, player in reversed(seen):
            player_last, action_last = state.full_history()[-1]
            with pytest.raises(ValueError, match="undo_action"):
                state.undo_action(player_last, action_last + 1)
            state.undo_action(player_last, action_last)
            assert state.full_history() == before.full_history()
            assert state.information_state_string(0) == before.information_state_string(0)
        assert state.is_initial_state()
        with pytest.raises(ValueError, match="no action to undo"):
            state.undo_action(0, 0)


def test_convert_to_turn_based_plays_the_same_game_one_seat_at_a_time():
    game = pyspiel.load_game("dice-and-dominoes(single_hand=true)")
    turn = pyspiel.convert_to_turn_based(game)
    assert turn.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    for seed in range(3):
        t = turn.new_initial_state(seed)
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        rounds = 0
        while not t.is_terminal():
            assert not t.is_simultaneous_node()
            if s.is_simultaneous_node():
                acting = [p for p in range(game.num_players()) if s.is_player_acting(p)]
                joint = [-1] * game.num_players()
                for p in acting:  # each acting seat in turn, seat order
                    assert t.current_player() == p
                    before = [t.information_state_string(q) for q in acting if q != p]
                    joint[p] = rng.choice(t.legal_actions())
                    assert t.legal_actions(p) and all(t.legal_actions(q) == [] for q in acting if q != p)
                    t.apply_action(joint[p])
                    if p != acting[-1]:  # another seat's text does not show the choice
                        assert [t.information_state_string(q) for q in acting if q != p] == before
                s.apply_actions(joint)
                rounds += 1
            else:
                a = rng.choice(t.legal_actions())
                t.apply_action(a)
                s.apply_action(a)
            assert t.information_state_tensor(0).shape == tuple(turn.information_state_tensor_shape())
        assert s.is_terminal() and t.returns() == s.returns() and rounds > 0
        assert t.clone().returns() == s.returns()


class _CoinState:
    """A tiny game with the pyspiel State interface: chance flips a coin
    that only player 0 sees; player 0 announces 0 or 1; player 1 guesses the
    coin from the announcement, winning 1 if right and losing 1 if not."""

    def __init__(self, history=()):
        self.h = list(history)

    def current_player(self):
        return [pyspiel.CHANCE, 0, 1][len(self.h)] if len(self.h) < 3 else pyspiel.TERMINAL

    def is_terminal(self):
        return len(self.h) == 3

    def is_chance_node(self):
        return len(self.h) == 0

    def is_simultaneous_node(self):
        return False

    def chance_outcomes(self):
        return [(0, 0.5), (1, 0.5)]

    def legal_actions(self, player=None):
        return [0, 1]

    def child(self, action):
        return _CoinState(self.h + [action])

    def full_history(self):
        return [(i, a) for i, a in enumerate(self.h)]

    def information_state_string(self, player):
        return f"p0 coin={self.h[0]}" if player == 0 else f"p1 announced={self.h[1]}"

    def returns(self):
        x = 1.0 if self.h[2] == self.h[0] else -1.0
        return [-x, x]


class _CoinGame:
    def num_players(self):
        return 2

    def new_initial_state(self):
        return _CoinState()


def test_tabular_best_response_exploits_what_a_policy_gives_away():
    game = _CoinGame()
    truthful = {"p0 coin=0": [(0, 1.0)], "p0 coin=1": [(1, 1.0)]}
    uniform_guess = {f"p1 announced={a}": [(0, 0.5), (1, 0.5)] for a in (0, 1)}
    uniform_announce = {f"p0 coin={c}": [(0, 0.5), (1, 0.5)] for c in (0, 1)}
    # Player 1 against a truthful announcer: guess what was announced, win always.
    br = pyspiel.TabularBestResponse(game, 1, {**truthful, **uniform_guess})
    assert br.get_best_response_actions() == {"p1 announced=0": 0, "p1 announced=1": 1}
    assert br.value(game.new_initial_state()) == 1.0
    # Against an announcement that says nothing, nothing is gained.
    assert pyspiel.TabularBestResponse(game, 1, {**uniform_announce, **uniform_guess}).value(
        game.new_initial_state()) == 0.0
    # Player 0 against uniform guesses: every announcement is worth 0.
    assert pyspiel.TabularBestResponse(game, 0, {**truthful, **uniform_guess}).value(game.new_initial_state()) == 0.0
    with pytest.raises(ValueError, match="no entry"):
        pyspiel.TabularBestResponse(game, 0, truthful)  # no table for player 1
    with pytest.raises(ValueError, match="does not exist"):
        pyspiel.TabularBestResponse(game, 2, truthful)


def test_tabular_best_response_on_a_domino_variant():
    game = pyspiel.load_game("two-sleep(single_hand=true,hand_size=1)")
    table = {}
    for state in _all_decision_states(game):
        p = state.current_player()
        legal = state.legal_actions()
        table[state.information_state_string(p)] = [(a, 1 / len(legal)) for a in legal]
    for p in range(2):
        br = pyspiel.TabularBestResponse(game, p, table)
        acts = br.get_best_response_actions()
        assert acts and all(isinstance(a, int) for a in acts.values())
        assert abs(br.value(game.new_initial_state())) <= game.max_utility()


def _all_decision_states(game):
    out, stack = [], [game.new_initial_state()]
    while stack:
        s = stack.pop()
        if s.is_terminal():
            continue
        if not s.is_chance_node():
            out.append(s)
        for a in (s.legal_actions() if not s.is_chance_node() else [a for a, _ in s.chance_outcomes()]):
            stack.append(s.child(a))
    return out


@pytest.mark.parametrize("name", ["latin", "mexican-train", "texas-42", "dice-and-dominoes"])
def test_max_chance_nodes_in_history_bounds_the_chance_nodes_of_a_history(name):
    # OpenSpiel: an upper bound on the chance nodes in any history (its
    # MaxHistoryLength adds it to max_game_length).
    game = pyspiel.load_game(name, {"single_hand": True})
    bound = game.max_chance_nodes_in_history()
    assert isinstance(bound, int) and bound > 0
    assert pyspiel.load_game(name).max_chance_nodes_in_history() > bound
    rng = random.Random(5)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            random_step(state, rng)
        chance = sum(1 for p, _ in state.full_history() if p == pyspiel.PlayerId.CHANCE)
        assert 0 < chance <= bound
