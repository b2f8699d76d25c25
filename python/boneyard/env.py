"""A multi-agent environment with PettingZoo's AEC API (docs/python.md,
Coming from PettingZoo): a pettingzoo.AECEnv subclass when PettingZoo can be
imported, the same API without it; spaces are gymnasium's when gymnasium can
be imported (boneyard.spaces).

    env = DominoEnv("latin", {"single_hand": True})
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else pick(obs["observation"], obs["action_mask"])
        env.step(action)

Simultaneous rounds (Dice & Dominoes) are played one agent at a time: each
acting agent is selected in turn and its action is held until every acting
agent has chosen; then they are applied together (apply_actions).
"""
from __future__ import annotations

import numpy as np

from . import spaces

try:  # pragma: no cover - PettingZoo is not packaged in Debian
    from pettingzoo import AECEnv as _Base

    HAVE_PETTINGZOO = True
except ImportError:
    _Base = object
    HAVE_PETTINGZOO = False


class DominoEnv(_Base):
    metadata = {"name": "boneyard_v0", "is_parallelizable": False, "render_modes": ["ansi"]}

    def __init__(self, game, params: dict | None = None, max_steps: int | None = None,
                 explicit_chance: bool = False, chance_fn=None, render_mode: str | None = None):
        from . import load_game

        # explicit_chance: the states expose chance nodes (docs/python.md,
        # Chance) and the environment resolves them itself, one tile or die
        # at a time: chance_fn(state) -> action when given, else a draw from
        # chance_outcomes() by a generator seeded from reset(seed). No agent
        # ever sees a chance node.
        self.explicit_chance = bool(explicit_chance or chance_fn is not None)
        self.chance_fn = chance_fn
        self._chance_rng = np.random.default_rng()
        self.render_mode = render_mode

        self.game = load_game(game, params) if isinstance(game, str) else game
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.max_steps = max_steps
        self.state = None
        self.agents = []
        self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos = {}, {}, {}, {}, {}
        self.agent_selection = None
        self._over = False
        self._obs_shape = tuple(self.game.observation_tensor_shape())
        self._num_actions = self.game.num_distinct_actions()
        # One space object per agent, made once (PettingZoo's api_test
        # checks observation_space(a) is observation_space(a)).
        low, high = spaces.tensor_bounds(self.game)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low, high, self._obs_shape, np.float32),
                "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self._zero_mask = np.zeros(self._num_actions, np.int8)
        self._pending = {}
        self._sequential = self.game.get_type().dynamics.name == "SEQUENTIAL"

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
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._pending = {}  # simultaneous node: seat -> action held
        self._steps = 0
        self._rewarded = False  # some reward in self.rewards is not zero
        self._over = False  # every agent finished (terminated or truncated)
        self.agent_selection = self._next_agent()

    def _resolve_chance(self):
        s = self.state
        while s.is_chance_node():
            if self.chance_fn is not None:
                s.apply_action(int(self.chance_fn(s)))
            else:
                outcomes = s.chance_outcomes()
                k = self._chance_rng.choice(len(outcomes), p=[p for _, p in outcomes])
                s.apply_action(outcomes[k][0])

    def _next_agent(self):
        s = self.state
        p = s.current_player()
        if p >= 0:
            return self.possible_agents[p]
        for q in range(len(self.possible_agents)):
            if q not in self._pending and s.is_player_acting(q):
                return self.possible_agents[q]
        return None

    def observe(self, agent):
        p = self.agent_name_mapping[agent]
        # A finished agent, or one whose simultaneous action is held, has
        # no legal action now: an all-zero mask.
        masked = self.terminations.get(agent, True) or self.truncations.get(agent, True) or p in self._pending
        return self.state._env_observation(p, masked)

    def last(self, observe: bool = True):
        agent = self.agent_selection
        term, trunc = self.terminations[agent], self.truncations[agent]
        obs = None
        if observe:  # observe(agent), inlined: this is the hot path
            p = self.agent_name_mapping[agent]
            obs = self.state._env_observation(p, term or trunc or p in self._pending)
        return obs, self._cumulative_rewards[agent], term, trunc, self.infos[agent]

    def agent_iter(self, max_iter: int = 2**63):
        i = 0
        while self.agents and i < max_iter:
            yield self.agent_selection
            i += 1

    def _clear_rewards(self):
        if self._rewarded:
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._rewarded = False

    def _dead_step(self, action):
        # PettingZoo: a finished agent steps with None and leaves every dict.
        agent = self.agent_selection
        if action is not None:
            raise ValueError(f"{agent} is done (terminated or truncated): its only action is None")
        for d in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
            del d[agent]
        self.agents.remove(agent)
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        self.agent_selection = dead[0] if dead else (self.agents[0] if self.agents else None)
        self._clear_rewards()

    def step(self, action):
        agent = self.agent_selection
        if self._over:  # every agent is finished at once: the game ended or was cut
            return self._dead_step(action)
        if action is None:
            raise ValueError(f"{agent} is not done: step() needs an action")
        self._cumulative_rewards[agent] = 0.0
        s = self.state
        if self._sequential or not s.is_simultaneous_node():
            s.apply_action(spaces.action_index(action))
        else:
            self._hold(agent, spaces.action_index(action))
        self._steps += 1
        if self.explicit_chance:
            self._resolve_chance()
        if self._rewarded:
            self._clear_rewards()
        p = s.current_player()  # TERMINAL (-4) once the game is over
        if p == -4 or (self.max_steps is not None and self._steps >= self.max_steps):
            self._finish()
        else:
            self.agent_selection = self.possible_agents[p] if p >= 0 else self._next_agent()

    def _hold(self, agent, action):
        s = self.state
        p = self.agent_name_mapping[agent]
        if action not in s.legal_actions(p):
            raise ValueError(f"illegal action {action} for {agent}; legal: {s.legal_actions(p)}")
        self._pending[p] = action
        if self._next_agent() is None:
            joint = [self._pending.get(q, -1) for q in range(len(self.possible_agents))]
            self._pending = {}
            s.apply_actions(joint)

    def _finish(self):
        s = self.state
        terminal = s.is_terminal()
        if terminal:
            for a, r in zip(self.possible_agents, s.returns()):
                if a in self.rewards:
                    self.rewards[a] = r
                    self._cumulative_rewards[a] += r
            self._rewarded = True
        for a in self.agents:
            self.terminations[a] = terminal
            self.truncations[a] = not terminal
        self._over = True
        self._pending = {}
        self.agent_selection = self.agents[0]

    def render(self):
        return str(self.state)

    def close(self):
        pass
