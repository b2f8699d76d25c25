"""More of pyspiel's surface that OpenSpiel's Python algorithms reach for
(docs/python.md, Coming from OpenSpiel; issue 36, 9): observation types and
observers (`open_spiel.python.observation`), GameInfo, serializing a game
with its state, is_initial_state, undo_action, policy_tensor_shape."""
from __future__ import annotations

import enum

import numpy as np

from ._boneyard import BoneyardError, Game, State


class PrivateInfoType(enum.IntEnum):
    """pyspiel.PrivateInfoType: whose private information an observation holds."""
    NONE = 0
    SINGLE_PLAYER = 1
    ALL_PLAYERS = 2


class IIGObservationType:
    """pyspiel.IIGObservationType: which observation an observer makes.
    perfect_recall=True is the information state; False the observation."""

    def __init__(self, public_info: bool = True, perfect_recall: bool = False,
                 private_info: PrivateInfoType = PrivateInfoType.SINGLE_PLAYER):
        self.public_info = bool(public_info)
        self.perfect_recall = bool(perfect_recall)
        self.private_info = PrivateInfoType(private_info)

    def __eq__(self, other):
        return isinstance(other, IIGObservationType) and (
            (self.public_info, self.perfect_recall, self.private_info)
            == (other.public_info, other.perfect_recall, other.private_info))

    def __hash__(self):
        return hash((self.public_info, self.perfect_recall, self.private_info))

    def __repr__(self):
        return (f"IIGObservationType(public_info={self.public_info}, perfect_recall={self.perfect_recall}, "
                f"private_info={self.private_info.name})")


class GameInfo:
    """pyspiel.GameInfo: a game's sizes and utility bounds."""

    def __init__(self, num_distinct_actions: int, max_chance_outcomes: int, num_players: int, min_utility: float,
                 max_utility: float, utility_sum: float | None = None, max_game_length: int = 0):
        self.num_distinct_actions = num_distinct_actions
        self.max_chance_outcomes = max_chance_outcomes
        self.num_players = num_players
        self.min_utility = min_utility
        self.max_utility = max_utility
        self.utility_sum = utility_sum
        self.max_game_length = max_game_length

    def __repr__(self):
        return f"GameInfo({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


def _game_info(self) -> GameInfo:
    return GameInfo(self.num_distinct_actions(), self.max_chance_outcomes(), self.num_players(), self.min_utility(),
                    self.max_utility(), self.utility_sum(), self.max_game_length())


class TensorInfo:
    """pyspiel.SpanTensorInfo: a named tensor's shape."""

    def __init__(self, name: str, shape):
        self.name, self.shape = name, list(shape)

    def __repr__(self):
        return f'"{self.name}" ({",".join(map(str, self.shape))})'


class Observer:
    """pyspiel.Observer: what game.make_observer gives. The information
    state (perfect_recall=True) or the observation (False), as the seat
    sees it; public-only views are not offered."""

    def __init__(self, game: Game, iig_obs_type: IIGObservationType | None, params: dict | None):
        if params:
            raise BoneyardError(f"make_observer: boneyard's observers take no parameters, got {params!r}")
        t = iig_obs_type or IIGObservationType(perfect_recall=False)
        if not t.public_info or t.private_info != PrivateInfoType.SINGLE_PLAYER:
            raise BoneyardError(f"make_observer: {t!r} is not offered; boneyard observes public information and "
                                "one player's private information (perfect_recall chooses the information state)")
        self.iig_obs_type = t
        self.info_state = t.perfect_recall
        self.shape = game.information_state_tensor_shape() if self.info_state else game.observation_tensor_shape()
        self.name = "info_state" if self.info_state else "observation"

    def __str__(self):
        return "Observer()"


def _make_observer(self, iig_obs_type=None, params=None) -> Observer:
    if isinstance(iig_obs_type, dict) and params is None:  # make_observer(params)
        iig_obs_type, params = None, iig_obs_type
    return Observer(self, iig_obs_type, params)


