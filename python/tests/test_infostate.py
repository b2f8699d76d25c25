"""The information-state string is perfect recall (docs/python.md,
Information state): the seat's own tiles and every public action in order
with its actor, nothing hidden; so is the tensor, within the hand."""
import hashlib
import json
import random
import re

import pytest

import boneyard
from helpers import random_step

TILE = re.compile(r"\b\d+-\d+\b")
FAMILY_GAMES = ["latin", "two-draw", "mexican-train", "texas-42", "dice-and-dominoes"]


def single(name):
    return boneyard.load_game(name, {"single_hand": True})


def public_history(state):
    """The players' actions with their actors (every move of a line game,
    Texas 42 and Mexican Train is public)."""
    return tuple((p, a) for p, a in state.full_history() if p >= 0)


def test_issue_example_two_plays_swapped_differ():
    # latin, seed 5, seat 0: another seat's two plays in swapped order (or
    # by swapped actors) are different information states; the old string
    # (the observation) merged them. Resampled worlds give seat 0 the same
    # knowledge with other hands, so other first plays are possible.
    game = single("latin")
    base = game.new_initial_state(5)
    by_string, by_observation = {}, {}
    rng = random.Random(5)
    for k in range(400):
        world = base.resample_from_infostate(0, k)
        for _ in range(2):
            if world.current_player() == 0 or world.is_terminal():
                break
            random_step(world, rng)
        key = public_history(world)
        s = world.information_state_string(0)
        tensor = world.information_state_tensor(0).tobytes()
        if s in by_string:
            assert by_string[s][0] == key, "two public histories share one information-state string"
            assert by_string[s][1] == tensor
        by_string[s] = (key, tensor)
        by_observation.setdefault(world.observation_string(0), set()).add(s)
    # The same line on the table from plays in another order (the old
    # string, the observation, merged them): now distinct.
    assert any(len(strings) > 1 for strings in by_observation.values())


@pytest.mark.parametrize("name", ["latin", "texas-42", "fid"])
def test_string_is_a_function_of_own_hand_and_public_history(name):
    # Where every move is public, the information state is the own dealt
    # hand plus the moves with their actors: strings and those keys must
    # match one to one.
    game = single(name)
    rng = random.Random(11)
    seen = {}
    for seed in range(40):
        state = game.new_initial_state(seed)
        dealt = {p: state.observation_tensor(p).tobytes() for p in range(game.num_players())}
        while not state.is_terminal():
            for p in range(game.num_players()):
                key = (p, dealt[p], public_history(state))
                s = state.information_state_string(p)
                if s in seen:
                    assert seen[s] == key
                seen[s] = key
            random_step(state, rng)
    keys = set(seen.values())
    assert len(keys) == len(seen)


@pytest.mark.parametrize("name", boneyard.registered_games())
def test_resampling_keeps_the_string(name):
    game = single(name)
    rng = random.Random(3)
    for seed in range(6):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            if not state.is_chance_node():
                for p in range(game.num_players()):
                    world = state.resample_from_infostate(p, rng.getrandbits(32))
                    assert world.information_state_string(p) == state.information_state_string(p)
                    assert (world.information_state_tensor(p) == state.information_state_tensor(p)).all()
                    # The same public continuation adds the same move line
                    # (what chance does next may differ: a draw, a roll).
                    if state.current_player() >= 0 and state.current_player() != p:
                        lines = state.information_state_string(p).count("\n")
                        for a in state.legal_actions():
                            if a in world.legal_actions():
                                c1, c2 = state.child(a), world.child(a)
                                l1 = c1.information_state_string(p).split("\n")
                                l2 = c2.information_state_string(p).split("\n")
                                assert l1[:lines + 1] == l2[:lines + 1]
                                break
            random_step(state, rng)


def test_a_resampled_world_shows_other_seats_only_public_facts():
    game = single("latin")
    state = game.new_initial_state(8)
    rng = random.Random(8)
    for _ in range(6):
        random_step(state, rng)
    world = state.resample_from_infostate(0, 99)
    for q in (1, 2, 3):
        text = world.information_state_string(q)
        truth = json.loads(state.view_json(q))["hands"][q]["tiles"]
        sampled = json.loads(world.view_json(q))["hands"][q]["tiles"]
        assert text.endswith("you hold " + " ".join(sampled) + "\n")
        if truth != sampled:
            assert "you hold " + " ".join(truth) not in text


def _hands(state):
    return [set(h["tiles"] or []) for h in json.loads(state.view_json(-1))["hands"]]


