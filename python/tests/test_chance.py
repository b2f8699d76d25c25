"""Explicit chance (docs/python.md, Chance): new_initial_state(seed,
explicit_chance=True) exposes every deal, draw and roll one tile (or die) at
a time, as OpenSpiel does."""
import json
import random
from collections import Counter

import numpy as np
import pytest

import boneyard
from helpers import random_step

CHANCE = boneyard.CHANCE
# One per family and the variants whose chance differs: the lead drawn for
# before the deal (latin) and after it (three-21), a boneyard to draw from
# (two-draw, three-draw), sleeping tiles (two-sleep), double-nine (havana),
# Mexican Train's engine by round, Dice & Dominoes on two sets (players=7).
CHANCE_GAMES = ["latin", "two-draw", "three-draw", "two-sleep", "havana", "three-21", "mexican-train",
                "mexican-train:engine=round_doubles", "texas-42", "dice-and-dominoes", "dice-and-dominoes:players=7"]


def single(name, **extra):
    """name, or name:key=value,... (extra options)."""
    params = {"single_hand": True}
    if ":" in name:
        name, opts = name.split(":")
        params.update(kv.split("=") for kv in opts.split(","))
    params.update(extra)
    return boneyard.load_game(name, params)


def family_of(name):
    return boneyard.game_info(name.split(":")[0])["family"]


def view(state):
    return json.loads(state.view_json(-1))


def hands_of(v):
    """Each seat's tiles, as text, from a full view."""
    if "players" in v:  # Dice & Dominoes
        return [p["tiles"] for p in v["players"]]
    return [h["tiles"] for h in v["hands"]]


def check_outcomes(state, game, draws_so_far=()):
    outcomes = state.chance_outcomes()
    actions = [a for a, _ in outcomes]
    probs = [p for _, p in outcomes]
    assert outcomes, "a chance node has outcomes"
    assert actions == sorted(set(actions)), "distinct, sorted"
    assert 0 <= actions[0] and actions[-1] < game.max_chance_outcomes()
    assert abs(sum(probs) - 1.0) < 1e-12
    assert state.legal_actions() == actions
    assert state.legal_actions(CHANCE) == actions
    mask = state.legal_actions_mask()
    assert mask.shape == (game.max_chance_outcomes(),) and list(np.flatnonzero(mask)) == actions
    for p in range(state.num_players()):
        assert state.legal_actions(p) == [] and not state.is_player_acting(p)
    event = state.chance_event()
    assert event in ("deal", "draw", "dealer_draw", "roll")
    if event == "roll":
        assert actions == list(range(28, 34)) and all(abs(p - 1 / 6) < 1e-12 for p in probs)
        assert [state.action_to_string(CHANCE, a) for a in actions] == [f"die {d}" for d in range(1, 7)]
    else:
        # Tiles: uniform over what is left (a second set's twins weigh double).
        counts = [round(p / min(probs)) for p in probs]
        total = sum(counts)
        assert all(abs(p - c / total) < 1e-12 for p, c in zip(probs, counts))
    if event == "draw":
        # Uniform over the boneyard's undrawn tiles (never the sleeping ones).
        v = view(state)
        stock = Counter(v["stock"])
        if v.get("sleeping"):
            stock = Counter(v["stock"][: len(v["stock"]) - v["sleeping"]])
        # The tiles already chosen for this move's earlier draws are next in
        # the boneyard (Dice & Dominoes: one per drawing player).
        stock -= Counter(draws_so_far)
        total = sum(stock.values())
        got = {state.action_to_string(CHANCE, a): p for a, p in outcomes}
        assert set(got) == set(stock)
        assert all(abs(got[t] - stock[t] / total) < 1e-12 for t in got)
    for a in actions:
        assert state.string_to_action(CHANCE, state.action_to_string(CHANCE, a)) == a
    return outcomes


