"""The Python API over every registered game (docs/python.md)."""
import json
import os
import random
import shutil
import subprocess

import numpy as np
import pytest

import boneyard
from helpers import random_step

GAMES = boneyard.registered_games()
# One per family, for the slower checks.
FAMILY_GAMES = ["latin", "mexican-train", "texas-42", "dice-and-dominoes"]


def single(name, **extra):
    params = {"single_hand": True}
    params.update(extra)
    return boneyard.load_game(name, params)


def acting(state):
    return [p for p in range(state.num_players()) if state.is_player_acting(p)]


def test_registered_games():
    assert "latin" in GAMES and "texas-42" in GAMES and "mexican-train" in GAMES and "dice-and-dominoes" in GAMES
    assert len(GAMES) >= 27


@pytest.mark.parametrize("name", GAMES)
def test_random_games(name):
    game = single(name)
    n_actions = game.num_distinct_actions()
    obs_shape = tuple(game.observation_tensor_shape())
    info_shape = tuple(game.information_state_tensor_shape())
    rng = random.Random(hash(name) & 0xFFFF)
    for g in range(3):
        state = game.new_initial_state(seed=100 + g)
        steps = 0
        while not state.is_terminal():
            assert state.current_player() in acting(state) or state.is_simultaneous_node()
            for p in acting(state):
                la = state.legal_actions(p)
                assert la, "an acting player has a legal action"
                assert la == sorted(la) and len(set(la)) == len(la)
                assert 0 <= la[0] and la[-1] < n_actions
                mask = state.legal_actions_mask(p)
                assert mask.shape == (n_actions,) and list(np.flatnonzero(mask)) == la
                for a in la:
                    assert state.string_to_action(p, state.action_to_string(p, a)) == a
                obs = state.observation_tensor(p)
                info = state.information_state_tensor(p)
                assert obs.dtype == np.float32 and obs.shape == obs_shape and np.all(np.isfinite(obs))
                assert info.dtype == np.float32 and info.shape == info_shape and np.all(np.isfinite(info))
            # The acting player's view changes with its move.
            movers = acting(state)
            before = [state.observation_tensor(p) for p in movers]
            random_step(state, rng)
            steps += 1
            after = [state.observation_tensor(p) for p in movers]
            assert any(not np.array_equal(b, a) for b, a in zip(before, after))
        assert steps <= game.max_game_length()
        assert state.current_player() == boneyard.TERMINAL
        assert state.legal_actions() == []
        r = state.returns()
        assert len(r) == game.num_players()
        assert abs(sum(r)) < 1e-9, "single_hand returns are zero-sum"
        assert state.rewards() == r
        assert state.hands_finished() == 1


@pytest.mark.parametrize("name", FAMILY_GAMES + ["jamaica", "dominican-patio"])
def test_full_game_returns_share_of_game(name):
    game = boneyard.load_game(name, {"hands": 2} if name == "dice-and-dominoes" else
                              {"rounds": 2} if name == "mexican-train" else None)
    rng = random.Random(5)
    state = game.new_initial_state(seed=3)
    while not state.is_terminal():
        random_step(state, rng)
    r = state.returns()
    # per seat, its side's share of the game won: the sides' shares sum to 1
    sides = {}
    for p, x in enumerate(r):
        sides.setdefault(p % 2 if game.num_players() == 4 and name in ("latin", "jamaica", "dominican-patio",
                                                                       "texas-42") else p, x)
    assert abs(sum(sides.values()) - 1.0) < 1e-9 and all(0 <= x <= 1 for x in r)


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_clone_is_independent(name):
    game = single(name)
    state = game.new_initial_state(seed=11)
    rng = random.Random(1)
    for _ in range(3):
        random_step(state, rng)
    hist = state.history()
    text = str(state)
    c = state.clone()
    random_step(c, rng)
    assert state.history() == hist and str(state) == text
    assert c.history()[: len(hist)] == hist and len(c.history()) > len(hist)


@pytest.mark.parametrize("name", FAMILY_GAMES + ["havana", "two-draw"])
def test_serialize_round_trip(name):
    game = single(name) if name != "havana" else boneyard.load_game(name)
    rng = random.Random(2)
    state = game.new_initial_state(seed=21)
    for k in range(40):
        if state.is_terminal():
            break
        random_step(state, rng)
        if k % 13 == 0:
            text = state.serialize()
            json.loads(text)  # a game record (docs/records.md)
            back = game.deserialize_state(text)
            assert back.history() == state.history()
            assert str(back) == str(state)
            for p in range(game.num_players()):
                assert np.array_equal(back.observation_tensor(p), state.observation_tensor(p))
                assert np.array_equal(back.information_state_tensor(p), state.information_state_tensor(p))
            # the copy plays on the same way
            c1, c2 = back.clone(), state.clone()
            r1, r2 = random.Random(9), random.Random(9)
            for _ in range(5):
                if c1.is_terminal():
                    break
                random_step(c1, r1)
                random_step(c2, r2)
            assert str(c1) == str(c2)


