"""An OpenSpiel-style conformance battery over every registered game,
written from OpenSpiel's documented contracts (spiel.h and its basic tests):
random simulation with clone and serialize at every step, chance outcomes,
information-state consistency under resampling, returns within the utility
bounds, and a text for every action."""
import pickle
import random

import numpy as np
import pytest

import boneyard as pyspiel

GAMES = pyspiel.registered_games()


def check_state(game, state, rng):
    n = game.num_players()
    # Clones and serialized copies are the same state.
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state) and copy.full_history() == state.full_history()
    assert copy.current_player() == state.current_player()
    assert pickle.loads(pickle.dumps(state)).history() == state.history()
    assert state.move_number() == len(state.history()) <= game.max_game_length() + game.max_chance_outcomes() * 4 + 200
    if state.is_terminal():
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert state.legal_actions() == []
        returns = state.returns()
        assert len(returns) == n
        for r in returns:
            assert game.min_utility() <= r <= game.max_utility()
        assert sum(returns) == pytest.approx(game.utility_sum())
        return
    assert state.returns() == [0.0] * n and state.rewards() == [0.0] * n
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        assert actions == sorted(actions) and len(set(actions)) == len(actions)
        assert all(0 <= a < game.max_chance_outcomes() for a in actions)
        assert all(p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert state.legal_actions() == actions
        for a in actions:
            assert state.action_to_string(pyspiel.CHANCE, a)
        return
    # Decision node: actions sorted, in range, each with a text; every
    # action in range has a text too (legal or not).
    players = [state.current_player()] if not state.is_simultaneous_node() else \
        [p for p in range(n) if state.is_player_acting(p)]
    for p in players:
        legal = state.legal_actions(p)
        assert legal and legal == sorted(legal) and len(set(legal)) == len(legal)
        assert all(0 <= a < game.num_distinct_actions() for a in legal)
        mask = state.legal_actions_mask(p)
        assert list(np.flatnonzero(mask)) == legal
        texts = {state.action_to_string(p, a) for a in legal}
        assert len(texts) == len(legal)
        for a in rng.sample(range(game.num_distinct_actions()), min(20, game.num_distinct_actions())):
            assert isinstance(state.action_to_string(p, a), str)
        # Applying to a clone leaves the state alone.
        before = str(state)
        if not state.is_simultaneous_node():
            state.child(legal[0])
        assert str(state) == before
    for p in range(n):
        obs = state.observation_tensor(p)
        info = state.information_state_tensor(p)
        assert obs.shape == tuple(game.observation_tensor_shape())
        assert info.shape == tuple(game.information_state_tensor_shape())
        assert np.isfinite(obs).all() and np.isfinite(info).all()
        assert isinstance(state.observation_string(p), str)
        # Information-state consistency: a world resampled for p is the
        # same information state for p.
        world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(rng.getrandbits(30)))
        assert world.information_state_string(p) == state.information_state_string(p)
        assert (world.information_state_tensor(p) == info).all()
        assert (world.observation_tensor(p) == obs).all()
        assert world.legal_actions(p) == state.legal_actions(p)


def simulate(game, state, rng, check_every=1):
    steps = 0
    while True:
        if steps % check_every == 0 or state.is_terminal():
            check_state(game, state, rng)
        if state.is_terminal():
            return steps
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) if state.is_player_acting(p) else -1
                                 for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1


@pytest.mark.parametrize("name", GAMES)
def test_random_simulation_chance_root(name):
    game = pyspiel.load_game(name, {"single_hand": True})
    rng = random.Random(name)
    assert simulate(game, game.new_initial_state(), rng) > 0


@pytest.mark.parametrize("name", GAMES)
def test_random_simulation_seeded(name):
    game = pyspiel.load_game(name, {"single_hand": True})
    rng = random.Random(name + "s")
    assert simulate(game, game.new_initial_state(rng.getrandbits(64)), rng) > 0


@pytest.mark.parametrize("name", ["latin", "two-draw", "texas-42", "dice-and-dominoes"])
def test_random_simulation_whole_game(name):
    # A whole game (several hands), checked every few steps.
    game = pyspiel.load_game(name, {"hands": 2} if name == "dice-and-dominoes" else None)
    rng = random.Random(7)
    simulate(game, game.new_initial_state(3), rng, check_every=17)


@pytest.mark.parametrize("name", ["latin", "mexican-train", "texas-42", "dice-and-dominoes"])
def test_game_attributes(name):
    game = pyspiel.load_game(name, {"single_hand": True})
    assert game.num_players() >= 2 and game.num_distinct_actions() > 0
    assert game.max_chance_outcomes() > 0 and game.max_game_length() > 0
    assert game.min_utility() < game.max_utility()
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM and game.utility_sum() == 0.0
    assert pickle.loads(pickle.dumps(game)) == game
