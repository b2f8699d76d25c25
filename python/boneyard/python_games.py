"""pyspiel.Game and pyspiel.State as bases for games written in Python, the
way OpenSpiel's own Python games are (open_spiel/python/games: a subclass
of each, register_game, load_game by name). What pyspiel's C++ wrappers
give such a game, written here from their contract (docs/python.md, Coming
from OpenSpiel): the sizes from its GameInfo, legal actions, applying
actions with the history kept, clone by copying the subclass's fields,
information-state and observation strings and tensors through the game's
make_py_observer, serialize by pickling the fields.

boneyard's own games and states (boneyard._boneyard) are registered as
virtual subclasses, so isinstance(game, pyspiel.Game) holds for both."""
from __future__ import annotations

import abc
import base64
import copy
import pickle

import numpy as np

from . import _boneyard
from ._boneyard import CHANCE, SIMULTANEOUS, BoneyardError
from ._compat import IIGObservationType, PrivateInfoType

# OpenSpiel's kDefaultObsType and kInfoStateObsType.
_DEFAULT_OBS = IIGObservationType(public_info=True, perfect_recall=False, private_info=PrivateInfoType.SINGLE_PLAYER)
_INFO_STATE_OBS = IIGObservationType(public_info=True, perfect_recall=True,
                                     private_info=PrivateInfoType.SINGLE_PLAYER)


def _param_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class Game(metaclass=abc.ABCMeta):
    """pyspiel.Game: subclass it, call __init__(game_type, game_info,
    params) and define new_initial_state() (and make_py_observer for
    strings and tensors)."""

    def __init__(self, game_type, game_info, params=None):
        if type(self) is Game:
            raise BoneyardError("pyspiel.Game is a base class: subclass it (OpenSpiel's Python games do), "
                                "or load boneyard's games with load_game")
        self._py_game_type = game_type
        self._py_game_info = game_info
        self._py_params = dict(params or {})
        self._py_observers: dict = {}

    def new_initial_state(self):
        raise BoneyardError(f"{type(self).__name__} does not define new_initial_state()")

    def new_initial_states(self) -> list:
        return [self.new_initial_state()]

    def get_type(self):
        return self._py_game_type

    def get_game_info(self):
        return self._py_game_info

    def get_parameters(self) -> dict:
        return dict(self._py_params)

    def num_players(self) -> int:
        return self._py_game_info.num_players

    def num_distinct_actions(self) -> int:
        return self._py_game_info.num_distinct_actions

    def max_chance_outcomes(self) -> int:
        return self._py_game_info.max_chance_outcomes

    def min_utility(self) -> float:
        return self._py_game_info.min_utility

    def max_utility(self) -> float:
        return self._py_game_info.max_utility

    def utility_sum(self):
        return self._py_game_info.utility_sum

    def max_game_length(self) -> int:
        return self._py_game_info.max_game_length

    def max_move_number(self) -> int:
        return self.max_game_length()

    def max_chance_nodes_in_history(self) -> int:
        # As pyspiel's Game: 0 for a deterministic game, else the game says.
        if self._py_game_type.chance_mode.name == "DETERMINISTIC":
            return 0
        raise BoneyardError(f"{type(self).__name__} does not define max_chance_nodes_in_history()")

    def max_history_length(self) -> int:
        return self.max_game_length() + self.max_chance_nodes_in_history()

    def policy_tensor_shape(self) -> list:
        return [self.num_distinct_actions()]

    def make_observer(self, iig_obs_type=None, params=None):
        """The game's make_py_observer (pyspiel calls it for Python games)."""
        if not hasattr(self, "make_py_observer"):
            raise BoneyardError(f"{type(self).__name__} has no make_py_observer: no strings or tensors")
        if isinstance(iig_obs_type, dict) and params is None:
            iig_obs_type, params = None, iig_obs_type
        return self.make_py_observer(iig_obs_type, params or {}) if iig_obs_type is not None \
            else self.make_py_observer(params or {})

    def _observer(self, info_state: bool):
        key = bool(info_state)
        if key not in self._py_observers:
            self._py_observers[key] = self.make_observer(_INFO_STATE_OBS if key else _DEFAULT_OBS, {})
        return self._py_observers[key]

    def _tensor_size(self, info_state: bool) -> int:
        obs = self._observer(info_state)
        if getattr(obs, "tensor", None) is None:
            raise BoneyardError(f"{type(self).__name__}'s observer has no tensor")
        obs.set_from(self.new_initial_state(), 0)
        return int(sum(np.asarray(v).size for v in obs.dict.values()))

    def information_state_tensor_shape(self) -> list:
        return [self._tensor_size(True)]

    def information_state_tensor_size(self) -> int:
        return self._tensor_size(True)

    def observation_tensor_shape(self) -> list:
        return [self._tensor_size(False)]

    def observation_tensor_size(self) -> int:
        return self._tensor_size(False)

    def deserialize_state(self, text: str):
        state = self.new_initial_state()
        state._py_restore(text)
        return state

    def __str__(self):
        name = self._py_game_type.short_name
        return f"{name}({','.join(f'{k}={_param_text(v)}' for k, v in sorted(self._py_params.items()))})"

    def __eq__(self, other):
        return isinstance(other, Game) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __reduce__(self):
        from . import load_game
        return load_game, (str(self),)


