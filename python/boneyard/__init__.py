"""Boneyard domino games for research: an OpenSpiel-style API (docs/python.md).

    import boneyard
    game = boneyard.load_game("latin", {"single_hand": True})
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

Errors (unknown game, bad option, illegal action, wrong player, a move on a
terminal state) raise ValueError (boneyard.BoneyardError is a subclass).
"""
from __future__ import annotations

import random as _random

from . import _boneyard
from ._boneyard import (  # noqa: F401  (re-exported)
    CHANCE,
    INVALID,
    MAX_THREADS,
    SIMULTANEOUS,
    TERMINAL,
    BoneyardError,
    Bot as _Bot,
    Game,
    State,
    game_info,
    registered_games,
)
from . import _spiel
from ._spiel import INVALID_ACTION, Bot, GameType, PlayerId, UniformProbabilitySampler  # noqa: F401
from . import _compat
from ._compat import (  # noqa: F401  (pyspiel's names)
    GameInfo,
    IIGObservationType,
    PrivateInfoType,
    StateStruct,
    TabularBestResponse,
    _Observation,
    deserialize_game_and_state,
    read_contents_from_file,
    register_game,
    serialize_game_and_state,
)
from .env import DominoEnv  # noqa: F401
from .turn_based import convert_to_turn_based  # noqa: F401
from .parallel_env import DominoParallelEnv  # noqa: F401

SpielError = BoneyardError  # pyspiel.SpielError: a RuntimeError (and a ValueError)


def registered_names():
    """pyspiel.registered_names: every game boneyard runs, then any of
    OpenSpiel's Python games registered with register_game."""
    return registered_games() + sorted(_compat._PYTHON_GAMES)

__all__ = [
    "CHANCE", "SIMULTANEOUS", "INVALID", "TERMINAL", "BoneyardError", "Game", "State",
    "registered_games", "game_info", "load_game", "make_bot", "BotAgent", "arena", "random_playouts",
    "DominoEnv", "PlayerId", "INVALID_ACTION", "SpielError", "Bot", "GameType", "UniformProbabilitySampler",
    "registered_names", "GameInfo", "IIGObservationType", "PrivateInfoType", "serialize_game_and_state",
    "deserialize_game_and_state", "DominoParallelEnv", "convert_to_turn_based", "register_game", "StateStruct",
    "read_contents_from_file", "TabularBestResponse",
]


def load_game(name: str, params: dict | None = None) -> Game:
    """A game by registered name (every game and preset); params: option name
    to value (str, int or bool: True is "on"), as `boneyard rules NAME` lists.
    OpenSpiel's form "latin(single_hand=true)" is accepted too."""
    # The game string is read in C++ (research/spiel.h): an option given
    # twice, empty, or both in the string and in params is refused.
    py_game = _compat.python_game(name, params)  # one of OpenSpiel's Python games (register_game)
    if py_game is not None:
        return py_game
    return _boneyard._load_game(name, params)


def _new_initial_state(self, seed: int | None = None, explicit_chance: bool | None = None) -> State:
    """A new game (docs/python.md, Chance).

    new_initial_state() starts at the chance root, as OpenSpiel does: every
    chance event (deal, draw, roll) is a chance node, one tile or die at a
    time (current_player() is CHANCE, chance_outcomes() gives (action,
    probability) pairs, apply_action() applies one).

    new_initial_state(seed) is the seeded form: chance is resolved by the
    state's own generator seeded with `seed`, as the CLI and the protocol's
    auto_chance do (the same seed gives the CLI's game). Its stock order and
    later deals are fixed in the state: clone() carries them; see
    State.resample_chance. explicit_chance=True/False overrides either."""
    if explicit_chance is None:
        explicit_chance = seed is None
    return self._new_initial_state(seed, bool(explicit_chance))


def _new_initial_states(self):
    """OpenSpiel: the initial states (one: the chance root)."""
    return [self.new_initial_state()]


def _parameter_value(v: str):
    if v in ("on", "true"):
        return True
    if v in ("off", "false"):
        return False
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


def _get_parameters(self) -> dict:
    """OpenSpiel: the parameters given to load_game, typed (bool, int, str)."""
    return {k: _parameter_value(v) for k, v in self.params().items()}


def _game_str(self) -> str:
    params = self.params()
    if not params:
        return self.name()
    return f"{self.name()}({','.join(f'{k}={v}' for k, v in params.items())})"


