"""The statistics of change points, on plain arrays (one row per node, one column per run of one
configuration): what ``regressions`` runs on each configuration's series, and what
``benchmarks/changes.py`` measures against other methods.

1. **Smoothing and noise.** Single-run outliers are taken out by a running median of three runs;
   the noise σ of each node is robust: 1.4826 × the median absolute difference of successive
   runs ÷ √2 (a change of level is one large difference among many, so it barely moves σ).
2. **The test of one split.** The difference of the smoothed means before and after a split, in
   standard errors: z = Δ / (σ √(c (1/n₁ + 1/n₂))), with c = 1.15 the variance of a mean of
   median-of-three smoothed Gaussian noise relative to the raw mean (measured by simulation,
   ``tests/test_ensemble_changes.py`` checks it): the screening and the search use it. A change
   found is then tested on the medians of the raw runs either side (variance π/2 σ²/n each: two
   outliers close together pass the smoothing, not a median). Each p-value is two-sided, from
   Student's t with
   the degrees of freedom σ's estimate is worth (the MAD's efficiency, 37 %, × the runs), and
   **Bonferroni-corrected over every split of the whole series** (each segment at least
   ``MIN_SEGMENT`` runs): the split is the best of many, and this accounts for the choice (also
   for a second change, searched for within a part the first one cut off).
3. **Binary segmentation.** The best split of a series is kept when its p-value is at most
   ``alpha``; each side is then searched again. Once no split is kept, each change is tested
   again between its neighbours, and the weakest that fails is dropped until all pass. (ruptures'
   ``Binseg`` stops on a penalty or a number of changes; this stopping rule is a test, so it is
   written here.)
4. **False discoveries.** Every (node, configuration) series screened is one hypothesis (p = 1
   when not even its best split passes ``alpha``), every change found one more; Benjamini–Hochberg
   keeps the changes whose p-values pass at the false discovery rate ``alpha`` over all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

MIN_SEGMENT = 5  # runs: a shorter bump (outliers in neighbouring runs) is no new level
SMOOTHED = 1.15  # variance of a mean of median-of-3 smoothed noise ÷ that of the raw mean
MEDIAN = (
    np.pi / 2
)  # variance of a median of Gaussian noise ÷ that of the mean (large n; less below)
MAD_EFFICIENCY = 0.37  # the degrees of freedom a MAD-based σ of n values is worth, per value


@dataclass(frozen=True)
class Found:
    """A change in row ``row`` at run ``at``: the new level starts there; its segment before is
    runs ``start``..``at`` − 1, its segment after ``at``..``end`` − 1."""

    row: int
    start: int
    at: int
    end: int
    z: float
    p: float


def filled(x: np.ndarray) -> np.ndarray:
    """Gaps take the last value before them (the first values, the first after)."""
    if not np.isnan(x).any():
        return x
    return np.asarray(pd.DataFrame(x).ffill(axis=1).bfill(axis=1).to_numpy(), np.float64)


def median3(x: np.ndarray) -> np.ndarray:
    """A running median of three runs (the first and last runs: of the three at that end)."""
    out: np.ndarray = np.array(x, np.float64)
    if x.shape[1] < 3:
        return out
    a, b, c = x[:, :-2], x[:, 1:-1], x[:, 2:]
    out[:, 1:-1] = np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))
    out[:, 0], out[:, -1] = out[:, 1], out[:, -2]
    return out


def noise(x: np.ndarray) -> np.ndarray:
    d = np.abs(np.diff(x, axis=1))
    sigma = 1.4826 * np.median(d, axis=1) / np.sqrt(2) if d.shape[1] else np.zeros(len(x))
    level = np.median(np.abs(x), axis=1)
    return np.asarray(np.maximum(sigma, 1e-9 * np.maximum(level, 1e-300)), np.float64)


def p_value(z: np.ndarray | float, splits: int, runs: int) -> np.ndarray:
    """The Bonferroni-corrected two-sided p-value of the best of ``splits`` splits scoring ``z``
    in a series of ``runs`` runs."""
    df = max(2.0, MAD_EFFICIENCY * (runs - 1))
    return np.asarray(np.minimum(1.0, max(splits, 1) * 2 * stats.t.sf(np.abs(z), df)), np.float64)


def best_split(s: np.ndarray, sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of smoothed series ``s``: the split (first run after it) with the largest |z|,
    and that z (0 where the series is too short to split)."""
    t = s.shape[1]
    k = np.arange(MIN_SEGMENT, t - MIN_SEGMENT + 1)
    if not len(k):
        return np.zeros(len(s), np.int64), np.zeros(len(s))
    c = np.cumsum(s, axis=1)
    left = c[:, k - 1] / k
    right = (c[:, -1:] - c[:, k - 1]) / (t - k)
    se = sigma[:, None] * np.sqrt(SMOOTHED * (1 / k + 1 / (t - k)))
    z = np.abs(right - left) / se
    at = np.argmax(z, axis=1)
    return k[at], z[np.arange(len(s)), at]


