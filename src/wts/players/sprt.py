"""The sequential probability ratio test of a match played in game pairs.

Each opening is played twice, colours swapped, so a pair's score (0, ½, 1,
1½ or 2 points for A) cancels most of what the opening gives one colour; the
five outcomes are the *pentanomial* counts. The test weighs H0, A is ``elo0``
stronger, against H1, A is ``elo1`` stronger (logistic Elo), with the
generalised SPRT's normal approximation on the pairs' scores (as Fishtest
computes it): after N pairs of mean score m and variance v (per game, a
pair's points halved),

    LLR = N (s1 - s0) (2m - s0 - s1) / (2v),   s = 1 / (1 + 10^(-elo/400)),

and the test stops when LLR leaves ``(log(beta/(1-alpha)), log((1-beta)/alpha))``:
H1 accepted above, H0 below. One virtual pair, spread over the five outcomes
as a match of equal players would (0.1, 0.2, 0.4, 0.2, 0.1), is added to the
counts, as the ladder adds a virtual draw: without it the first clean pair
would give a variance of 0 and decide the test at once.

>>> test = SPRT(elo0=0, elo1=5)
>>> round(test.lower, 3), round(test.upper, 3)
(-2.944, 2.944)
>>> status = test.status([0, 1, 5, 3, 1])
>>> status.verdict, round(status.llr, 3), round(status.elo)
(None, 0.157, 64)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from wts.errors import ParameterError

__all__ = ["SPRT", "SPRTStatus", "parse_sprt", "elo_from_score", "PRIOR"]

#: The virtual pair added to the pentanomial counts (0, ½, 1, 1½, 2 points).
PRIOR = (0.1, 0.2, 0.4, 0.2, 0.1)
_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's points per game
_Z95 = 1.959963984540054


def _expected(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_from_score(score: float) -> float:
    """The Elo difference at which the stronger side scores ``score`` (0 to 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class SPRTStatus:
    """Where the test stands: the pairs, the LLR and its bounds, the verdict
    (``"H0"``, ``"H1"`` or None while it goes on), Elo with a 95% interval,
    and the likelihood of superiority (the chance that A is the stronger)."""

    pairs: int
    pentanomial: tuple[int, int, int, int, int]
    llr: float
    lower: float
    upper: float
    verdict: str | None
    elo: float
    elo_low: float
    elo_high: float
    los: float


@dataclass(frozen=True)
class SPRT:
    """The test: H0 ``elo0``, H1 ``elo1`` (``elo0 < elo1``), error rates ``alpha``, ``beta``."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                    not math.isfinite(value):
                raise ParameterError(f"{name} must be a finite number, not {value!r}")
        if not self.elo0 < self.elo1:
            raise ParameterError(f"elo0 must be below elo1, not {self.elo0} and {self.elo1}")
        if not (self.elo0 >= -2000 and self.elo1 <= 2000):
            raise ParameterError("elo0 and elo1 must be from -2000 to 2000")
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 0.5:
                raise ParameterError(f"{name} must be above 0 and below 0.5, "
                                     f"not {getattr(self, name)}")

    @property
    def lower(self) -> float:
        """Accept H0 once the LLR falls to this."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 once the LLR rises to this."""
        return math.log((1.0 - self.beta) / self.alpha)

    def status(self, pentanomial: Sequence[int]) -> SPRTStatus:
        """The test after pairs with these pentanomial counts (pairs that gave A
        0, ½, 1, 1½ and 2 points)."""
        counts = tuple(int(n) for n in pentanomial)
        if len(counts) != 5 or any(n < 0 for n in counts):
            raise ParameterError(f"pentanomial counts are five counts >= 0, not {pentanomial!r}")
        pairs = sum(counts)
        weights = [n + p for n, p in zip(counts, PRIOR)]
        total = sum(weights)
        mean = sum(w * x for w, x in zip(weights, _SCORES)) / total
        variance = sum(w * (x - mean) ** 2 for w, x in zip(weights, _SCORES)) / total
        s0, s1 = _expected(self.elo0), _expected(self.elo1)
        llr = total * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance) if pairs else 0.0
        verdict = "H1" if llr >= self.upper else "H0" if llr <= self.lower else None
        spread = math.sqrt(variance / total)
        los = 0.5 * (1.0 + math.erf((mean - 0.5) / (spread * math.sqrt(2.0))))
        return SPRTStatus(pairs, counts, llr, self.lower, self.upper, verdict,
                          elo_from_score(mean), elo_from_score(mean - _Z95 * spread),
                          elo_from_score(mean + _Z95 * spread), los)


def parse_sprt(text: str) -> SPRT:
    """``"elo0=0,elo1=5,alpha=0.05,beta=0.05"`` (any of them, in any order) as an SPRT."""
    values: dict[str, float] = {}
    for item in text.split(","):
        key, sep, number = (part.strip() for part in item.partition("="))
        if key not in ("elo0", "elo1", "alpha", "beta") or not sep:
            raise ParameterError(f"bad SPRT setting {item.strip()!r}: expected KEY=VALUE with "
                                 "KEY one of elo0, elo1, alpha, beta")
        if key in values:
            raise ParameterError(f"{key} is given twice in {text!r}")
        try:
            values[key] = float(number)
        except ValueError:
            raise ParameterError(f"bad value for {key}: {number!r}") from None
    return SPRT(**values)
