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
    SIMULTANEOUS,
    TERMINAL,
    BoneyardError,
    Bot as _Bot,
    Game,
    State,
    game_info,
    registered_games,
)
from .env import DominoEnv  # noqa: F401

__all__ = [
    "CHANCE", "SIMULTANEOUS", "INVALID", "TERMINAL", "BoneyardError", "Game", "State",
    "registered_games", "game_info", "load_game", "make_bot", "BotAgent", "arena", "random_playouts",
    "DominoEnv",
]


def load_game(name: str, params: dict | None = None) -> Game:
    """A game by registered name (every game and preset); params: option name
    to value (str, int or bool: True is "on"), as `boneyard rules NAME` lists."""
    return _boneyard._load_game(name, params)


def _new_initial_state(self, seed: int | None = None, explicit_chance: bool = False) -> State:
    """A new game. By default chance (deals, draws, dice) is resolved by the
    state's own generator seeded with `seed`, as the CLI and the protocol's
    auto_chance do: the same seed gives the CLI's game. With
    explicit_chance=True every chance event is a chance node, one tile (or
    die) at a time, as in OpenSpiel: current_player() is CHANCE,
    chance_outcomes() gives (action, probability) pairs and apply_action()
    applies one (docs/python.md, Chance)."""
    return self._new_initial_state(seed, bool(explicit_chance))


Game.new_initial_state = _new_initial_state


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


def _resample(self, player: int, rng_or_seed=None):
    """A full state consistent with what `player` knows (the engine's
    G::sample, used by the search bots): the player's own hand and every
    public fact are kept, the hidden tiles are dealt anew. rng_or_seed: an
    int seed, a random.Random or numpy Generator (a seed is drawn from it)."""
    if rng_or_seed is None:
        seed = _random.getrandbits(63)
    elif isinstance(rng_or_seed, int):
        seed = rng_or_seed
    elif hasattr(rng_or_seed, "integers"):  # numpy Generator
        seed = int(rng_or_seed.integers(0, 2**63 - 1))
    elif hasattr(rng_or_seed, "getrandbits"):
        seed = rng_or_seed.getrandbits(63)
    else:
        raise ValueError("rng_or_seed: an int, random.Random or numpy.random.Generator")
    return self._resample_seed(player, seed)


State._resample_seed = State.resample_from_infostate
State.resample_from_infostate = _resample


class BotAgent:
    """A bot bound to one seat: step(state) gives its action; values(state)
    every legal action's value (larger is better), empty for bots without."""

    def __init__(self, bot: _Bot, seat: int):
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
    return game._arena(list(bots), games, seed, threads, think_ms, iterations, bot_threads)


def random_playouts(game: Game | str, n: int, seed: int = 1, threads: int = 1) -> dict:
    """n uniformly random hands in C++ (the GIL released), as `boneyard bench`
    plays them. Returns hands, moves, seconds, hands_per_second."""
    if isinstance(game, str):
        game = load_game(game)
    return game._random_playouts(n, seed, threads)
