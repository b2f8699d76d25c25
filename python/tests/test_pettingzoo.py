"""A PettingZoo-style battery for DominoEnv, written from the contract that
PettingZoo's api_test checks (pettingzoo/test/api_test.py): spaces, the
observation in its space, last() and the reward bookkeeping, finished agents
leaving every dict, step(None) for a finished agent, numpy actions."""
import random
import re

import numpy as np
import pytest

import boneyard
from boneyard import spaces
from boneyard.env import DominoEnv

GAMES = ["latin", "two-draw", "mexican-train", "texas-42", "dice-and-dominoes"]


def env_for(name, single=True, **kw):
    return DominoEnv(name, {"single_hand": True} if single else None, **kw)


def pick(obs, info, rng):
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def check_spaces(env):
    first = env.possible_agents[0]
    for agent in env.possible_agents:
        assert re.match(r"[a-z]+_[0-9]+", agent)
        o, a = env.observation_space(agent), env.action_space(agent)
        assert o is env.observation_space(agent) and a is env.action_space(agent)  # cached
        assert o == env.observation_space(first) and a == env.action_space(first)
        assert isinstance(a, spaces.Discrete) and a.n == env.game.num_distinct_actions()
        box = o["observation"]
        assert box.dtype == np.float32 and box.shape == tuple(env.game.observation_tensor_shape())
        assert (box.low <= box.high).all() and np.isfinite(box.low).all() and np.isfinite(box.high).all()
        assert box.low.shape == box.shape and box.high.shape == box.shape
        mask = o["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (a.n,)
        assert env.observation_spaces[agent] is o and env.action_spaces[agent] is a


def play(env, rng, seed, num_cycles=10_000):
    """PettingZoo's play test: the bookkeeping after every step."""
    env.reset(seed=seed)
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert env.num_agents == env.max_num_agents == len(env.possible_agents)
    obs0, *_ = env.last()
    assert env.last(observe=False)[0] is None
    live = env.agents[:]
    finished = set()
    accumulated = {a: 0.0 for a in env.agents}
    steps = 0
    for agent in env.agent_iter(env.num_agents * num_cycles):
        assert isinstance(env.infos[agent], dict)
        obs, reward, term, trunc, info = env.last()
        assert isinstance(term, bool) and isinstance(trunc, bool)
        assert term == env.terminations[agent] and trunc == env.truncations[agent] and info == env.infos[agent]
        assert env.observation_space(agent).contains(obs), f"observation of {agent} outside its space"
        assert obs["observation"].dtype == np.float32 and obs["observation"].shape == obs0["observation"].shape
        done = term or trunc
        action = None if done else pick(obs, info, rng)
        assert env.step(action) is None
        steps += 1
        assert accumulated[agent] == reward, "last() must give the rewards accumulated since the agent last acted"
        accumulated[agent] = 0.0
        for a, r in env.rewards.items():
            accumulated[a] += r
            float(r)
        assert not (done and agent in finished), "an agent finished twice"
        assert env.num_agents == len(env.agents)
        for d in (env.rewards, env.terminations, env.truncations, env.infos, env._cumulative_rewards):
            assert set(d) == set(env.agents), "a finished agent must leave every dict"
        assert set(env.agents) <= set(env.possible_agents)
        if done:
            live.remove(agent)
            finished.add(agent)
        assert env.agents == live
        if not env.agents:
            assert finished == set(env.possible_agents)
            break
    return steps


@pytest.mark.parametrize("name", GAMES)
def test_api_contract(name):
    env = env_for(name)
    assert isinstance(env, boneyard.DominoEnv)
    check_spaces(env)
    rng = random.Random(name)
    for seed in range(3):
        play(env, rng, seed)
    # Numbers of any integer type are actions.
    env.reset(seed=5)
    obs, *_ = env.last()
    env.step(np.int32(np.flatnonzero(obs["action_mask"])[0]))
    env.reset(seed=5)
    env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    assert env.render() == str(env.state)
    env.close()


@pytest.mark.parametrize("name", GAMES)
def test_truncation_removes_agents_too(name):
    env = env_for(name, max_steps=5)
    rng = random.Random(1)
    steps = play(env, rng, 3)
    assert steps == 5 + env.max_num_agents
    env.reset(seed=3)
    for _ in range(5):
        obs, *_ = env.last()
        env.step(pick(obs, {}, rng))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(r == 0 for r in env.rewards.values())


def test_final_rewards_are_the_returns():
    env = env_for("latin")
    rng = random.Random(4)
    env.reset(seed=4)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else pick(obs, info, rng))
    assert [totals[a] for a in env.possible_agents] == env.state.returns()


