"""OpenSpiel's names and meanings (docs/python.md, Coming from OpenSpiel),
and clear errors for bad input."""
import pickle
import random

import pytest

import boneyard
import boneyard as pyspiel
from boneyard import pyspiel as pyspiel_module
from helpers import random_step


def test_player_ids_and_constants():
    assert pyspiel.PlayerId.CHANCE == -1 == pyspiel.CHANCE
    assert pyspiel.PlayerId.SIMULTANEOUS == -2
    assert pyspiel.PlayerId.INVALID == -3
    assert pyspiel.PlayerId.TERMINAL == -4
    assert pyspiel.INVALID_ACTION == -1
    assert issubclass(pyspiel.SpielError, RuntimeError) and issubclass(pyspiel.SpielError, ValueError)
    assert pyspiel_module.load_game is boneyard.load_game


def test_spiel_error_is_raised_for_illegal_actions():
    state = pyspiel.load_game("latin(single_hand=true)").new_initial_state(1)
    with pytest.raises(RuntimeError, match="illegal action"):
        state.apply_action(max(range(state.num_distinct_actions()), key=lambda a: a not in state.legal_actions()))


def test_game_strings_and_parameters():
    game = pyspiel.load_game("latin(single_hand=true,target=100)")
    assert game.get_parameters() == {"single_hand": True, "target": 100}
    assert str(game) == "latin(single_hand=on,target=100)"
    again = pyspiel.load_game(str(game))
    assert again.get_parameters() == game.get_parameters() and again == game
    assert pyspiel.load_game("texas-42").get_parameters() == {}
    assert str(pyspiel.load_game("texas-42")) == "texas-42"
    with pytest.raises(ValueError, match="option=value"):
        pyspiel.load_game("latin(single_hand)")
    with pytest.raises(ValueError, match="name\\(option=value"):
        pyspiel.load_game("latin(single_hand=true")


@pytest.mark.parametrize("name", ["latin", "texas-42", "mexican-train", "dice-and-dominoes"])
def test_game_type(name):
    game = pyspiel.load_game(name, {"single_hand": True})
    t = game.get_type()
    simultaneous = name == "dice-and-dominoes"
    assert t.dynamics == (pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous
                          else pyspiel.GameType.Dynamics.SEQUENTIAL)
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.provides_information_state_string and t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert t.short_name == name and t.max_num_players == game.num_players()
    assert "single_hand" in t.parameter_specification
    whole = pyspiel.load_game(name).get_type()
    assert whole.utility == pyspiel.GameType.Utility.CONSTANT_SUM


def test_new_initial_state_starts_at_the_chance_root():
    game = pyspiel.load_game("latin(single_hand=true)")
    root = game.new_initial_state()
    assert root.is_chance_node() and root.current_player() == pyspiel.PlayerId.CHANCE
    assert sum(p for _, p in root.chance_outcomes()) == pytest.approx(1.0)
    seeded = game.new_initial_state(7)
    assert not seeded.is_chance_node() and not seeded.explicit_chance()
    assert game.new_initial_state(7, explicit_chance=True).is_chance_node()
    assert not game.new_initial_state(explicit_chance=False).is_chance_node()
    assert [s.is_chance_node() for s in game.new_initial_states()] == [True]


def test_state_methods():
    game = pyspiel.load_game("latin(single_hand=true)")
    state = game.new_initial_state(3)
    assert state.get_game() == game and state.get_game().num_players() == 4
    assert state.is_player_node() and not state.is_simultaneous_node() and not state.is_chance_node()
    a = state.legal_actions()[0]
    child = state.child(a)
    assert state.move_number() == 0 and child.move_number() == 1
    assert child.history() == [a] and child.history_str() == str(a)
    assert state.history() == []  # child() leaves the state alone
    rng = random.Random(1)
    while not child.is_terminal():
        random_step(child, rng)
    assert [child.player_return(p) for p in range(4)] == child.returns()
    assert not child.is_player_node() and child.current_player() == pyspiel.PlayerId.TERMINAL
    with pytest.raises(ValueError, match="does not exist"):
        child.player_return(4)


def test_utilities_bound_returns():
    for name in ["latin", "two-draw", "texas-42", "mexican-train", "dice-and-dominoes"]:
        for single in (True, False):
            game = pyspiel.load_game(name, {"single_hand": single})
            rng = random.Random(2)
            for seed in range(3 if single else 1):
                state = game.new_initial_state(seed)
                while not state.is_terminal():
                    random_step(state, rng)
                r = state.returns()
                assert all(game.min_utility() <= x <= game.max_utility() for x in r)
                assert sum(r) == pytest.approx(game.utility_sum())


def test_action_to_string_for_every_action():
    game = pyspiel.load_game("latin(single_hand=true)")
    state = game.new_initial_state(3)
    texts = [state.action_to_string(state.current_player(), a) for a in range(game.num_distinct_actions())]
    assert len(set(texts)) == len(texts)
    assert state.action_to_string(state.legal_actions()[0]) == texts[state.legal_actions()[0]]
    with pytest.raises(ValueError, match="outside 0"):
        state.action_to_string(0, game.num_distinct_actions())
    root = game.new_initial_state()
    assert root.action_to_string(pyspiel.CHANCE, 0) == "0-0"