@pytest.mark.parametrize("name", FAMILY_GAMES + ["two-draw", "jamaica"])
def test_secrecy_and_resampling(name):
    game = single(name)
    rng = random.Random(3)
    state = game.new_initial_state(seed=31)
    for step in range(12):
        if state.is_terminal():
            break
        for p in range(game.num_players()):
            obs, info = state.observation_tensor(p), state.information_state_tensor(p)
            view = json.loads(state.view_json(p))
            differs = False
            for k in range(4):
                r = state.resample_from_infostate(p, 1000 * step + k)
                # what p may know is kept: own hand and every public fact
                assert json.loads(r.view_json(p)) == view
                assert np.array_equal(r.observation_tensor(p), obs)
                assert np.array_equal(r.information_state_tensor(p), info)
                assert r.history() == state.history()
                for q in range(game.num_players()):
                    if q != p and json.loads(r.view_json(q)) != json.loads(state.view_json(q)):
                        # another seat's hand differs: its own tensors see it
                        differs |= not np.array_equal(r.observation_tensor(q), state.observation_tensor(q))
            if step == 0:
                assert differs, "a resampled deal changes some other seat's observation"
        random_step(state, rng)


def test_resample_accepts_rngs():
    state = single("latin").new_initial_state(seed=1)
    a = state.resample_from_infostate(0, random.Random(4))
    b = state.resample_from_infostate(0, np.random.default_rng(4))
    c = state.resample_from_infostate(0, 4)
    assert a.observation_tensor(0).tolist() == b.observation_tensor(0).tolist() == c.observation_tensor(0).tolist()
    with pytest.raises(ValueError):
        c.serialize()  # no seed behind a resampled deal


def test_same_seed_same_game():
    game = single("latin")
    assert str(game.new_initial_state(seed=5)) == str(game.new_initial_state(seed=5))
    assert str(game.new_initial_state(seed=5)) != str(game.new_initial_state(seed=6))


def _exe():
    exe = os.environ.get("BONEYARD_EXE")
    if exe and os.path.exists(exe):
        return exe
    here = os.path.dirname(os.path.abspath(__file__))
    exe = os.path.join(here, "..", "..", "build", "boneyard")
    return exe if os.path.exists(exe) else shutil.which("boneyard")


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_same_game_as_cli(name):
    exe = _exe()
    if not exe:
        pytest.skip("no boneyard executable")
    game = single(name)
    state = game.new_initial_state(seed=7)
    rng = random.Random(7)
    moves = []
    while not state.is_terminal():
        if state.is_simultaneous_node():
            acts = []
            for p in range(state.num_players()):
                la = state.legal_actions(p)
                acts.append(rng.choice(la) if la else -1)
                if la:
                    moves.append((p, state.action_to_string(p, acts[-1])))
            state.apply_actions(acts)
        else:
            p = state.current_player()
            a = rng.choice(state.legal_actions())
            moves.append((p, state.action_to_string(p, a)))
            state.apply_action(a)
    lines = [json.dumps({"cmd": "new", "game": name, "seed": 7, "options": {"single_hand": "on"}})]
    lines += [json.dumps({"cmd": "apply", "seat": p, "move": m}) for p, m in moves]
    lines += [json.dumps({"cmd": "state"}), json.dumps({"cmd": "record"})]
    out = subprocess.run([exe, "engine"], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert all(a["ok"] for a in answers), [a for a in answers if not a["ok"]][:1]
    assert answers[-2]["view"] == json.loads(state.view_json(-1))
    assert answers[-1]["record"]["events"] == json.loads(state.serialize())["events"]


def test_bad_input():
    with pytest.raises(ValueError, match="unknown game"):
        boneyard.load_game("no-such-game")
    with pytest.raises(ValueError, match="unknown option"):
        boneyard.load_game("latin", {"no_such_option": 1})
    with pytest.raises(ValueError, match="single_hand"):
        boneyard.load_game("latin", {"single_hand": "maybe"})
    with pytest.raises(ValueError):
        boneyard.load_game("latin", "single_hand=on")
    game = single("latin")
    state = game.new_initial_state(seed=1)
    p = state.current_player()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError, match="illegal action"):
        state.apply_action(illegal)
    with pytest.raises(ValueError, match="outside"):
        state.apply_action(10**6)
    with pytest.raises(ValueError, match="outside"):
        state.apply_action(-5)
    other = (p + 1) % game.num_players()
    with pytest.raises(ValueError, match="turn"):
        state.string_to_action(other, "6-6")
    with pytest.raises(ValueError, match="does not exist"):
        state.observation_tensor(9)
    with pytest.raises(ValueError, match="does not exist"):
        state.information_state_tensor(-1)
    assert state.legal_actions(other) == []
    with pytest.raises(ValueError):
        state.string_to_action(p, "9-9-9")
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()  # seeded chance: never a chance node (test_chance.py has explicit chance)
    with pytest.raises(ValueError):
        game.deserialize_state("{not json")
    with pytest.raises(ValueError):
        boneyard.load_game("texas-42").deserialize_state(state.serialize())
    rng = random.Random(0)
    while not state.is_terminal():
        random_step(state, rng)
    with pytest.raises(ValueError, match="over"):
        state.apply_action(0)
    with pytest.raises(ValueError):
        boneyard.make_bot(game, "no-such-bot", 0)
    with pytest.raises(ValueError):
        boneyard.make_bot(game, "random", 7)
    d = single("dice-and-dominoes").new_initial_state(seed=1)
    assert d.is_simultaneous_node() and d.current_player() == boneyard.SIMULTANEOUS
    with pytest.raises(ValueError, match="simultaneous"):
        d.apply_action(d.legal_actions(0)[0])
    with pytest.raises(ValueError, match="one action per player"):
        d.apply_actions([0])


