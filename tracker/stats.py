"""Dice statistics: expected distributions and Pearson's chi-square test, in pure Python."""

from __future__ import annotations

import math
from itertools import product


def expected(spec: str) -> dict[int, float]:
    """The probability of each result of a roll: faces of a die, sums of 2D6, D66 values."""
    if spec == "D66":
        return {t * 10 + u: 1 / 36 for t, u in product(range(1, 7), repeat=2)}
    count, _, sides = spec.partition("D")
    count, sides = int(count or 1), int(sides)
    outcomes: dict[int, float] = {}
    for faces in product(range(1, sides + 1), repeat=count):
        outcomes[sum(faces)] = outcomes.get(sum(faces), 0) + 1 / sides**count
    return outcomes


def value(spec: str, dice: list[int]) -> int:
    return dice[0] * 10 + dice[1] if spec == "D66" else sum(dice)


def chi_square(
    observed: dict[int, int], probabilities: dict[int, float]
) -> tuple[float, int, float]:
    """Pearson's statistic, degrees of freedom and p-value of observed counts."""
    total = sum(observed.values())
    if total == 0:
        return 0.0, 0, 1.0
    statistic = sum(
        (observed.get(k, 0) - total * p) ** 2 / (total * p) for k, p in probabilities.items()
    )
    dof = len(probabilities) - 1
    return statistic, dof, chi2_survival(statistic, dof)


def chi2_survival(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable: the regularised upper incomplete gamma Q(k/2, x/2)."""
    if dof <= 0:
        return 1.0
    if x <= 0:
        return 1.0
    a, z = dof / 2, x / 2
    if z < a + 1:  # series for the lower function
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= z / n
            total += term
        lower = total * math.exp(-z + a * math.log(z) - math.lgamma(a))
        return max(0.0, 1 - lower)
    # Lentz's continued fraction for the upper function.
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-z + a * math.log(z) - math.lgamma(a)) * h)