def test_resample_with_a_probability_sampler():
    game = pyspiel.load_game("latin(single_hand=true)")
    state = game.new_initial_state(4)
    state.apply_action(state.legal_actions()[0])
    sampler = pyspiel.UniformProbabilitySampler(9, 0.0, 1.0)
    worlds = [state.resample_from_infostate(1, sampler) for _ in range(5)]
    assert all(w.information_state_string(1) == state.information_state_string(1) for w in worlds)
    assert len({w.view_json(-1) for w in worlds}) > 1
    # The same sampler stream gives the same world.
    a = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(3))
    b = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(3))
    assert a.view_json(-1) == b.view_json(-1)
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        state.resample_from_infostate(1, lambda: 1.5)
    # pyspiel's two forms: (min, max) from a random seed, (seed, min, max).
    unseeded = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    assert all(0.0 <= unseeded() < 1.0 for _ in range(100))
    assert len({unseeded() for _ in range(10)}) > 1
    assert state.resample_from_infostate(1, unseeded).information_state_string(1) == \
        state.information_state_string(1)
    assert state.resample_from_infostate(1, lambda: 1.0).information_state_string(1) == \
        state.information_state_string(1)


def test_pickle_game_and_state():
    for game in [pyspiel.load_game("latin(single_hand=true)"), pyspiel.load_game("dice-and-dominoes")]:
        g2 = pickle.loads(pickle.dumps(game))
        assert g2 == game and g2.num_distinct_actions() == game.num_distinct_actions()
        rng = random.Random(5)
        for explicit in (False, True):
            state = game.new_initial_state(11, explicit_chance=explicit)
            for _ in range(12):
                if state.is_terminal():
                    break
                random_step(state, rng)
            s2 = pickle.loads(pickle.dumps(state))
            assert s2.full_history() == state.full_history()
            assert str(s2) == str(state)
            assert s2.information_state_string(0) == state.information_state_string(0)


def test_seeded_clone_carries_the_stock_and_resample_chance_changes_it():
    game = pyspiel.load_game("two-draw(single_hand=true)")
    drawn_same = drawn_other = 0
    for seed in range(40):
        state = game.new_initial_state(seed)
        # Play until someone must draw.
        rng = random.Random(seed)
        while not state.is_terminal() and not any(
                "draw" == state.action_to_string(a) for a in state.legal_actions()):
            random_step(state, rng)
        if state.is_terminal():
            continue
        draw = next(a for a in state.legal_actions() if state.action_to_string(a) == "draw")
        p = state.current_player()
        a, b = state.clone(), state.clone()
        a.apply_action(draw)
        b.apply_action(draw)
        drawn_same += a.information_state_string(p) == b.information_state_string(p)
        c = state.clone().resample_chance(seed + 1000)
        assert c.information_state_string(p) == state.information_state_string(p)
        assert c.observation_string(p) == state.observation_string(p)
        c.apply_action(draw)
        drawn_other += c.information_state_string(p) != a.information_state_string(p)
    assert drawn_same >= 10 and drawn_other >= 1
    with pytest.raises(ValueError, match="explicit-chance"):
        game.new_initial_state().resample_chance(1)


class FirstLegal(pyspiel.Bot):
    def __init__(self):
        pyspiel.Bot.__init__(self)
        self.informed = 0

    def step(self, state):
        return state.legal_actions()[0]

    def inform_action(self, state, player_id, action):
        self.informed += 1


def test_bot_base_class():
    game = pyspiel.load_game("latin(single_hand=true)")
    state = game.new_initial_state(2)
    bot = FirstLegal()
    bot.restart_at(state)
    policy, action = bot.step_with_policy(state)
    assert policy == [(action, 1.0)] and action == state.legal_actions()[0]
    assert not bot.provides_policy() and not bot.is_clone_able() and not bot.provides_force_action()
    assert isinstance(boneyard.make_bot(game, "random", 0), pyspiel.Bot)
    with pytest.raises(NotImplementedError):
        pyspiel.Bot().step(state)


# --- errors (point 5) ---

@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True])
def test_bad_seeds_raise_a_clear_error(seed):
    game = pyspiel.load_game("latin(single_hand=true)")
    with pytest.raises(ValueError, match=r"seed must be an int in 0\.\.2\*\*64-1"):
        game.new_initial_state(seed)


def test_largest_seed_is_fine():
    game = pyspiel.load_game("latin(single_hand=true)")
    assert not game.new_initial_state(2**64 - 1).is_terminal()


def test_bad_players_raise_everywhere():
    game = pyspiel.load_game("latin(single_hand=true)")
    state = game.new_initial_state(1)
    for call in (state.legal_actions, state.legal_actions_mask, state.observation_tensor,
                 state.information_state_tensor, state.observation_string, state.information_state_string):
        with pytest.raises(ValueError, match="player 9 does not exist"):
            call(9)
    with pytest.raises(ValueError, match="player -7 does not exist"):
        state.legal_actions(-7)
    # Not this player's turn: no actions (as OpenSpiel).
    assert state.legal_actions((state.current_player() + 1) % 4) == []


def test_options_json_gives_the_options_only():
    import json
    game = pyspiel.load_game("latin", {"single_hand": True, "target": 100})
    o = json.loads(game.options_json())
    assert o["single_hand"] is True and o["target"] == 100 and o["set"] == "double-six"
    assert "hands" not in o and "actor" not in o


@pytest.mark.parametrize("name", ["latin", "jamaica", "santiago", "two-draw", "mexican-train", "texas-42",
                                  "dice-and-dominoes"])
def test_single_hand_returns_are_the_records_side_points(name):
    # returns() reads each game's hand result directly; the record's
    # side_points come from the engine's full hand summary.
    import json
    game = pyspiel.load_game(name, {"single_hand": True})
    rng = random.Random(6)
    sign = -1.0 if name == "mexican-train" else 1.0
    for seed in range(4):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            random_step(state, rng)
        points = json.loads(state.serialize())["hands"][-1]["side_points"]
        mean = sum(points) / len(points)
        sides = len(state.scores())
        for p, r in enumerate(state.returns()):
            side = p % sides  # partners sit opposite (seat & 1); otherwise a seat is its side
            assert r == pytest.approx(sign * (points[side] - mean))