def _game_type(self) -> GameType:
    return GameType._of(self)


def _sides(self) -> int:
    return len(self.new_initial_state(1).scores())


def _max_utility(self) -> float:
    """A bound on the largest return (docs/python.md, Returns)."""
    return float(_spiel.utility_bounds(self)[1])


def _min_utility(self) -> float:
    """A bound on the smallest return."""
    return float(_spiel.utility_bounds(self)[0])


def _utility_sum(self) -> float:
    """The sum of the returns on every terminal state: 0 for one hand (zero
    sum); for a whole game every seat of a winning side gets 1/(winning
    sides), so the sum is the seats per side."""
    if self.single_hand():
        return 0.0
    return self.num_players() / _sides(self)


def _game_reduce(self):
    return (load_game, (self.name(), dict(self.params())))


Game.new_initial_state = _new_initial_state
Game.new_initial_states = _new_initial_states
Game.get_parameters = _get_parameters
Game.__str__ = _game_str
Game.__repr__ = lambda self: f"<boneyard.Game {_game_str(self)}>"
Game.get_type = _game_type
Game.max_utility = _max_utility
Game.min_utility = _min_utility
Game.utility_sum = _utility_sum
Game.__reduce__ = _game_reduce
# Game.__eq__ and __hash__ (C++): the same name and rules, however spelled.
_compat.install(Game, State)
Game.max_move_number = lambda self: self.max_game_length()
Game.max_history_length = lambda self: self.max_game_length()


def _observation_tensor_into(self, player: int, out):
    """Writes the observation tensor into a preallocated float32 array."""
    self.observation_tensor_into(player, out)
    return out


def _rewards(self):
    """pyspiel: the rewards of the last step. Boneyard gives the whole
    return at the end: returns() on a terminal state, else zeros."""
    if self.is_terminal():
        return self.returns()
    return [0.0] * self.num_players()


State.rewards = _rewards


def _seed_from(rng_or_seed) -> int:
    """A 63-bit seed from an int, random.Random, numpy Generator, or an
    OpenSpiel-style probability sampler (a callable giving a float in [0, 1))."""
    if rng_or_seed is None:
        return _random.getrandbits(63)
    if isinstance(rng_or_seed, bool):
        raise BoneyardError("rng_or_seed: an int, random.Random, numpy Generator or a sampler, not a bool")
    if isinstance(rng_or_seed, int):
        return rng_or_seed
    if hasattr(rng_or_seed, "integers"):  # numpy Generator
        return int(rng_or_seed.integers(0, 2**63 - 1))
    if hasattr(rng_or_seed, "getrandbits"):
        return rng_or_seed.getrandbits(63)
    if callable(rng_or_seed):
        # Two draws of 31 bits each from the sampler.
        seed = 0
        for _ in range(3):
            u = float(rng_or_seed())
            if not 0.0 <= u <= 1.0:
                raise BoneyardError(f"the probability sampler gave {u}; expected a float in [0, 1)")
            seed = (seed << 21) | min(int(u * (1 << 21)), (1 << 21) - 1)
        return seed
    raise BoneyardError("rng_or_seed: an int, random.Random, numpy.random.Generator or a callable sampler")


def _resample(self, player: int, rng_or_seed=None):
    """A full state consistent with what `player` knows (the engine's
    G::sample, used by the search bots): the player's own hand and every
    public fact are kept, the hidden tiles are dealt anew. rng_or_seed: an
    int seed, a random.Random or numpy Generator, or OpenSpiel's probability
    sampler (a callable giving floats in [0, 1), e.g.
    UniformProbabilitySampler). The player's information_state_string is
    the same on the result."""
    return self._resample_seed(player, _seed_from(rng_or_seed))


State._resample_seed = State.resample_from_infostate
State.resample_from_infostate = _resample


def _resample_chance(self, rng_or_seed=None):
    """A seeded state (new_initial_state(seed)) holds its future chance: the
    stock's order and the generator of later deals and rolls; clone() copies
    them, so two clones draw the same tiles. This deals the undrawn stock
    anew and reseeds the generator, in place; what every seat sees stays the
    same. The state can no longer be serialized (no seed replays it)."""
    self._reshuffle(_seed_from(rng_or_seed))
    return self


State.resample_chance = _resample_chance


