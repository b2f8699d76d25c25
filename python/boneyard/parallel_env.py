"""PettingZoo's Parallel API (docs/python.md, Coming from PettingZoo): every
live agent steps at once. Dice & Dominoes is simultaneous, so this is its
natural form; any game works (at a turn-based node only the player to act
acts). A pettingzoo.ParallelEnv subclass when PettingZoo can be imported,
the same API without it.

    env = DominoParallelEnv("dice-and-dominoes", {"single_hand": True})
    obs, infos = env.reset(seed=1)
    while env.agents:
        actions = {a: pick(obs[a]["observation"], obs[a]["action_mask"]) for a in env.agents}
        obs, rewards, terminations, truncations, infos = env.step(actions)

An agent whose action mask is all zero does not act now: its action is
ignored (PettingZoo's samplers give one anyway). Every acting agent must be
given a legal action.
"""
from __future__ import annotations

import numpy as np

from . import spaces

try:  # pragma: no cover - PettingZoo is not packaged in Debian
    from pettingzoo import ParallelEnv as _Base

    HAVE_PETTINGZOO = True
except ImportError:
    _Base = object
    HAVE_PETTINGZOO = False


class DominoParallelEnv(_Base):
    metadata = {"name": "boneyard_parallel_v0", "render_modes": ["ansi"]}

    def __init__(self, game, params: dict | None = None, max_cycles: int | None = None,
                 explicit_chance: bool = False, chance_fn=None, render_mode: str | None = None):
        from . import load_game

        self.game = load_game(game, params) if isinstance(game, str) else game
        self.explicit_chance = bool(explicit_chance or chance_fn is not None)
        self.chance_fn = chance_fn
        self._chance_rng = np.random.default_rng()
        self.render_mode = render_mode
        # Steps after which every agent is truncated (PettingZoo's max_cycles).
        self.max_cycles = max_cycles
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents = []
        self.state = None
        low, high = spaces.tensor_bounds(self.game)
        shape = tuple(self.game.observation_tensor_shape())
        actions = self.game.num_distinct_actions()
        # One space object per agent (the API test checks the identity).
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low, high, shape, np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._cycles = 0

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        return self

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.state = self.game.new_initial_state(seed, explicit_chance=self.explicit_chance)
        if self.explicit_chance and self.chance_fn is None:
            self._chance_rng = np.random.default_rng(seed)
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self._cycles = 0
        return self._observations(self.agents, done=False), {a: {} for a in self.agents}

    def _resolve_chance(self):
        s = self.state
        while s.is_chance_node():
            if self.chance_fn is not None:
                s.apply_action(int(self.chance_fn(s)))
            else:
                outcomes = s.chance_outcomes()
                k = self._chance_rng.choice(len(outcomes), p=[p for _, p in outcomes])
                s.apply_action(outcomes[k][0])

    def _observations(self, agents, done):
        return {a: self.state._env_observation(self.agent_name_mapping[a], done) for a in agents}

    def step(self, actions: dict):
        if not self.agents:
            raise ValueError("every agent is done: call reset()")
        if not isinstance(actions, dict):
            raise ValueError(f"step needs a dict of agent -> action, got {actions!r}")
        s = self.state
        acting = [p for p in range(len(self.possible_agents)) if s.is_player_acting(p)]
        missing = [self.possible_agents[p] for p in acting if actions.get(self.possible_agents[p]) is None]
        if missing:
            raise ValueError(f"step: no action for {', '.join(missing)}, acting now")
        if s.is_simultaneous_node():
            joint = [-1] * len(self.possible_agents)
            for p in acting:
                joint[p] = spaces.action_index(actions[self.possible_agents[p]])
            s.apply_actions(joint)
        else:
            s.apply_action(spaces.action_index(actions[self.possible_agents[acting[0]]]))
        if self.explicit_chance:
            self._resolve_chance()
        self._cycles += 1
        live = list(self.agents)
        terminal = s.is_terminal()
        truncated = not terminal and self.max_cycles is not None and self._cycles >= self.max_cycles
        done = terminal or truncated
        returns = s.returns() if terminal else [0.0] * len(self.possible_agents)
        rewards = {a: float(returns[self.agent_name_mapping[a]]) for a in live}
        terminations = {a: terminal for a in live}
        truncations = {a: truncated for a in live}
        infos = {a: {} for a in live}
        obs = self._observations(live, done)
        if done:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def render(self):
        return str(self.state)

    def close(self):
        pass