def test_hidden_tiles_swapped_leave_the_string_unchanged():
    # Two explicit-chance deals that differ only in tiles of seats 1 and 3
    # that neither has played: seat 0 (and seat 2) cannot tell them apart,
    # seats 1 and 3 can. Built from the chance actions, not from resampling.
    game = single("latin")
    rng = random.Random(21)
    found = 0
    for attempt in range(40):
        state = game.new_initial_state()
        chance = []
        while state.is_chance_node():
            a = rng.choice([x for x, _ in state.chance_outcomes()])
            state.apply_action(a)
            chance.append(a)
        # The deal's last 28 outcomes are the hands, seat 0 first, 7 each
        # (docs/python.md, Chance); the ones before drew for the lead.
        first = len(chance) - 28
        owner = [None] * first + [k // 7 for k in range(28)]
        text = state.action_to_string
        for p, h in enumerate(_hands(state)):
            assert h == {text(boneyard.CHANCE, chance[i]) for i in range(len(chance)) if owner[i] == p}
        n_chance = len(owner)
        for _ in range(10):
            if state.is_terminal():
                break
            random_step(state, rng)
        history = state.history()
        played = {p: {state.action_to_string(p, a).split(":")[0] for q, a in state.full_history() if q == p}
                  for p in range(4)}
        unplayed = {p: [i for i in range(n_chance) if owner[i] == p
                        and text(boneyard.CHANCE, history[i]) not in played[p]] for p in (1, 3)}
        for i in unplayed[1]:
            for j in unplayed[3]:
                swapped = list(history)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                a, b = game.new_initial_state(), game.new_initial_state()
                try:
                    for x, y in zip(history, swapped):
                        a.apply_action(x)
                        b.apply_action(y)
                        if not a.is_chance_node() and not b.is_chance_node():
                            assert a.information_state_string(0) == b.information_state_string(0)
                            assert a.information_state_string(2) == b.information_state_string(2)
                            assert (a.information_state_tensor(0) == b.information_state_tensor(0)).all()
                            assert a.observation_string(0) == b.observation_string(0)
                except boneyard.BoneyardError:
                    continue  # the swap made a later move illegal (a pass with a playable tile)
                assert a.information_state_string(1) != b.information_state_string(1)
                assert a.information_state_string(3) != b.information_state_string(3)
                found += 1
                break
        if found >= 5:
            break
    assert found >= 5


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_string_never_names_hidden_tiles(name):
    # A tile another seat holds now (unseen by p) never appears in p's
    # string, except where the rules made it public: Dice & Dominoes shows
    # a revealed tile that went back to its hand ("shown X back").
    game = single(name)
    rng = random.Random(4)
    checked = 0
    for seed in range(5):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            random_step(state, rng)
            if state.is_chance_node():
                continue
            view = json.loads(state.view_json(-1))
            hands = view["hands"] if isinstance(view["hands"], list) else view["players"]
            for p in range(game.num_players()):
                s = state.information_state_string(p)
                # (The first-dealer draw of Texas 42 names tiles that go
                # back before the deal: public, and no one's hand.)
                named = set(TILE.findall("\n".join(x for x in s.splitlines() if not x.startswith("chance draw"))))
                revealed = set(re.findall(r"shown (\d+-\d+) back", s))
                for q, h in enumerate(hands):
                    if q == p:
                        continue
                    for t in h.get("tiles") or []:
                        assert t not in named or t in revealed, f"seat {p} sees {t} of seat {q}"
                        checked += 1
    assert checked > 0


def test_explicit_chance_string_hides_the_deal():
    game = single("two-draw")
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        random_step(state, rng)
    for p in range(2):
        s = state.information_state_string(p)
        # Chance lines name no tile (deals and draws are private).
        for line in s.splitlines():
            if line.startswith("chance"):
                assert line in ("chance deal", "chance draw")


def test_default_player_is_current_player():
    game = single("latin")
    state = game.new_initial_state(2)
    p = state.current_player()
    assert state.information_state_string() == state.information_state_string(p)
    assert state.observation_string() == state.observation_string(p)
    assert (state.observation_tensor() == state.observation_tensor(p)).all()
    assert (state.information_state_tensor() == state.information_state_tensor(p)).all()
    chance = game.new_initial_state()
    with pytest.raises(boneyard.BoneyardError, match="name the player"):
        chance.information_state_string()


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_tensor_is_perfect_recall(name):
    # issue 36, 10: from one deal, many random hands; a tensor is never shared
    # by two information-state strings of a seat, and one string has one
    # tensor (the old tensor, a summary of the hand, was shared by hundreds).
    game = single(name)
    assert game.information_state_tensor_size() > game.observation_tensor_size()
    rng = random.Random(36)
    by_string, by_tensor = {}, {}
    for seed in (1, 2):
        for _ in range(25):
            state = game.new_initial_state(seed)
            while True:
                for p in range(game.num_players()):
                    s, t = state.information_state_string(p), state.information_state_tensor(p).tobytes()
                    assert by_string.setdefault((p, s), t) == t, "one information state, two tensors"
                    assert by_tensor.setdefault((p, t), s) == s, "one tensor, two information states"
                if state.is_terminal():
                    break
                random_step(state, rng)


WHOLE_GAMES = [("latin", {"target": 25}), ("two-draw", {"target": 20}), ("mexican-train", {"rounds": 2}),
               ("texas-42", {"target_marks": 3}), ("dice-and-dominoes", {"hands": 2})]


@pytest.mark.parametrize("name,params", WHOLE_GAMES, ids=[n for n, _ in WHOLE_GAMES])
def test_tensor_is_perfect_recall_over_a_whole_game(name, params):
    # issue 36, 10, across hands: in a game of several hands, states after
    # the first hand from one deal; two information states never share a
    # tensor, though the observation and the hand in progress alone (a
    # tensor that forgot earlier hands) can. A part per hand: the size is
    # the observation and the one-hand size's rest once per hand with room.
    game = boneyard.load_game(name, params)
    one = boneyard.load_game(name, dict(params, single_hand=True))
    obs = game.observation_tensor_size()
    part = one.information_state_tensor_size() - obs
    assert (game.information_state_tensor_size() - obs) % part == 0
    assert (game.information_state_tensor_size() - obs) // part > 1
    rng = random.Random(10)
    by_string, by_tensor, later = {}, {}, 0
    for _ in range(4):
        state = game.new_initial_state(3)
        while not state.is_terminal():
            if state.hands_finished() >= 1:
                later += 1
                for p in range(game.num_players()):
                    s, t = state.information_state_string(p), state.information_state_tensor(p)
                    h = state.hands_finished()
                    assert not t[obs + (h + 1) * part:].any(), "a hand not reached yet is zeros"
                    key = hashlib.sha1(t.tobytes()).digest()  # the tensor is large (latin: 722,999 floats)
                    assert by_string.setdefault((p, s), key) == key, "one information state, two tensors"
                    assert by_tensor.setdefault((p, key), s) == s, "one tensor, two information states"
            random_step(state, rng)
    assert later > 20


def test_tensor_tells_plays_in_another_order_apart():
    # The issue's case: latin, one deal, each seat lays the same tiles in
    # another order and the table is the same: seat 2's strings differ, and
    # so do its tensors.
    game = single("latin")
    rng = random.Random(10)
    seen = {}
    reordered = 0
    for _ in range(2000):
        state = game.new_initial_state(5)
        laid = [set() for _ in range(4)]
        for _ in range(14):
            if state.is_terminal():
                break
            p, a = state.current_player(), rng.choice(state.legal_actions())
            if a < 84:
                laid[p].add(a % 28)
            state.apply_action(a)
        key = (state.observation_tensor(2).tobytes(), tuple(frozenset(x) for x in laid))
        s, t = state.information_state_string(2), state.information_state_tensor(2).tobytes()
        if key in seen and seen[key][0] != s:
            reordered += 1
            assert seen[key][1] != t
        seen.setdefault(key, (s, t))
    assert reordered > 0


@pytest.mark.parametrize("name,params", WHOLE_GAMES, ids=[n for n, _ in WHOLE_GAMES])
def test_a_world_resampled_in_a_later_hand_keeps_the_whole_game_tensor(name, params):
    # resample_from_infostate in the second hand or later: the sampler's
    # string and its tensor, earlier hands included, are the original's.
    game = boneyard.load_game(name, params)
    rng = random.Random(2)
    checked = 0
    for seed in range(1, 9):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and state.hands_finished() < 1:
            random_step(state, rng)
        for _ in range(3):
            if not state.is_terminal():
                random_step(state, rng)
        if state.is_terminal():
            continue
        p = seed % game.num_players()
        world = state.resample_from_infostate(p, seed)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert (world.information_state_tensor(p) == state.information_state_tensor(p)).all()
        checked += 1
    assert checked >= 2