def _child(self, action: int) -> State:
    """OpenSpiel: a copy with `action` applied."""
    c = self.clone()
    c.apply_action(action)
    return c


def _history_str(self) -> str:
    return ", ".join(str(a) for a in self.history())


def _player_return(self, player: int) -> float:
    if not isinstance(player, int) or not 0 <= player < self.num_players():
        raise BoneyardError(f"player {player} does not exist; players are 0..{self.num_players() - 1}")
    return self.returns()[player]


_state_action_to_string = State.action_to_string
_state_string_to_action = State.string_to_action


def _action_to_string(self, player_or_action: int, action: int | None = None) -> str:
    """action_to_string(player, action) or, as OpenSpiel allows,
    action_to_string(action) for the current player. Any action in
    0..num_distinct_actions-1 has a text, legal now or not."""
    if action is None:
        player, action = self.current_player(), player_or_action
        if player < 0 and player != CHANCE:
            player = 0  # a simultaneous or terminal state: the text does not depend on the seat
    else:
        player = player_or_action
    return _state_action_to_string(self, player, action)


def _string_to_action(self, player_or_text, text: str | None = None) -> int:
    if text is None:
        return _state_string_to_action(self, self.current_player(), player_or_text)
    return _state_string_to_action(self, player_or_text, text)


def _state_reduce(self):
    return (_restore_state, (self.get_game(), self.serialize()))


def _restore_state(game: Game, text: str) -> State:
    return game.deserialize_state(text)


State.child = _child
State.history_str = _history_str
State.player_return = _player_return
State.is_player_node = lambda self: self.current_player() >= 0
State.is_mean_field_node = lambda self: False
State.move_number = lambda self: len(self.full_history())
State.num_distinct_actions = lambda self: self.get_game().num_distinct_actions()
State.action_to_string = _action_to_string
State.string_to_action = _string_to_action
State.__reduce__ = _state_reduce


class BotAgent(Bot):
    """A bot bound to one seat: step(state) gives its action; values(state)
    every legal action's value (larger is better), empty for bots without."""

    def __init__(self, bot: _Bot, seat: int):
        super().__init__()
        self._bot = bot
        self.seat = seat

    @property
    def name(self) -> str:
        return self._bot.name()

    def step(self, state: State) -> int:
        return state._bot_action(self._bot, self.seat)

    def values(self, state: State) -> dict:
        return dict(state._bot_values(self._bot, self.seat))

    def __repr__(self):
        return f"<boneyard bot {self.name} at seat {self.seat}>"


def make_bot(game: Game, name: str, seat: int, think_ms: float = 0.0, iterations: int = 0,
             seed: int = 1, threads: int = 1) -> BotAgent:
    """A bot for `game` at `seat`: random, greedy, and the search bots (pimc,
    ismcts, omniscient) with a budget (think_ms wins over iterations)."""
    return BotAgent(_boneyard._make_bot(game, name, seat, think_ms, iterations, seed, threads), seat)


def arena(game: Game | str, bots, games: int = 100, seed: int = 1, threads: int = 1, think_ms: float = 0.0,
          iterations: int = 0, bot_threads: int = 1) -> dict:
    """Plays `games` games in C++ (the GIL released): bots[i % len(bots)] at
    seat i, game k from seed seed+k. Returns games, mean returns per seat,
    seconds."""
    if isinstance(game, str):
        game = load_game(game)
    if isinstance(bots, str):
        bots = bots.split(",")
    if not isinstance(bots, (list, tuple)):
        raise BoneyardError(f"arena: bots must be a list of bot names (or 'a,b'), got {bots!r}")
    return game._arena(list(bots), games, seed, threads, think_ms, iterations, bot_threads)


def random_playouts(game: Game | str, n: int, seed: int = 1, threads: int = 1) -> dict:
    """n uniformly random hands in C++ (the GIL released), as `boneyard bench`
    plays them. Returns hands, moves, seconds, hands_per_second."""
    if isinstance(game, str):
        game = load_game(game)
    return game._random_playouts(n, seed, threads)


# pyspiel.Game and pyspiel.State: bases that OpenSpiel's Python games
# subclass; boneyard's own games and states are registered as theirs
# (isinstance holds for both). Bound last: the methods above were set on
# the C++ classes.
from .python_games import Game, State  # noqa: E402,F811
