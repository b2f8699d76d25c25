"""OpenSpiel's names and meanings (docs/python.md, Coming from OpenSpiel):
player ids, GameType, the Bot base class and the probability sampler, so
that OpenSpiel's pure-Python algorithms run with `import boneyard as pyspiel`
(or `from boneyard import pyspiel`)."""
from __future__ import annotations

import enum
import json
import random

from ._boneyard import CHANCE, INVALID, SIMULTANEOUS, TERMINAL, game_info

INVALID_ACTION = -1


class PlayerId(enum.IntEnum):
    """pyspiel.PlayerId: compares equal to the ints current_player() gives."""
    DEFAULT = 0
    CHANCE = CHANCE
    SIMULTANEOUS = SIMULTANEOUS
    INVALID = INVALID
    TERMINAL = TERMINAL
    MEAN_FIELD = -5


class GameType:
    """pyspiel.GameType: what kind of game this is, for the algorithms that
    check before they run (CFR wants sequential, imperfect information,
    explicit chance; exploitability wants zero or constant sum)."""

    class Dynamics(enum.Enum):
        SEQUENTIAL = 0
        SIMULTANEOUS = 1
        MEAN_FIELD = 2

    class ChanceMode(enum.Enum):
        DETERMINISTIC = 0
        EXPLICIT_STOCHASTIC = 1
        SAMPLED_STOCHASTIC = 2

    class Information(enum.Enum):
        ONE_SHOT = 0
        PERFECT_INFORMATION = 1
        IMPERFECT_INFORMATION = 2

    class Utility(enum.Enum):
        ZERO_SUM = 0
        CONSTANT_SUM = 1
        GENERAL_SUM = 2
        IDENTICAL = 3

    class RewardModel(enum.Enum):
        REWARDS = 0
        TERMINAL = 1

    def __init__(self, **fields):
        self.__dict__.update(fields)

    @classmethod
    def _of(cls, game) -> "GameType":
        info = game_info(game.name())
        try:
            described = json.loads(info["describe"])
        except (ValueError, TypeError):
            described = {}
        # Every option with its default (`boneyard rules NAME` lists the choices).
        spec = dict(described.get("options", {})) if isinstance(described, dict) else {}
        n = game.num_players()
        return cls(
            short_name=game.name(),
            long_name=info.get("summary") or game.name(),
            # Dice & Dominoes: every seat chooses at once.
            dynamics=cls.Dynamics.SIMULTANEOUS if game.family() == "dice-and-dominoes" else cls.Dynamics.SEQUENTIAL,
            # new_initial_state() starts at the chance root (docs/python.md, Chance).
            chance_mode=cls.ChanceMode.EXPLICIT_STOCHASTIC,
            information=cls.Information.IMPERFECT_INFORMATION,
            utility=cls.Utility.ZERO_SUM if game.single_hand() else cls.Utility.CONSTANT_SUM,
            reward_model=cls.RewardModel.TERMINAL,
            max_num_players=n,
            min_num_players=n,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            provides_factored_observation_string=False,
            parameter_specification=spec,
            default_loadable=True,
        )

    def __repr__(self):
        return (f"<GameType {self.short_name}: {self.dynamics.name}, {self.chance_mode.name}, "
                f"{self.information.name}, {self.utility.name}>")


class Bot:
    """pyspiel.Bot: the base class OpenSpiel's Python bots subclass. A bot
    gives its action with step(state); the other methods let a game runner
    tell it what happened (inform_action) or restart it (restart_at)."""

    def __init__(self, *args, **kwargs):
        pass

    def step(self, state) -> int:
        raise NotImplementedError("a Bot subclass gives step(state)")

    def step_with_policy(self, state):
        """(policy as [(action, probability)], action)."""
        action = self.step(state)
        return [(action, 1.0)], action

    def restart(self):
        pass

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id: int, action: int):
        pass

    def inform_actions(self, state, actions):
        pass

    def provides_force_action(self) -> bool:
        return False

    def force_action(self, state, action: int):
        pass

    def provides_policy(self) -> bool:
        return False

    def get_policy(self, state):
        raise NotImplementedError("this bot gives no policy")

    def is_clone_able(self) -> bool:
        return False

    def clone(self):
        raise NotImplementedError("this bot cannot be cloned")


