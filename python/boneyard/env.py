"""A multi-agent environment in the PettingZoo AEC shape, on the State API,
with no dependency beyond numpy (docs/python.md, PettingZoo).

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


class DominoEnv:
    metadata = {"name": "boneyard_v0", "is_parallelizable": False}

    def __init__(self, game, params: dict | None = None, max_steps: int | None = None,
                 explicit_chance: bool = False, chance_fn=None):
        from . import load_game

        # explicit_chance: the states expose chance nodes (docs/python.md,
        # Chance) and the environment resolves them itself, one tile or die
        # at a time: chance_fn(state) -> action when given, else a draw from
        # chance_outcomes() by a generator seeded from reset(seed). No agent
        # ever sees a chance node.
        self.explicit_chance = bool(explicit_chance or chance_fn is not None)
        self.chance_fn = chance_fn
        self._chance_rng = np.random.default_rng()

        self.game = load_game(game, params) if isinstance(game, str) else game
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.max_steps = max_steps
        self.state = None
        self.agents = []
        self._obs_shape = tuple(self.game.observation_tensor_shape())
        self._num_actions = self.game.num_distinct_actions()

    # PettingZoo names spaces with gymnasium objects; without the dependency
    # we describe them: shapes and sizes.
    def observation_space(self, agent):
        return {"observation": ("float32", self._obs_shape), "action_mask": ("int8", (self._num_actions,))}

    def action_space(self, agent):
        return ("discrete", self._num_actions)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.state = self.game.new_initial_state(seed, explicit_chance=self.explicit_chance)
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
        self._done_agents = []
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

    def _acting(self):
        s = self.state
        return [p for p in range(s.num_players()) if s.is_player_acting(p) and p not in self._pending]

    def _next_agent(self):
        acting = self._acting()
        if acting:
            return self.possible_agents[acting[0]]
        return None

    def observe(self, agent):
        p = self.agent_name_mapping[agent]
        mask = self.state.legal_actions_mask(p) if p not in self._pending else np.zeros(self._num_actions, np.int8)
        return {"observation": self.state.observation_tensor(p), "action_mask": mask}

    def last(self, observe: bool = True):
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def agent_iter(self, max_iter: int = 2**63):
        i = 0
        while self.agents and i < max_iter:
            yield self.agent_selection
            i += 1

    def step(self, action):
        agent = self.agent_selection
        p = self.agent_name_mapping[agent]
        if self.terminations[agent] or self.truncations[agent]:
            # PettingZoo: a done agent steps with None and leaves.
            if action is not None:
                raise ValueError(f"{agent} is done: step(None)")
            self.agents.remove(agent)
            self._done_agents.append(agent)
            self.agent_selection = self.agents[0] if self.agents else None
            return
        self._cumulative_rewards[agent] = 0.0
        s = self.state
        if s.is_simultaneous_node():
            if action not in s.legal_actions(p):
                raise ValueError(f"illegal action {action} for {agent}")
            self._pending[p] = int(action)
            if not self._acting():
                joint = [self._pending.get(q, -1) for q in range(s.num_players())]
                self._pending = {}
                s.apply_actions(joint)
        else:
            s.apply_action(int(action))
        self._steps += 1
        self._resolve_chance()
        self._after_step()

    def _after_step(self):
        s = self.state
        truncated = self.max_steps is not None and self._steps >= self.max_steps and not s.is_terminal()
        if s.is_terminal() or truncated:
            r = s.returns() if s.is_terminal() else [0.0] * s.num_players()
            for a in self.agents:
                i = self.agent_name_mapping[a]
                self.rewards[a] = r[i]
                self._cumulative_rewards[a] += r[i]
                self.terminations[a] = s.is_terminal()
                self.truncations[a] = truncated
            self.agent_selection = self.agents[0]
            return
        for a in self.agents:
            self.rewards[a] = 0.0
        self.agent_selection = self._next_agent()

    def render(self):
        return str(self.state)

    def close(self):
        pass