class State(metaclass=abc.ABCMeta):
    """pyspiel.State: subclass it, call __init__(game) and define
    current_player, _legal_actions(player), _apply_action(action) (and
    _apply_actions for simultaneous games), chance_outcomes,
    _action_to_string(player, action), is_terminal, returns, __str__."""

    def __init__(self, game):
        if type(self) is State:
            raise BoneyardError("pyspiel.State is a base class: subclass it (OpenSpiel's Python games do), "
                                "or make states with game.new_initial_state()")
        if not isinstance(game, Game):
            raise BoneyardError(f"pyspiel.State(game): a pyspiel.Game subclass is needed, got {game!r}")
        self._py_game = game
        self._py_history: list = []  # (player, action)

    # The subclass defines these (pyspiel calls them by these names).
    def current_player(self) -> int:
        raise BoneyardError(f"{type(self).__name__} does not define current_player()")

    def is_terminal(self) -> bool:
        raise BoneyardError(f"{type(self).__name__} does not define is_terminal()")

    def returns(self):
        raise BoneyardError(f"{type(self).__name__} does not define returns()")

    def rewards(self):
        if self.is_terminal():
            return self.returns()
        return [0.0] * self.num_players()

    def player_return(self, player: int) -> float:
        return self.returns()[player]

    def player_reward(self, player: int) -> float:
        return self.rewards()[player]

    def get_game(self):
        return self._py_game

    def num_players(self) -> int:
        return self._py_game.num_players()

    def num_distinct_actions(self) -> int:
        return self._py_game.num_distinct_actions()

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def is_mean_field_node(self) -> bool:
        return False

    def is_initial_state(self) -> bool:
        return not self._py_history

    def legal_actions(self, player=None) -> list:
        """As pyspiel: [] once terminal; the chance outcomes at a chance
        node; the subclass's _legal_actions for the player to act (any
        player at a simultaneous node); [] for another player."""
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        current = self.current_player()
        if player is None:
            player = current
        if player == current or (player >= 0 and current == SIMULTANEOUS):
            return list(self._legal_actions(player))
        if player < 0:
            raise BoneyardError(f"legal_actions of pseudo-player {player}")
        return []

    def legal_actions_mask(self, player=None):
        n = self.get_game().max_chance_outcomes() if self.is_chance_node() else self.num_distinct_actions()
        mask = np.zeros(n, dtype=np.int8)
        for a in self.legal_actions(player):
            mask[a] = 1
        return mask

    def legal_chance_outcomes(self) -> list:
        return [a for a, _ in self.chance_outcomes()]

    def apply_action(self, action: int):
        player = self.current_player()
        self._apply_action(action)
        self._py_history.append((player, int(action)))

    def apply_actions(self, actions):
        self._apply_actions(list(actions))
        self._py_history.extend((p, int(a)) for p, a in enumerate(actions))

    def child(self, action: int):
        c = self.clone()
        c.apply_action(action)
        return c

    def clone(self):
        """A new state of the game with a deep copy of every field (the
        game itself is shared), as pyspiel's Clone does."""
        c = self._py_game.new_initial_state()
        memo = {id(self._py_game): self._py_game}
        for k, v in self.__dict__.items():
            setattr(c, k, copy.deepcopy(v, memo))
        return c

    def __deepcopy__(self, memo):
        return self.clone()

    def history(self) -> list:
        return [a for _, a in self._py_history]

    def full_history(self) -> list:
        return list(self._py_history)

    def history_str(self) -> str:
        return ", ".join(str(a) for a in self.history())

    def move_number(self) -> int:
        return len(self._py_history)

    def action_to_string(self, player, action=None) -> str:
        if action is None:
            player, action = self.current_player(), player
        return self._action_to_string(player, action)

    def string_to_action(self, player, text=None) -> int:
        if text is None:
            player, text = self.current_player(), player
        for a in self.legal_actions(player):
            if self.action_to_string(player, a) == text:
                return a
        raise BoneyardError(f"no legal action of player {player} reads {text!r}")

    def _check_player(self, player):
        if player is None:
            player = self.current_player()
        if not 0 <= player < self.num_players():
            raise BoneyardError(f"player {player} does not exist (0..{self.num_players() - 1})")
        return player

    def _tensor(self, info_state: bool, player):
        player = self._check_player(player)
        obs = self._py_game._observer(info_state)
        obs.set_from(self, player)
        parts = [np.asarray(v, dtype=np.float32).ravel() for v in obs.dict.values()]
        return np.concatenate(parts) if parts else np.zeros(0, np.float32)

    def information_state_string(self, player=None) -> str:
        player = self._check_player(player)
        return self._py_game._observer(True).string_from(self, player)

    def information_state_tensor(self, player=None):
        return self._tensor(True, player)

    def observation_string(self, player=None) -> str:
        player = self._check_player(player)
        return self._py_game._observer(False).string_from(self, player)

    def observation_tensor(self, player=None):
        return self._tensor(False, player)

    def serialize(self) -> str:
        """The subclass's fields, pickled (pyspiel: base64 of a pickled
        __dict__), without the game."""
        fields = {k: v for k, v in self.__dict__.items() if k != "_py_game"}
        return base64.b64encode(pickle.dumps(fields)).decode("ascii")

    def _py_restore(self, text: str):
        self.__dict__.update(pickle.loads(base64.b64decode(text)))

    def resample_from_infostate(self, player, sampler):
        raise BoneyardError(f"{type(self).__name__} does not define resample_from_infostate")

    def undo_action(self, player, action):
        raise BoneyardError(f"{type(self).__name__} does not define undo_action")

    def __reduce__(self):
        return _restore, (self._py_game, self.serialize())

    def __repr__(self):
        return str(self)


def _restore(game, text):
    return game.deserialize_state(text)


# boneyard's own games and states are pyspiel Games and States too.
Game.register(_boneyard.Game)
State.register(_boneyard.State)


def parse_params(text: str) -> dict:
    """The params of a game string 'name(k=v,...)' for a Python game, typed
    as pyspiel's are: bools, ints, floats, else strings."""
    out = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        if "=" not in item:
            raise BoneyardError(f"game parameter {item!r} is not key=value")
        k, v = (x.strip() for x in item.split("=", 1))
        if not k or not v:
            raise BoneyardError(f"game parameter {item!r} has an empty name or value")
        if k in out:
            raise BoneyardError(f"game parameter {k!r} is given twice")
        if v in ("true", "True", "false", "False"):
            out[k] = v.lower() == "true"
        else:
            for conv in (int, float):
                try:
                    out[k] = conv(v)
                    break
                except ValueError:
                    continue
            else:
                out[k] = v
    return out
