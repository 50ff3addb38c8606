"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013).

A rating is a value, a deviation (how unsure it is) and a volatility (how
much it moves). Each rated game is its own rating period here, as on online
servers: the ratings move after every game, both players' from their values
before it. ``tests/serve/test_serve_ratings.py`` holds this to the paper's
worked example.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Rating", "update", "DEFAULT", "PROVISIONAL_DEVIATION", "TAU"]

#: The paper's scale between the Glicko and Glicko-2 units.
_SCALE = 173.7178
#: The system constant: how much the volatility may change (0.3 to 1.2; smaller is calmer).
TAU = 0.5
_EPSILON = 1e-6
#: A rating whose deviation is above this is provisional (shown with a "?").
PROVISIONAL_DEVIATION = 110.0
#: The deviation never grows past a new player's.
_MAX_DEVIATION = 350.0


@dataclass(frozen=True)
class Rating:
    value: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


DEFAULT = Rating()


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi ** 2)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(100):  # converges in a handful; bounded all the same
        if abs(big_b - big_a) <= _EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one period of ``games``: (the opponent's rating
    before, the score: 1 a win, 0.5 a draw, 0 a loss). With no games only the
    deviation grows (step 6 alone)."""
    mu = (player.value - 1500.0) / _SCALE
    phi = player.deviation / _SCALE
    sigma = player.volatility
    if not games:
        grown = math.sqrt(phi * phi + sigma * sigma) * _SCALE
        return Rating(player.value, min(grown, _MAX_DEVIATION), sigma)
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in games:
        mu_j = (opponent.value - 1500.0) / _SCALE
        g = _g(opponent.deviation / _SCALE)
        expected = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        inverse_v += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(1500.0 + _SCALE * new_mu, min(_SCALE * new_phi, _MAX_DEVIATION), new_sigma)
