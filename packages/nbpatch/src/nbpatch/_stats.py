"""A one-sample Student t-test with the standard library only (scipy is not required)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

__all__ = ["betainc", "student_t_sf", "one_sample_t_test"]


def _beta_fraction(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz's method)."""
    tiny, eps = 1e-300, 3e-16
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                    -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < eps:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    front = math.exp(log_front)
    # The fraction converges fast only on one side of the mean; use the symmetry otherwise.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def student_t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def one_sample_t_test(samples: Sequence[float], mean: float) -> tuple[float, float]:
    """``(t, two-sided p)`` of the hypothesis that ``samples`` come from a mean of ``mean``.

    With zero spread the test degenerates: p is 1.0 when every sample equals ``mean`` and
    0.0 otherwise. Needs at least two samples.
    """
    if len(samples) < 2:
        raise ValueError("a t-test needs at least two samples")
    centre = statistics.fmean(samples)
    spread = statistics.stdev(samples)
    if spread == 0.0:
        same = math.isclose(centre, mean, rel_tol=1e-12, abs_tol=1e-12)
        return (0.0, 1.0) if same else (math.copysign(math.inf, centre - mean), 0.0)
    t = (centre - mean) / (spread / math.sqrt(len(samples)))
    return t, min(1.0, 2.0 * student_t_sf(abs(t), len(samples) - 1))
