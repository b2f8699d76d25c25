"""pyspiel.convert_to_turn_based (docs/python.md, Coming from OpenSpiel):
a simultaneous game (Dice & Dominoes) played as a sequential one, so
sequential algorithms (MCTS, CFR) run on it. At a simultaneous round each
acting seat chooses in turn, seat order, and no seat sees another's choice
until the round is applied (apply_actions) after the last one. Every other
node (a turn, chance, the end) is the wrapped state's own."""
from __future__ import annotations

import numpy as np

from ._boneyard import BoneyardError


class TurnBasedState:
    def __init__(self, game: "TurnBasedGame", inner, pending=None):
        self._game = game
        self._inner = inner
        self._pending = dict(pending or {})  # seat -> action chosen this round

    def _acting(self):
        s = self._inner
        if not s.is_simultaneous_node():
            return []
        return [p for p in range(s.num_players()) if s.is_player_acting(p)]

    def current_player(self) -> int:
        for p in self._acting():
            if p not in self._pending:
                return p
        return self._inner.current_player()

    def is_simultaneous_node(self) -> bool:
        return False

    def is_chance_node(self) -> bool:
        return self._inner.is_chance_node()

    def is_terminal(self) -> bool:
        return self._inner.is_terminal()

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def legal_actions(self, player: int | None = None):
        p = self.current_player() if player is None else player
        if self._inner.is_simultaneous_node():
            return self._inner.legal_actions(p) if p == self.current_player() else []
        return self._inner.legal_actions(p)

    def legal_actions_mask(self, player: int | None = None):
        p = self.current_player() if player is None else player
        n = self._game.max_chance_outcomes() if p == -1 else self._game.num_distinct_actions()
        mask = np.zeros(n, np.int8)
        mask[self.legal_actions(p)] = 1
        return mask

    def chance_outcomes(self):
        return self._inner.chance_outcomes()

    def apply_action(self, action: int):
        if not self._inner.is_simultaneous_node():
            self._inner.apply_action(action)
            return
        p = self.current_player()
        if action not in self._inner.legal_actions(p):
            raise BoneyardError(f"illegal action {action} for player {p}; legal: {self._inner.legal_actions(p)}")
        self._pending[p] = int(action)
        if all(q in self._pending for q in self._acting()):
            joint = [self._pending.get(q, -1) for q in range(self._inner.num_players())]
            self._pending = {}
            self._inner.apply_actions(joint)

    def child(self, action: int) -> "TurnBasedState":
        c = self.clone()
        c.apply_action(action)
        return c

    def clone(self) -> "TurnBasedState":
        return TurnBasedState(self._game, self._inner.clone(), self._pending)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def returns(self):
        return self._inner.returns()

    def rewards(self):
        return self._inner.rewards()

    def player_return(self, player: int) -> float:
        return self._inner.returns()[player]

    def num_players(self) -> int:
        return self._inner.num_players()

    def history(self):
        return self._inner.history() + [a for _, a in sorted(self._pending.items())]

    def full_history(self):
        return self._inner.full_history() + sorted(self._pending.items())

    def history_str(self) -> str:
        return ", ".join(str(a) for a in self.history())

    def move_number(self) -> int:
        return len(self.full_history())

    def is_initial_state(self) -> bool:
        return not self.full_history()

    def _own(self, player: int) -> str:
        # Only the seat's own choice this round: the others' are hidden.
        return f"\nchosen {self._pending[player]}" if player in self._pending else ""

    def information_state_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        return self._inner.information_state_string(p) + self._own(p)

    def observation_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        return self._inner.observation_string(p) + self._own(p)

    def _with_choice(self, tensor, player):
        choice = np.zeros(self._game.num_distinct_actions() + 1, np.float32)
        choice[self._pending.get(player, -1)] = 1.0  # the last entry: no choice yet
        return np.concatenate([tensor.ravel(), choice])

    def information_state_tensor(self, player: int | None = None):
        p = self.current_player() if player is None else player
        return self._with_choice(self._inner.information_state_tensor(p), p)

    def observation_tensor(self, player: int | None = None):
        p = self.current_player() if player is None else player
        return self._with_choice(self._inner.observation_tensor(p), p)

    def action_to_string(self, player_or_action: int, action: int | None = None) -> str:
        if action is None:
            return self._inner.action_to_string(self.current_player(), player_or_action)
        return self._inner.action_to_string(player_or_action, action)

    def get_game(self) -> "TurnBasedGame":
        return self._game

    def __str__(self):
        return str(self._inner)


class TurnBasedGame:
    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):  # sizes, utilities, parameters: the wrapped game's
        return getattr(self._game, name)

    def get_type(self):
        t = self._game.get_type()
        t = type(t)(**vars(t))
        t.dynamics = type(t).Dynamics.SEQUENTIAL
        return t

    def new_initial_state(self, *args, **kwargs) -> TurnBasedState:
        return TurnBasedState(self, self._game.new_initial_state(*args, **kwargs))

    def new_initial_states(self):
        return [self.new_initial_state()]

    def information_state_tensor_shape(self):
        return [self._game.information_state_tensor_size() + self._game.num_distinct_actions() + 1]

    def information_state_tensor_size(self):
        return self.information_state_tensor_shape()[0]

    def observation_tensor_shape(self):
        return [self._game.observation_tensor_size() + self._game.num_distinct_actions() + 1]

    def observation_tensor_size(self):
        return self.observation_tensor_shape()[0]

    def max_game_length(self):
        return self._game.max_game_length() * self._game.num_players()

    def __str__(self):
        return f"turn_based_simultaneous_game(game={self._game})"


def convert_to_turn_based(game) -> TurnBasedGame:
    """pyspiel.convert_to_turn_based: the game with simultaneous rounds
    taken one seat at a time (a sequential game returns itself wrapped)."""
    return TurnBasedGame(game)