class UniformProbabilitySampler:
    """pyspiel.UniformProbabilitySampler: a callable giving floats in
    [min, max), for resample_from_infostate. As in pyspiel:
    UniformProbabilitySampler(min, max) (a random seed) or
    UniformProbabilitySampler(seed, min, max); here also (seed)."""

    def __init__(self, *args):
        if len(args) == 2:
            seed, lo, hi = None, float(args[0]), float(args[1])
        elif len(args) == 3:
            seed, lo, hi = int(args[0]), float(args[1]), float(args[2])
        elif len(args) <= 1:
            seed, lo, hi = (int(args[0]) if args else None), 0.0, 1.0
        else:
            raise TypeError("UniformProbabilitySampler(min, max), (seed, min, max) or (seed)")
        if not lo < hi:
            raise ValueError(f"UniformProbabilitySampler: min {lo} must be below max {hi}")
        self._rng = random.Random(seed)
        self._lo, self._hi = lo, hi

    def __call__(self) -> float:
        return self._lo + (self._hi - self._lo) * self._rng.random()


_SET_PIPS = {"six": 6, "nine": 9, "twelve": 12, "fifteen": 15, "eighteen": 18}


def _set_pips(name: str) -> int:
    """Total pips of a double-N set (an upper bound for its cut-down forms)."""
    for word, n in _SET_PIPS.items():
        if f"double-{word}" in str(name):
            return n * (n + 1) * (n + 2) // 2
    return 18 * 19 * 20 // 2


def utility_bounds(game) -> tuple[float, float]:
    """(min, max) of a player's return (docs/python.md, Returns).

    A whole game: each seat of a winning side gets 1/(winning sides), others 0.
    One hand: the side's points in the game's unit less the mean over sides
    (Mexican Train: penalty points count against), so with every side's
    points in 0..P the return is within -(S-1)/S*P .. (S-1)/S*P; P is bounded
    per family from the options (loose, as OpenSpiel allows: a bound, not
    always reached)."""
    if not game.single_hand():
        return 0.0, 1.0
    o = json.loads(game.options_json())
    family = game.family()
    n = game.num_players()
    if family == "dice-and-dominoes":
        # Net chips: the pot (every ante) less the own ante, or the ante lost.
        ante = float(o.get("ante", 1))
        return -ante, (n - 1) * ante
    if family == "mexican-train":
        # Penalty: the pips left in the hand (+50 for the blank double).
        p = _set_pips(o.get("set", "")) + (50 if o.get("blank_double_50") in ("on", True) else 0)
        return -(n - 1) / n * p, p / n
    if family == "texas-42":
        # Marks: at most the 7-mark bid; points: the bid (at most 7 x 42)
        # plus the 42 points of a hand.
        g = 7.0 if o.get("scoring") == "marks" else 7 * 42 + 42.0
        return -g / 2, g / 2
    # Line games: pips (doubled by capicua_double, rounded up to tens) plus
    # every bonus: the one-off ones at most 100 each, the per-pass ones at
    # most their N for every pass a hand can have.
    pips = _set_pips(o.get("set", ""))
    bonuses = str(o.get("bonuses", "none"))
    p = 2 * pips + 10 + 2 + 4 * 100
    hand = int(o.get("hand_size", 7))
    passes = n * (hand * n + 1)
    for b in bonuses.split(","):
        digits = [int(x) for x in b.replace("_", " ").split() if x.isdigit()]
        if digits:
            p += max(digits) * passes
    sides = len(game.new_initial_state(1).scores())
    return -(sides - 1) / sides * p, (sides - 1) / sides * p