class _Observation(bytearray):
    """pyspiel._Observation: a float32 buffer (the buffer protocol, as
    OpenSpiel's observation.py reads it with np.frombuffer) filled by
    set_from(state, player)."""

    def __init__(self, game: Game, observer: Observer):
        if not isinstance(observer, Observer):
            raise BoneyardError(f"_Observation needs an Observer from game.make_observer, got {observer!r}")
        size = int(np.prod(observer.shape))
        super().__init__(4 * size)
        self._observer = observer
        self._floats = np.frombuffer(self, np.float32)

    def tensors_info(self):
        return [TensorInfo(self._observer.name, self._observer.shape)]

    def has_tensor(self) -> bool:
        return True

    def has_string(self) -> bool:
        return True

    def set_from(self, state: State, player: int):
        if self._observer.info_state:
            state.information_state_tensor_into(player, self._floats)
        else:
            state.observation_tensor_into(player, self._floats)

    def string_from(self, state: State, player: int) -> str:
        if self._observer.info_state:
            return state.information_state_string(player)
        return state.observation_string(player)

    def compress(self) -> bytes:
        return bytes(self)

    def decompress(self, data: bytes):
        if len(data) != len(self):
            raise BoneyardError(f"decompress: {len(data)} bytes, the observation has {len(self)}")
        self[:] = data


class StateStruct:
    """pyspiel.StateStruct: named so that OpenSpiel's Python games import
    (their annotations name it); boneyard's states have no struct form."""


def read_contents_from_file(path: str, mode: str = "r"):
    """pyspiel.read_contents_from_file."""
    with open(path, mode) as f:
        return f.read()


# OpenSpiel's Python games register themselves when imported
# (open_spiel.python.games, which open_spiel.python.policy imports);
# load_game makes them by name (python_games.py: the Game and State bases).
_PYTHON_GAMES: dict = {}


def register_game(game_type, game_class):
    """pyspiel.register_game: load_game(game_type.short_name) then makes
    game_class(params); registered_names lists it."""
    name = getattr(game_type, "short_name", None)
    if not isinstance(name, str) or not name:
        raise BoneyardError(f"register_game: the game type has no short_name: {game_type!r}")
    if not callable(game_class):
        raise BoneyardError(f"register_game: {game_class!r} cannot make a game")
    _PYTHON_GAMES[name] = (game_type, game_class)


def python_game(name, params):
    """A registered Python game by name (or game string), else None."""
    if not isinstance(name, str):
        return None
    base, _, rest = name.partition("(")
    base = base.strip()
    if base not in _PYTHON_GAMES:
        return None
    from .python_games import parse_params

    rest = rest.strip()
    if rest and not rest.endswith(")"):
        raise BoneyardError(f"game string {name!r}: a ')' is missing")
    merged = parse_params(rest[:-1]) if rest else {}
    for k, v in (params or {}).items():
        if k in merged:
            raise BoneyardError(f"game parameter {k!r} is given both in the game string and in params")
        merged[k] = v
    # As pyspiel: a parameter the game does not declare is refused; the
    # ones not given take their declared defaults.
    game_type, game_class = _PYTHON_GAMES[base]
    spec = dict(getattr(game_type, "parameter_specification", None) or {})
    unknown = sorted(set(merged) - set(spec))
    if unknown:
        raise BoneyardError(f"{base}: unknown parameter(s) {', '.join(unknown)}; the game takes: "
                            f"{', '.join(sorted(spec)) or 'none'}")
    return game_class({**spec, **merged})