def test_preallocated_buffers():
    game = single("latin")
    state = game.new_initial_state(seed=2)
    buf = np.zeros(game.observation_tensor_shape(), np.float32)
    state.observation_tensor_into(1, buf)
    assert np.array_equal(buf, state.observation_tensor(1))
    ibuf = np.zeros(game.information_state_tensor_size(), np.float32)
    state.information_state_tensor_into(1, ibuf)
    assert np.array_equal(ibuf, state.information_state_tensor(1))
    with pytest.raises(ValueError):
        state.observation_tensor_into(1, np.zeros(3, np.float32))
    with pytest.raises(ValueError):
        state.observation_tensor_into(1, np.zeros(game.observation_tensor_shape(), np.float64))


def test_single_hand_option_everywhere():
    for name in FAMILY_GAMES:
        info = json.loads(boneyard.game_info(name)["describe"])
        assert "single_hand" in info["options"] and "single_hand" in info["catalogue"]
        assert single(name).single_hand() and not boneyard.load_game(name).single_hand()


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_bots(name):
    game = single(name)
    state = game.new_initial_state(seed=4)
    bots = {p: boneyard.make_bot(game, "greedy" if p % 2 else "random", p, seed=p) for p in range(game.num_players())}
    while not state.is_terminal():
        if state.is_simultaneous_node():
            state.apply_actions([bots[p].step(state) if state.is_player_acting(p) else -1
                                 for p in range(game.num_players())])
        else:
            p = state.current_player()
            a = bots[p].step(state)
            assert a in state.legal_actions()
            state.apply_action(a)
    s2 = game.new_initial_state(seed=4)
    p = acting(s2)[0]
    ism = boneyard.make_bot(game, "ismcts", p, iterations=50, seed=1)
    assert ism.step(s2) in s2.legal_actions(p)
    v = ism.values(s2)
    assert not v or set(v) == set(s2.legal_actions(p))


def test_arena_and_playouts():
    r = boneyard.arena("latin", ["greedy", "random"], games=20, seed=1, threads=2)
    assert r["games"] == 20 and len(r["returns"]) == 4 and abs(r["returns"][0] + r["returns"][1] - 1) < 1e-9
    r = boneyard.arena(single("dice-and-dominoes"), "random", games=5)
    assert abs(sum(r["returns"])) < 1e-9
    p = boneyard.random_playouts("latin", 2000, seed=1, threads=2)
    assert p["hands"] == 2000 and p["moves"] > 2000
    for name in FAMILY_GAMES:
        assert boneyard.random_playouts(name, 20)["hands"] == 20
    with pytest.raises(ValueError):
        boneyard.arena("latin", ["nobody"], games=1)


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_env(name):
    env = boneyard.DominoEnv(name, {"single_hand": True})
    rng = np.random.default_rng(0)
    for episode in range(2):
        env.reset(seed=episode)
        total = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            total[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            assert obs["observation"].shape == tuple(env.game.observation_tensor_shape())
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        assert not env.agents
        assert abs(sum(total.values())) < 1e-9