def test_dead_agent_must_step_none():
    env = env_for("latin", max_steps=1)
    env.reset(seed=1)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(ValueError, match="only action is None"):
        env.step(0)
    live = env_for("latin")
    live.reset(seed=1)
    with pytest.raises(ValueError, match="needs an action"):
        live.step(None)


@pytest.mark.parametrize("name,single", [(g, s) for g in GAMES for s in (True, False)])
def test_observations_stay_within_the_documented_bounds(name, single):
    # Whole games too: scores, bids, balances and counts reach their highs.
    env = env_for(name, single=single)
    low, high = spaces.tensor_bounds(env.game)
    rng = random.Random(9)
    seen_low, seen_high = 0.0, 0.0
    for seed in range(3 if single else 1):
        env.reset(seed=seed)
        s = env.state
        while not s.is_terminal():
            for p in range(env.max_num_agents):
                for t in (s.observation_tensor(p), s.information_state_tensor(p)):
                    seen_low, seen_high = min(seen_low, t.min()), max(seen_high, t.max())
            if s.is_simultaneous_node():
                s.apply_actions([rng.choice(s.legal_actions(p)) if s.is_player_acting(p) else -1
                                 for p in range(s.num_players())])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    assert np.float32(low) <= seen_low and seen_high <= np.float32(high)


def test_explicit_chance_env_is_seeded():
    env = env_for("two-draw", explicit_chance=True)
    runs = []
    for _ in range(2):
        rng = random.Random(0)
        play(env, rng, 7)
        runs.append(env.state.full_history())
    assert runs[0] == runs[1]


def test_pettingzoo_and_gymnasium_classes_when_they_import(tmp_path):
    # Neither is packaged in Debian: stand-in modules under their names show
    # that DominoEnv subclasses pettingzoo.AECEnv and makes gymnasium spaces
    # when they can be imported.
    import os
    import subprocess
    import sys

    (tmp_path / "pettingzoo").mkdir()
    (tmp_path / "pettingzoo" / "__init__.py").write_text("class AECEnv:\n    marker = 'pettingzoo'\n")
    (tmp_path / "gymnasium").mkdir()
    (tmp_path / "gymnasium" / "__init__.py").write_text("")
    (tmp_path / "gymnasium" / "spaces.py").write_text(
        "class Space:\n    pass\n"
        "class Box(Space):\n"
        "    def __init__(self, low, high, shape=None, dtype=None, seed=None):\n"
        "        self.low, self.high, self.shape, self.dtype = low, high, shape, dtype\n"
        "class Discrete(Space):\n"
        "    def __init__(self, n, seed=None):\n        self.n = n\n"
        "class Dict(Space):\n"
        "    def __init__(self, spaces, seed=None):\n        self.spaces = spaces\n")
    code = (
        "import boneyard, pettingzoo, gymnasium.spaces as s\n"
        "env = boneyard.DominoEnv('latin', {'single_hand': True})\n"
        "assert isinstance(env, pettingzoo.AECEnv)\n"
        "o = env.observation_space('player_0')\n"
        "assert isinstance(o, s.Dict) and isinstance(o.spaces['observation'], s.Box)\n"
        "assert o is env.observation_space('player_0')\n"
        "assert isinstance(env.action_space('player_0'), s.Discrete)\n"
        "env.reset(seed=1)\n"
        "for agent in env.agent_iter():\n"
        "    obs, r, term, trunc, info = env.last()\n"
        "    env.step(None if term or trunc else int(obs['action_mask'].nonzero()[0][0]))\n"
        "print('ok')\n")
    path = os.pathsep.join([str(tmp_path)] + sys.path)
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=path),
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
    assert not spaces.HAVE_GYMNASIUM  # here, the stand-ins of boneyard.spaces
