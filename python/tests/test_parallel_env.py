"""DominoParallelEnv against the contract PettingZoo's parallel_api_test
checks (pettingzoo/test/parallel_test.py; issue 36, 13): reset(seed,
options) gives observations and infos for every agent; step takes one
action per live agent, sampled from its action mask, and gives five dicts
keyed by the agents alive before the step; a finished agent never comes
back; agents are exactly the live ones; the spaces are the same objects.
Dice & Dominoes is simultaneous, so it belongs here."""
import numpy as np
import pytest

import boneyard
from boneyard.parallel_env import DominoParallelEnv

GAMES = ["dice-and-dominoes", "latin", "mexican-train", "texas-42"]


def sample(env, obs, agent, rng):
    # gymnasium's Discrete.sample(mask): a legal action, or the start (0)
    # for an all-zero mask.
    legal = np.flatnonzero(obs[agent]["action_mask"])
    return int(rng.choice(legal)) if len(legal) else 0


def parallel_contract(env, rng, num_cycles=2000, resets=2):
    env.max_cycles = num_cycles
    env.reset(seed=0, options={"options": 1})
    for _ in range(resets):
        obs, infos = env.reset()
        assert isinstance(obs, dict) and isinstance(infos, dict)
        assert set(env.agents) <= set(obs) and set(env.agents) <= set(infos)
        live = set(env.agents)
        finished = set()
        terminated = dict.fromkeys(env.agents, False)
        truncated = dict.fromkeys(env.agents, False)
        for _ in range(num_cycles):
            actions = {a: sample(env, obs, a, rng) for a in env.agents
                       if not terminated.get(a, False) or not truncated.get(a, False)}
            obs, rew, terminated, truncated, info = env.step(actions)
            for a in env.agents:
                assert a not in finished, "an agent came back once dead"
            for d in (obs, rew, terminated, truncated, info):
                assert isinstance(d, dict)
                assert set(d) == live  # no warning: every live agent, no dead one
            assert set(env.agents) <= set(env.possible_agents)
            finished |= {a for a in live if terminated[a] or truncated[a]}
            for a in env.agents:
                assert env.observation_space(a) is env.observation_space(a)
                assert env.action_space(a) is env.action_space(a)
                assert env.observation_space(a).contains(obs[a])
            live -= {a for a in live if terminated[a] or truncated[a]}
            assert set(env.agents) == live
            if not live:
                assert finished == set(env.possible_agents)
                break
        else:
            pytest.fail("the game did not end in num_cycles steps")


@pytest.mark.parametrize("name", GAMES)
def test_parallel_api_contract(name):
    env = DominoParallelEnv(name, {"single_hand": True})
    parallel_contract(env, np.random.default_rng(1))
    assert not env.agents


def test_dice_and_dominoes_rounds_are_one_step():
    # Every acting seat's action in one step: one step per simultaneous round.
    env = DominoParallelEnv("dice-and-dominoes", {"single_hand": True})
    obs, _ = env.reset(seed=3)
    acting = [a for a in env.agents if obs[a]["action_mask"].any()]
    assert len(acting) > 1
    rng = np.random.default_rng(0)
    before = env.state.full_history()
    env.step({a: sample(env, obs, a, rng) for a in env.agents})
    moved = [p for p, _ in env.state.full_history()[len(before):] if p >= 0]
    assert sorted(moved) == sorted(env.agent_name_mapping[a] for a in acting)


def test_rewards_are_the_returns_and_seeds_repeat():
    def run(seed):
        env = DominoParallelEnv("dice-and-dominoes", {"single_hand": True})
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            obs, rew, term, trunc, _ = env.step({a: sample(env, obs, a, rng) for a in env.agents})
            for a, r in rew.items():
                total[a] += r
        assert all(term.values()) and not any(trunc.values())
        assert [total[a] for a in env.possible_agents] == env.state.returns()
        return env.state.history()
    assert run(5) == run(5)


def test_max_cycles_truncates_and_bad_steps_are_refused():
    env = DominoParallelEnv("dice-and-dominoes", {"single_hand": True}, max_cycles=1)
    obs, _ = env.reset(seed=2)
    with pytest.raises(ValueError, match="no action for"):
        env.step({})
    acting = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents if obs[a]["action_mask"].any()}
    _, _, term, trunc, _ = env.step(acting)
    assert all(trunc.values()) and not any(term.values()) and env.agents == []
    with pytest.raises(ValueError, match="call reset"):
        env.step(acting)


def test_explicit_chance_is_resolved_by_the_environment():
    env = DominoParallelEnv("dice-and-dominoes", {"single_hand": True}, explicit_chance=True)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    while env.agents:
        assert not env.state.is_chance_node()
        obs, *_ = env.step({a: sample(env, obs, a, rng) for a in env.agents})
    assert boneyard.CHANCE in [p for p, _ in env.state.full_history()]