def play_explicit(game, seed, rng, checks=True):
    """Random chance outcomes and random moves to the end, checking the rules
    hold. Returns the state."""
    state = game.new_initial_state(seed, explicit_chance=True)
    assert state.explicit_chance() and state.is_chance_node() and state.current_player() == CHANCE
    family = boneyard.game_info(game.name())["family"]
    chosen = []          # this chance event's tiles
    event = None
    draws = []           # (tile text) drawn since the last player move
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < 100000
        if state.is_chance_node():
            event = state.chance_event()
            outcomes = check_outcomes(state, game, draws) if checks else state.chance_outcomes()
            a = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
            text = state.action_to_string(CHANCE, a)
            n = len(state.history())
            state.apply_action(a)
            assert state.history()[n:] == [a] and state.full_history()[-1] == (CHANCE, a)
            if event == "draw":
                draws.append(text)
            elif event == "deal":
                chosen.append(text)
            continue
        if checks and (chosen or draws):
            v = view(state)
            hands = hands_of(v)
            held = Counter(t for h in hands for t in h)
            if family != "dice-and-dominoes":
                assert max(held.values()) == 1, "no tile twice"
            if chosen:
                check_deal(game, family, v, hands, chosen)
            for t in draws:
                assert held[t] >= 1, f"the drawn tile {t} is in a hand"
        chosen, draws, event = [], [], None
        random_step(state, rng)
    return state


def check_deal(game, family, v, hands, chosen):
    """The tiles dealt are the tiles chosen, seat 0 first."""
    n = len(hands)
    if family == "mexican-train":
        # The hands, then the start player's draws for the engine.
        h = (len(chosen) - v["engine_draws"]) // n
        dealt = [chosen[i * h:(i + 1) * h] for i in range(n)]
        for s in range(n):
            expect = set(dealt[s]) | (set(chosen[n * h:]) if s == v["engine_seat"] else set())
            expect.discard(v["engine"])
            assert set(hands[s]) == expect
        return
    h = len(hands[0])
    assert all(len(x) == h for x in hands), "every hand holds the rules' size"
    if family == "dice-and-dominoes":
        assert h == 4
        for s in range(n):
            assert Counter(hands[s]) == Counter(chosen[s * h:(s + 1) * h])
        return
    # Line games: draws for the lead may come before (they go back) or after
    # (they sleep) the hands.
    ok = any(all(set(hands[s]) == set(chosen[off + s * h:off + (s + 1) * h]) for s in range(n))
             for off in range(len(chosen) - n * h + 1))
    assert ok, (hands, chosen)


@pytest.mark.parametrize("name", CHANCE_GAMES)
def test_explicit_chance_playouts(name):
    game = single(name)
    rng = random.Random(7)
    for seed in range(4):
        state = play_explicit(game, seed, rng)
        r = state.returns()
        assert len(r) == game.num_players()
        assert not state.is_chance_node() and state.current_player() == boneyard.TERMINAL


@pytest.mark.parametrize("name", ["latin", "mexican-train", "texas-42", "dice-and-dominoes"])
def test_explicit_chance_full_games(name):
    """Whole games (several hands): every deal is a chance event again."""
    game = boneyard.load_game(name, {"rounds": 3} if name == "mexican-train" else None)
    rng = random.Random(3)
    state = play_explicit(game, 5, rng, checks=False)
    assert state.is_terminal() and state.hands_finished() >= 1


def test_default_is_unchanged():
    for name in CHANCE_GAMES:
        game = single(name)
        s = game.new_initial_state(11)
        assert not s.is_chance_node() and not s.explicit_chance() and s.chance_event() == ""
        with pytest.raises(ValueError, match="explicit_chance=True"):
            s.chance_outcomes()
        assert s.history() == []