def splits(runs: int) -> int:
    return max(0, runs - 2 * MIN_SEGMENT + 1)


def screen(x: np.ndarray, alpha: float) -> np.ndarray:
    """The rows whose best split passes ``alpha`` (the candidates)."""
    t = x.shape[1]
    if splits(t) == 0:
        return np.zeros(0, np.int64)
    _, z = best_split(median3(x), noise(x))
    return np.flatnonzero(p_value(z, splits(t), t) <= alpha)


def _test(x: np.ndarray, sigma: float, lo: int, at: int, hi: int, runs: int) -> tuple[float, float]:
    """The test of a change found: the medians of the runs either side (robust to outliers that
    the smoothing leaves, such as two in runs i and i + 2), in standard errors of a median."""
    n1, n2 = at - lo, hi - at
    gap = abs(np.median(x[at:hi]) - np.median(x[lo:at]))
    z = gap / (sigma * np.sqrt(MEDIAN * (1 / n1 + 1 / n2)))
    return float(z), float(p_value(z, splits(runs), runs))


def segment(x: np.ndarray, alpha: float) -> list[tuple[int, int, int, float, float]]:
    """The changes of one series (binary segmentation, then each tested between its
    neighbours): (start, at, end, z, p) each."""
    s = median3(x[None, :])[0]
    sigma = float(noise(x[None, :])[0])
    t = len(x)
    cuts: list[int] = []
    todo = [(0, t)]
    while todo:
        lo, hi = todo.pop()
        if splits(hi - lo) == 0:
            continue
        at, z = best_split(s[None, lo:hi], np.asarray([sigma]))
        if p_value(z, splits(t), t)[0] <= alpha:
            cut = lo + int(at[0])
            cuts.append(cut)
            todo += [(lo, cut), (cut, hi)]
    cuts.sort()
    while True:
        bounds = [0, *cuts, t]
        tested = [
            (lo, at, hi, *_test(x, sigma, lo, at, hi, t))
            for lo, at, hi in zip(bounds[:-2], bounds[1:-1], bounds[2:], strict=True)
        ]
        worst = max(range(len(tested)), key=lambda j: tested[j][4], default=None)
        if worst is None or tested[worst][4] <= alpha:
            return tested
        del cuts[worst]


def find(x: np.ndarray, alpha: float, candidates: np.ndarray | None = None) -> list[Found]:
    """The changes of each row of ``x`` (filled: no gaps) before false-discovery control."""
    rows = screen(x, alpha) if candidates is None else candidates
    return [Found(int(r), *change) for r in rows for change in segment(x[r], alpha)]


def benjamini_hochberg(
    p: np.ndarray, hypotheses: int, alpha: float
) -> tuple[np.ndarray, np.ndarray]:
    """Which of the p-values ``p`` pass at false discovery rate ``alpha`` among ``hypotheses``
    tests in all (the others had p = 1), and their adjusted p-values (q)."""
    m = max(hypotheses, len(p))
    order = np.argsort(p, kind="stable")
    ranked = p[order] * m / np.arange(1, len(p) + 1)
    q_sorted = np.minimum(1.0, np.minimum.accumulate(ranked[::-1])[::-1])
    q = np.empty_like(q_sorted)
    q[order] = q_sorted
    return q <= alpha, q