class TabularBestResponse:
    """pyspiel.TabularBestResponse(game, best_responder, policy_table): the
    best response of one player to a tabular policy (info-state string ->
    [(action, probability)]) of the others, over the whole game tree from
    the chance root (small variants only: the tree is walked in Python).
    OpenSpiel's exploitability() and CPPBestResponsePolicy call it.
    Turn-based games only (convert_to_turn_based for Dice & Dominoes)."""

    def __init__(self, game, best_responder: int, policy_table: dict):
        if not 0 <= best_responder < game.num_players():
            raise BoneyardError(f"TabularBestResponse: player {best_responder} does not exist")
        self._player = best_responder
        self._table = policy_table
        self._infosets: dict = {}  # info state -> [(state, counterfactual reach)]
        self._values: dict = {}
        self._actions: dict = {}
        self._collect(game.new_initial_state(), 1.0)

    def _transitions(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        if state.is_simultaneous_node():
            raise BoneyardError("TabularBestResponse: a simultaneous node; use convert_to_turn_based(game)")
        key = state.information_state_string(state.current_player())
        if key not in self._table:
            raise BoneyardError(f"TabularBestResponse: the policy has no entry for the information state {key!r}")
        return self._table[key]

    def _collect(self, state, reach):
        if state.is_terminal():
            return
        if state.current_player() == self._player:
            self._infosets.setdefault(state.information_state_string(self._player), []).append((state, reach))
            for a in state.legal_actions():
                self._collect(state.child(a), reach)
        else:
            for a, p in self._transitions(state):
                if p > 0:
                    self._collect(state.child(a), reach * p)

    def value(self, state) -> float:
        """The best responder's expected return from `state` on."""
        key = tuple(state.full_history())
        if key not in self._values:
            if state.is_terminal():
                v = state.returns()[self._player]
            elif state.current_player() == self._player:
                v = self.value(state.child(self._best_action(state.information_state_string(self._player))))
            else:
                v = sum(p * self.value(state.child(a)) for a, p in self._transitions(state) if p > 0)
            self._values[key] = v
        return self._values[key]

    def _best_action(self, infostate: str) -> int:
        if infostate not in self._actions:
            states = self._infosets[infostate]
            legal = states[0][0].legal_actions()
            self._actions[infostate] = max(
                legal, key=lambda a: sum(reach * self.value(s.child(a)) for s, reach in states))
        return self._actions[infostate]

    def get_best_response_actions(self) -> dict:
        return {k: self._best_action(k) for k in self._infosets}


_SERIALIZE_HEADER = "# Automatically generated by boneyard (pyspiel's SerializeGameAndState)"


def serialize_game_and_state(game: Game, state: State) -> str:
    """pyspiel.serialize_game_and_state: the game string and the state's
    serialize(), in sections."""
    return f"{_SERIALIZE_HEADER}\n[Meta]\nVersion: 1\n\n[Game]\n{game}\n[State]\n{state.serialize()}\n"


def deserialize_game_and_state(text: str):
    """pyspiel.deserialize_game_and_state: (game, state) back from
    serialize_game_and_state."""
    from . import load_game

    if not isinstance(text, str) or "\n[Game]\n" not in text or "\n[State]\n" not in text:
        raise BoneyardError("deserialize_game_and_state: not a text from serialize_game_and_state "
                            "(sections [Game] and [State] are missing)")
    game_part = text.split("\n[Game]\n", 1)[1]
    game_string, state_text = game_part.split("\n[State]\n", 1)
    game = load_game(game_string.strip())
    return game, game.deserialize_state(state_text.rstrip("\n"))


def _is_initial_state(self) -> bool:
    """No action (chance included) has been applied yet."""
    return not self.full_history()


def _undo_action(self, player: int, action: int):
    """pyspiel's State.undo_action: undoes the last action, which must be
    (player, action); the state is replayed from its start without it."""
    self._undo(player, action)


def install(game_cls=Game, state_cls=State):
    game_cls.make_observer = _make_observer
    game_cls.get_game_info = _game_info
    game_cls.policy_tensor_shape = lambda self: [self.num_distinct_actions()]
    state_cls.is_initial_state = _is_initial_state
    state_cls.undo_action = _undo_action