def test_max_chance_outcomes():
    assert single("latin").max_chance_outcomes() == 28
    assert single("havana").max_chance_outcomes() == 55
    assert single("mexican-train").max_chance_outcomes() == 91
    assert single("texas-42").max_chance_outcomes() == 28
    assert single("dice-and-dominoes").max_chance_outcomes() == 34
    for name in boneyard.registered_games():
        g = single(name)
        assert g.max_chance_outcomes() > 0


def seeded_sequence(family, v, event):
    """The outcomes the seeded generator chose, read off the default state's
    full view just after the event."""
    hands = hands_of(v)
    if event == "roll":
        return [f"die {d}" for d in v["match_points"]]
    if event == "dealer_draw":
        return list(v["first_dealer_draw"])
    if family == "mexican-train":
        assert v["engine_draws"] == 0
        hands = [list(h) for h in hands]
        if v["engine_seat"] is not None and v["engine_seat"] >= 0:
            hands[v["engine_seat"]].append(v["engine"])
    return [t for h in hands for t in h]


@pytest.mark.parametrize("name", ["caribbean", "two-draw", "three-draw", "mexican-train", "mexican-train:engine=round_doubles",
                                  "texas-42", "dice-and-dominoes", "dice-and-dominoes:players=7"])
def test_explicit_matches_seeded(name):
    """Explicit chance given the outcomes the seeded generator chose is the
    default state: the same observations and information states for every
    player at every decision."""
    game = single(name)
    family = family_of(name)
    matched = 0
    for seed in range(6):
        d = game.new_initial_state(seed)
        e = game.new_initial_state(seed, explicit_chance=True)
        if family == "mexican-train" and view(d)["engine_draws"]:
            continue  # the start player drew for the engine: not read back here
        rng = random.Random(seed)
        before = None  # the default state's view before the last move
        while True:
            v = view(d)
            stock = list(before.get("stock", [])) if before else []
            queue, queue_event = [], None
            while e.is_chance_node():
                event = e.chance_event()
                if event == "draw":
                    t = stock.pop(0)
                else:
                    if queue_event != event or not queue:
                        queue, queue_event = seeded_sequence(family, v, event), event
                    t = queue.pop(0)
                e.apply_action(e.string_to_action(CHANCE, t))
            assert e.current_player() == d.current_player()
            assert e.is_terminal() == d.is_terminal()
            for p in range(game.num_players()):
                assert np.array_equal(e.observation_tensor(p), d.observation_tensor(p))
                assert np.array_equal(e.information_state_tensor(p), d.information_state_tensor(p))
                assert e.observation_string(p) == d.observation_string(p)
                # One information state, one string (issue 36, 11).
                assert e.information_state_string(p) == d.information_state_string(p)
            if d.is_terminal():
                assert e.returns() == d.returns()
                break
            before = v
            if d.is_simultaneous_node():
                acts = [rng.choice(d.legal_actions(p)) if d.is_player_acting(p) else -1
                        for p in range(d.num_players())]
                d.apply_actions(acts)
                e.apply_actions(acts)
            else:
                a = rng.choice(d.legal_actions())
                d.apply_action(a)
                e.apply_action(a)
        matched += 1
        # The player moves are the same; explicit chance adds its outcomes.
        assert [a for p, a in e.full_history() if p != CHANCE] == d.history()
    assert matched >= 3


