"""Observation and action spaces for DominoEnv (docs/python.md, Coming from
PettingZoo): gymnasium's own classes when gymnasium can be imported, else
these small stand-ins with the same attributes and methods (shape, dtype,
low, high, n, contains, sample)."""
from __future__ import annotations

import operator

import numpy as np

try:  # pragma: no cover - gymnasium is not packaged in Debian
    from gymnasium.spaces import Box, Dict, Discrete  # noqa: F401

    HAVE_GYMNASIUM = True
except ImportError:
    HAVE_GYMNASIUM = False

    class Box:
        """A box of numbers between low and high (inclusive)."""

        def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
            self.dtype = np.dtype(dtype)
            shape = tuple(shape) if shape is not None else np.shape(low)
            self.shape = shape
            self.low = np.full(shape, low, self.dtype) if np.isscalar(low) else np.asarray(low, self.dtype)
            self.high = np.full(shape, high, self.dtype) if np.isscalar(high) else np.asarray(high, self.dtype)
            self._rng = np.random.default_rng(seed)

        def contains(self, x) -> bool:
            x = np.asarray(x)
            return (x.shape == self.shape and np.can_cast(x.dtype, self.dtype)
                    and bool(np.all(x >= self.low)) and bool(np.all(x <= self.high)))

        def sample(self, mask=None):
            if np.issubdtype(self.dtype, np.integer):
                return self._rng.integers(self.low, self.high + 1, self.shape).astype(self.dtype)
            return self._rng.uniform(self.low, self.high, self.shape).astype(self.dtype)

        def seed(self, seed=None):
            self._rng = np.random.default_rng(seed)

        def __eq__(self, other):
            return (isinstance(other, Box) and self.shape == other.shape and self.dtype == other.dtype
                    and np.array_equal(self.low, other.low) and np.array_equal(self.high, other.high))

        def __repr__(self):
            return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"

    class Discrete:
        """The integers 0..n-1; sample(mask) picks among mask == 1."""

        def __init__(self, n: int, seed=None):
            self.n = int(n)
            self.shape = ()
            self.dtype = np.dtype(np.int64)
            self._rng = np.random.default_rng(seed)

        def contains(self, x) -> bool:
            return isinstance(x, (int, np.integer)) and 0 <= int(x) < self.n

        def sample(self, mask=None):
            if mask is None:
                return int(self._rng.integers(self.n))
            allowed = np.flatnonzero(mask)
            return int(self._rng.choice(allowed)) if len(allowed) else 0

        def seed(self, seed=None):
            self._rng = np.random.default_rng(seed)

        def __eq__(self, other):
            return isinstance(other, Discrete) and self.n == other.n

        def __repr__(self):
            return f"Discrete({self.n})"

    class Dict:
        """Named sub-spaces; an observation is a dict with the same keys."""

        def __init__(self, spaces: dict, seed=None):
            self.spaces = dict(spaces)

        def __getitem__(self, key):
            return self.spaces[key]

        def contains(self, x) -> bool:
            return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
                s.contains(x[k]) for k, s in self.spaces.items())

        def sample(self, mask=None):
            return {k: s.sample() for k, s in self.spaces.items()}

        def __eq__(self, other):
            return isinstance(other, Dict) and self.spaces == other.spaces

        def __repr__(self):
            return f"Dict({self.spaces})"


def _set_tiles(name) -> int:
    for word, n in (("six", 6), ("nine", 9), ("twelve", 12), ("fifteen", 15), ("eighteen", 18)):
        if f"double-{word}" in str(name):
            return (n + 1) * (n + 2) // 2
    return 190


def tensor_bounds(game) -> tuple[float, float]:
    """(low, high) over every entry of the observation and information-state
    tensors (docs/python.md, Tensors). Most entries are 0/1; these are the
    scaled counts that can leave 0..1:

    - line games: a side's score / target (the game ends once one side
      passes the target, by at most one hand's points), passes and draws
      per seat / tiles in the set;
    - Mexican Train: a seat's penalty total / 100 (every round's hand at
      most the whole set's pips), open doubles / 4;
    - Texas 42: a bid / 84 (up to 7 marks = 294 points: 3.5), a side's
      score / target (past the target by one hand at most);
    - Dice & Dominoes: tiles held / 7 (up to the whole set), chip balance
      and pot / (10 x ante) (a balance is within -hands..(players-1) x hands
      antes), round / 10 (rounds in a hand are bounded by the game length).
    """
    from . import _spiel

    o = __import__("json").loads(game.options_json())
    family = game.family()
    n = game.num_players()
    if family == "dice-and-dominoes":
        hands = 1 if game.single_hand() else int(o.get("hands", 10))
        tiles = 28 * int(o.get("sets", 1))
        return -hands / 10.0, max(tiles / 7.0, n * hands / 10.0, game.max_game_length() / 10.0)
    if family == "texas-42":
        marks = o.get("scoring") == "marks"
        target = int(o.get("target_marks", 7) if marks else o.get("target_points", 250))
        hand = 7 if marks else 7 * 42 + 42
        return 0.0, max(3.5, (target + hand) / target)
    if family == "mexican-train":
        tiles = _set_tiles(o.get("set", ""))
        rounds = 1 if game.single_hand() else int(o.get("rounds", 13))
        pips = _spiel._set_pips(o.get("set", "")) + 50
        return 0.0, max(1.0, rounds * pips / 100.0, tiles / 4.0)
    # Line games.
    tiles = _set_tiles(o.get("set", ""))
    target = max(1, int(o.get("target", 100)))
    one_hand = abs(_line_hand_points(game))
    return 0.0, max((n * tiles + 1) / tiles, (target + one_hand) / target)


def _line_hand_points(game) -> float:
    from . import _spiel, load_game

    params = dict(game.params())
    params["single_hand"] = True
    single = load_game(game.name(), params)
    sides = len(single.new_initial_state(1).scores())
    # utility_bounds gives (S-1)/S x P; P is the hand's points bound.
    return _spiel.utility_bounds(single)[1] * sides / max(1, sides - 1)


def action_index(action) -> int:
    """An action as an int: an int or a numpy integer, never a float or a
    string (int(1.5) played action 1 silently)."""
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action is an int (an index into the action space), got {action!r}") from None