@pytest.mark.parametrize("name", ["two-draw", "mexican-train", "texas-42", "dice-and-dominoes"])
def test_clone_and_serialize_mid_chance(name):
    game = single(name)
    rng = random.Random(1)
    state = game.new_initial_state(21, explicit_chance=True)
    # Into the deal: a few tiles chosen, the rest pending.
    for _ in range(3):
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_chance_node()
    snapshots = [state.clone(), game.deserialize_state(state.serialize())]
    # And one at a draw (or roll) in the middle of play, when the game has one.
    probe = state.clone()
    while not probe.is_terminal():
        if probe.is_chance_node() and probe.chance_event() in ("draw", "roll"):
            snapshots.append(probe.clone())
            snapshots.append(game.deserialize_state(probe.serialize()))
            break
        if probe.is_chance_node():
            probe.apply_action(rng.choice(probe.legal_actions()))
        else:
            random_step(probe, rng)
    for snap in snapshots:
        base = snap.clone()
        assert base.history() == snap.history() and base.full_history() == snap.full_history()
        assert base.chance_outcomes() == snap.chance_outcomes()
        assert base.chance_event() == snap.chance_event()
        # Playing one on does not move the other; both play the same game.
        r1, r2 = random.Random(9), random.Random(9)
        for s, r in ((base, r1), (snap, r2)):
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(r.choice(s.legal_actions()))
                else:
                    random_step(s, r)
        assert base.history() == snap.history() and str(base) == str(snap)
        assert base.returns() == snap.returns()
        again = game.deserialize_state(base.serialize())
        assert again.history() == base.history() and str(again) == str(base)


def test_bad_chance_input():
    game = single("two-draw")
    state = game.new_initial_state(1, explicit_chance=True)
    outcomes = [a for a, _ in state.chance_outcomes()]
    state.apply_action(outcomes[0])
    with pytest.raises(ValueError, match="illegal chance action"):
        state.apply_action(outcomes[0])  # dealt already
    with pytest.raises(ValueError, match="illegal chance action"):
        state.apply_action(10**6)
    with pytest.raises(ValueError, match="illegal chance action"):
        state.apply_action(-1)
    with pytest.raises(ValueError, match="outside"):
        state.action_to_string(CHANCE, 999)
    with pytest.raises(ValueError):
        state.string_to_action(CHANCE, "9-9-9")
    with pytest.raises(ValueError, match="chance node"):
        state.resample_from_infostate(0, 1)
    with pytest.raises(ValueError):
        game.deserialize_state(json.dumps({"explicit_chance": True, "game": "latin", "seed": 1, "actions": []}))
    bad = json.loads(state.serialize())
    bad["actions"].append([CHANCE, outcomes[0]])
    with pytest.raises(ValueError, match="illegal chance action"):
        game.deserialize_state(json.dumps(bad))
    bad["actions"][-1] = [0, 1]
    with pytest.raises(ValueError, match="player"):
        game.deserialize_state(json.dumps(bad))
    dice = single("dice-and-dominoes").new_initial_state(1, explicit_chance=True)
    while dice.chance_event() == "deal":
        dice.apply_action(dice.legal_actions()[0])
    assert dice.chance_event() == "roll"
    with pytest.raises(ValueError, match="illegal chance action"):
        dice.apply_action(0)  # a tile, not a die
    with pytest.raises(ValueError, match="a chance node"):
        dice.apply_actions([28, 29, 30, 31])


def test_env_explicit_chance():
    env = boneyard.DominoEnv("two-draw", {"single_hand": True}, explicit_chance=True)
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert not env.state.is_chance_node()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.state.is_terminal()
        assert any(p == CHANCE for p, _ in env.state.full_history())
    # The same seed, the same chance outcomes.
    h = []
    for _ in range(2):
        env.reset(seed=4)
        h.append(env.state.full_history())
    assert h[0] == h[1]
    picked = []

    def first(state):
        picked.append(state.chance_event())
        return state.legal_actions()[0]

    env = boneyard.DominoEnv("latin", {"single_hand": True}, chance_fn=first)
    env.reset(seed=1)
    assert picked == ["deal"] * 32  # latin: a tile per seat drawn for the lead, then the hands
    # The first outcome each time: the lead draws take tiles 0..3 (they go
    # back), then seat 0 gets the seven lowest tile indices.
    tiles = {boneyard.load_game("latin").new_initial_state(1, explicit_chance=True).action_to_string(CHANCE, a)
             for a in range(7)}
    assert set(json.loads(env.state.view_json(-1))["hands"][0]["tiles"]) == tiles
