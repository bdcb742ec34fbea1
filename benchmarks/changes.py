"""Change-point detection against baselines on the same synthetic series with known truth (issue
54, point 3): recall, precision, false discovery rate, unchanged rows flagged and seconds.

The series: ``--rows`` rows × ``--runs`` runs of lognormal noise (σ = 5 %) around a level of its
own per row, 0.5 % of the values tripled (single-run outliers), and 10 % of the rows with one level
change of 10–50 % (either sign) at a run drawn in [30, ``--runs`` − 30]. A change is found when a
method reports one on its row within ±1 run of the truth (each truth counts once); every other
report is false. Precision = true reports ÷ all reports; FDR = 1 − precision.

Methods, each given a matrix (rows × runs) and reporting (row, first run of the new level):

- **cctviz** (``cctviz.ensemble.analysis.segments``, as ``ens.regressions`` runs it): screening,
  binary segmentation with a Bonferroni-corrected robust test, Benjamini–Hochberg at ``fdr`` = 0.05
  over every row screened plus every second change of a row, then a level change ≥ 5 %.
- **t-test threshold**: the best split of a row by Welch's t (segments ≥ 5 runs), reported when
  |t| > 5, then both sides again (binary segmentation); no multiplicity control.
- **ruptures PELT**: the l2 cost on the row ÷ a robust σ (1.4826 × MAD of the differences ÷ √2),
  penalty 2 log(n) (BIC-like for a change of mean), segments ≥ 5 runs. ``ruptures.Pelt(model="l2")``
  is pure Python (~0.4 s a series of 200 runs); ``ruptures.KernelCPD(kernel="linear")`` is the
  same PELT on the same cost in C, and is what is timed (the script checks they agree).
- **E-Divisive means** (Matteson & James 2014, as Apache Otava's ``compute_change_points_orig``
  runs it): the energy statistic q̂ (α = 1) maximised over the split τ and the end κ of the part
  after it, in every current segment; significance by a permutation test (``--permutations`` =
  100, values shuffled within each segment, p = (1 + #{q̂* ≥ q̂}) ÷ (R + 1) ≤ 0.05), then
  again on the segments it leaves. Written here from the paper (no package in the venv); segments
  ≥ 5 runs (ecp's ``min.size``; Otava's has none). It costs O(n²) per permutation, so it runs on the
  first ``--edivisive-rows`` rows of each seed only (the table says how many).
- **Otava default** (Fleming et al. 2023, "Hunter", ``otava.analysis.compute_change_points``):
  E-Divisive candidates in sliding windows of 50 runs (step 25) kept by Student's t-test at
  p ≤ 0.01 (the "weak" change points), then merged over the whole series: the weakest removed until
  every change passes p ≤ 0.001. Written here from Otava's description and defaults; as there,
  a segment may be one run long (so a single-run outlier can be a segment of its own).

A second scenario (``--configs``: k = 2, 3, 4 for seeds 0, 1, 2, …, in turn; none skips it):
each run belongs at random to one of k interleaved configurations at
levels 10–50 % apart; the change (10–50 %) is in one configuration only, from a run on. The methods
get the mixed series (what cctviz did before issue 54), and cctviz also the series split by
configuration (what ``ens.regressions`` does now, one BH over every series). "±1 run" counts runs
of the changed configuration.

``--store`` adds one row timing the whole path through a store: ``cctviz.examples.ensemble``
(the same noise, outliers and changes, one configuration) then ``ens.regressions("time")``.

    .venv/bin/python benchmarks/changes.py                  # 1,000 × 200, 5 seeds (~2–3 min)
    .venv/bin/python benchmarks/changes.py --quick          # 300 × 200, 2 seeds
    .venv/bin/python benchmarks/changes.py --store          # and the full store path
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import pairwise
from pathlib import Path

import numpy as np
import ruptures as rpt
from scipy import special

from cctviz.ensemble.analysis import segments as sg

NOISE = 0.05  # lognormal σ
OUTLIERS = 0.005  # share of values tripled
CHANGED = 0.10  # share of rows with one change
MIN_SIZE = 5  # runs, every method's shortest segment
FDR = 0.05
MIN_CHANGE = 0.05  # ens.regressions' default
T_THRESHOLD = 5.0

Reports = list[tuple[int, int]]  # (row, first run of the new level)


@dataclass
class Series:
    """One seed's matrix and its truth: ``truth[row]`` is the changed run or −1; ``config`` each
    run's configuration (all 0 in the first scenario)."""

    x: np.ndarray
    truth: np.ndarray
    config: np.ndarray
    factor: np.ndarray = field(default_factory=lambda: np.zeros(0))
    changed_config: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))


def series(rows: int, runs: int, seed: int, configs: int = 1) -> Series:
    rng = np.random.default_rng(seed)
    level = rng.lognormal(0.0, 1.5, rows)
    config = rng.integers(configs, size=runs) if configs > 1 else np.zeros(runs, np.int64)
    if configs > 1:  # levels 10–50 % apart from one configuration to the next
        steps = np.concatenate([[1.0], 1 + rng.uniform(0.1, 0.5, configs - 1)])
        config_level = rng.permutation(np.cumprod(steps))
    else:
        config_level = np.ones(1)
    x = level[:, None] * config_level[config][None, :] * rng.lognormal(0, NOISE, (rows, runs))
    x[rng.random(x.shape) < OUTLIERS] *= 3.0
    truth = np.full(rows, -1, np.int64)
    changed = rng.choice(rows, round(CHANGED * rows), replace=False)
    factor = np.ones(rows)
    changed_config = np.zeros(rows, np.int64)
    for r in changed:
        at = int(rng.integers(30, runs - 30 + 1))
        f = 1 + rng.choice([-1, 1]) * rng.uniform(0.1, 0.5)
        c = int(rng.integers(configs))
        runs_changed = np.flatnonzero((np.arange(runs) >= at) & (config == c))
        x[r, runs_changed] *= f
        truth[r], factor[r], changed_config[r] = runs_changed[0], f, c
    return Series(x, truth, config, factor, changed_config)


# ---- cctviz -------------------------------------------------------------------------------------


def cctviz_changes(x: np.ndarray) -> Reports:
    """``ens.regressions``' pipeline on one configuration's matrix."""
    return [(f.row, f.at) for f in _cctviz_passed([x])[0]]


def _cctviz_passed(parts: list[np.ndarray]) -> list[list[sg.Found]]:
    """The changes that pass, per part (configuration), with one BH over all parts' hypotheses."""
    found: list[tuple[int, sg.Found]] = []
    hypotheses = 0
    for g, part in enumerate(parts):
        if sg.splits(part.shape[1]) == 0:
            continue
        hypotheses += len(part)
        here = sg.find(part, FDR)
        hypotheses += len(here) - len({f.row for f in here})
        found += [(g, f) for f in here]
    out: list[list[sg.Found]] = [[] for _ in parts]
    if not found:
        return out
    passed, _ = sg.benjamini_hochberg(np.asarray([f.p for _, f in found]), hypotheses, FDR)
    for (g, f), ok in zip(found, passed, strict=True):
        row = parts[g][f.row]
        before, after = np.median(row[f.start : f.at]), np.median(row[f.at : f.end])
        if ok and abs(after / before - 1) >= MIN_CHANGE:
            out[g].append(f)
    return out


def cctviz_split(x: np.ndarray, config: np.ndarray) -> Reports:
    """cctviz on each configuration's own series (runs mapped back to the mixed series)."""
    index = [np.flatnonzero(config == c) for c in np.unique(config)]
    passed = _cctviz_passed([x[:, i] for i in index])
    return [(f.row, int(index[g][f.at])) for g, fs in enumerate(passed) for f in fs]


# ---- t-test threshold ---------------------------------------------------------------------------


def _welch_best(s: np.ndarray) -> tuple[int, float]:
    """The split of ``s`` (first run after it) with the largest |Welch t|, and that |t|."""
    n = len(s)
    k = np.arange(MIN_SIZE, n - MIN_SIZE + 1)
    c1, c2 = np.cumsum(s), np.cumsum(s * s)
    n1, n2 = k, n - k
    m1, m2 = c1[k - 1] / n1, (c1[-1] - c1[k - 1]) / n2
    v1 = (c2[k - 1] - n1 * m1**2) / (n1 - 1)
    v2 = (c2[-1] - c2[k - 1] - n2 * m2**2) / (n2 - 1)
    t = np.abs(m2 - m1) / np.sqrt(np.maximum(v1 / n1 + v2 / n2, 1e-300))
    best = int(np.argmax(t))
    return int(k[best]), float(t[best])


def ttest_changes(x: np.ndarray) -> Reports:
    out: Reports = []
    for r, row in enumerate(x):
        todo = [(0, len(row))]
        while todo:
            lo, hi = todo.pop()
            if hi - lo < 2 * MIN_SIZE:
                continue
            at, t = _welch_best(row[lo:hi])
            if t > T_THRESHOLD:
                out.append((r, lo + at))
                todo += [(lo, lo + at), (lo + at, hi)]
    return out


# ---- ruptures PELT ------------------------------------------------------------------------------


def _robust_scaled(row: np.ndarray) -> np.ndarray:
    d = np.diff(row)
    sigma = 1.4826 * np.median(np.abs(d - np.median(d))) / np.sqrt(2)
    return (row / max(sigma, 1e-12))[:, None]


def pelt_changes(x: np.ndarray, python: bool = False) -> Reports:
    pen = 2 * np.log(x.shape[1])
    out: Reports = []
    for r, row in enumerate(x):
        if python:
            algo = rpt.Pelt(model="l2", min_size=MIN_SIZE, jump=1)
        else:
            algo = rpt.KernelCPD(kernel="linear", min_size=MIN_SIZE)
        out += [(r, int(b)) for b in algo.fit(_robust_scaled(row)).predict(pen=pen)[:-1]]
    return out


# ---- E-Divisive means ---------------------------------------------------------------------------


def _prefix(z: np.ndarray) -> np.ndarray:
    """``S[..., p, q]`` = Σ_{i<p, j<q, i<j} |z_i − z_j| for series ``z`` (last axis), float32."""
    n = z.shape[-1]
    z = z.astype(np.float32)
    d = np.subtract(z[..., :, None], z[..., None, :])
    np.abs(d, out=d)
    d *= _upper(n)
    s = np.zeros((*z.shape[:-1], n + 1, n + 1), np.float32)
    np.cumsum(d, axis=-2, out=d)
    np.cumsum(d, axis=-1, out=s[..., 1:, 1:])
    return s


@cache
def _upper(n: int) -> np.ndarray:
    return np.triu(np.ones((n, n), np.float32), 1)


@lru_cache(maxsize=4096)
def _weights(lo: int, hi: int, min_size: int) -> tuple[np.ndarray, ...]:
    """The τ and κ of segment [lo, hi) and the coefficients that make q̂(τ, κ) of prefix sums:
    with n₁ = τ − lo, n₂ = κ − τ, w = n₁n₂ ÷ (n₁ + n₂), q̂ = w (2 cross ÷ n₁n₂ − within_x ÷ C(n₁, 2)
    − within_y ÷ C(n₂, 2)), cross, within_x and within_y sums of |z_i − z_j| read off S."""
    taus = np.arange(lo + min_size, hi - min_size + 1)
    kappas = np.arange(lo + 2 * min_size, hi + 1)
    t, k = taus[:, None].astype(float), kappas[None, :].astype(float)
    n1, n2 = t - lo, k - t
    ok = n2 >= min_size
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(ok, n1 * n2 / (n1 + n2), 0.0)
        a = np.where(ok, w * 2 / (n1 * n2), 0.0)
        b = np.where(ok & (n1 > 1), w * 2 / (n1 * (n1 - 1)), 0.0)
        g = np.where(ok & (n2 > 1), w * 2 / (n2 * (n2 - 1)), 0.0)
    out = [a + g, a + b, a, g, np.where(ok, 0.0, -np.inf)]
    return taus, kappas, *(v.astype(np.float32) for v in out)


def _q_best(s: np.ndarray, lo: int, hi: int, min_size: int) -> tuple[np.ndarray, np.ndarray]:
    """The largest q̂(τ, κ) (α = 1) in segment [lo, hi) over lo + m ≤ τ, τ + m ≤ κ ≤ hi, from
    prefix sums ``s`` (leading axes kept): its τ and its value (−inf where nothing fits)."""
    lead = s.shape[:-2]
    if hi - lo < 2 * min_size:
        return np.zeros(lead, np.int64), np.full(lead, -np.inf)
    taus, kappas, ag, ab, a, g, invalid = _weights(lo, hi, min_size)
    block = s[..., taus[0] : taus[-1] + 1, kappas[0] : kappas[-1] + 1]
    diag = np.diagonal(s, axis1=-2, axis2=-1)
    left = (diag[..., taus] - s[..., lo, taus])[..., :, None]  # within_x, per τ
    q = ag * block - ab * left - a * s[..., lo, kappas][..., None, :]
    q -= g * diag[..., kappas][..., None, :]
    q += invalid
    flat = q.reshape(*lead, -1)
    best = flat.argmax(-1)
    value = np.take_along_axis(flat, best[..., None], -1)[..., 0]
    return taus[best // len(kappas)], value


def _best_over(s: np.ndarray, bounds: list[int], min_size: int) -> tuple[np.ndarray, np.ndarray]:
    """The best candidate over every segment of ``bounds``."""
    at = value = None
    for lo, hi in pairwise(bounds):
        a, v = _q_best(s, lo, hi, min_size)
        if value is None:
            at, value = a, v
        else:
            better = v > value
            at, value = np.where(better, a, at), np.where(better, v, value)
    assert at is not None and value is not None
    return at, value


def edivisive_row(
    z: np.ndarray, rng: np.random.Generator, permutations: int, alpha: float = 0.05
) -> list[int]:
    """E-Divisive on one series: the best candidate over every current segment, kept while the
    permutation test passes. Permutations run one at a time (one series' arrays stay in cache,
    2–4× faster than a batch) and stop once the test can no longer pass."""
    n = len(z)
    s = _prefix(z)
    cuts: list[int] = []
    allowed = int(np.floor(alpha * (permutations + 1))) - 1  # exceedances a pass allows
    while True:
        bounds = [0, *sorted(cuts), n]
        at, q = _best_over(s, bounds, MIN_SIZE)
        if not np.isfinite(q):
            return sorted(cuts)
        segment_id = np.searchsorted(np.asarray(bounds[1:]), np.arange(n), side="right")
        over = 0
        for _ in range(permutations):
            order = np.argsort(rng.random(n) + 2 * segment_id)  # shuffled within segments
            _, q_perm = _best_over(_prefix(z[order]), bounds, MIN_SIZE)
            over += int(q_perm >= q)
            if over > allowed:  # p = (1 + over) / (R + 1) > alpha
                return sorted(cuts)
        cuts.append(int(at))


def edivisive_changes(x: np.ndarray, permutations: int, seed: int = 0) -> Reports:
    rng = np.random.default_rng(seed)
    return [(r, at) for r, row in enumerate(x) for at in edivisive_row(row, rng, permutations)]


# ---- Otava's default (Hunter) -------------------------------------------------------------------


def _student_p(left: np.ndarray, right: np.ndarray) -> float:
    """Otava's test: scipy's ``ttest_ind_from_stats`` (equal variances, two-sided) on the means
    and ``np.std`` (ddof 0) of both sides, written out (the same numbers, 50× faster)."""
    n1, n2 = len(left), len(right)
    df = n1 + n2 - 2
    if df <= 0:
        return 1.0
    pooled = (n1 - 1) * left.var() + (n2 - 1) * right.var()
    se = np.sqrt(pooled / df * (1 / n1 + 1 / n2))
    if not se > 0:
        return 1.0
    return float(2 * special.stdtr(df, -abs(left.mean() - right.mean()) / se))


def _window_points(w: np.ndarray, max_p: float) -> list[int]:
    s = _prefix(w)
    cuts: list[int] = []
    while True:
        bounds = [0, *cuts, len(w)]
        candidates = [
            (float(v), int(a), lo, hi)
            for lo, hi in pairwise(bounds)
            if hi - lo > 1
            for a, v in [_q_best(s, lo, hi, 1)]
        ]
        if not candidates:
            return cuts
        _, at, lo, hi = max(candidates)
        if _student_p(w[lo:at], w[at:hi]) > max_p:
            return cuts
        cuts = sorted([*cuts, at])


def otava_row(z: np.ndarray, window: int = 50, max_p: float = 0.001) -> list[int]:
    first_pass = max_p * 10
    n, start, step = len(z), 0, window // 2
    weak: list[int] = []
    while start < n:
        end = min(start + window, n)
        new = [start + c for c in _window_points(z[start:end], first_pass)]
        start = max(new[-1] if new else 0, start + step)
        weak += [c for c in new if c not in weak]
    cps = sorted(weak)

    def p_of(j: int) -> float:
        bounds = [0, *cps, n]
        return _student_p(z[bounds[j] : bounds[j + 1]], z[bounds[j + 1] : bounds[j + 2]])

    ps = [p_of(j) for j in range(len(cps))]
    while cps:  # merge: min_magnitude 0, so only the p-values decide
        j = int(np.argmax(ps))
        if ps[j] < max_p:
            return cps
        del cps[j], ps[j]
        for k in (j - 1, j):  # both neighbours' sides grew (Otava recomputes j and j + 1)
            if 0 <= k < len(cps):
                ps[k] = p_of(k)
    return cps


def otava_changes(x: np.ndarray) -> Reports:
    return [(r, at) for r, row in enumerate(x) for at in otava_row(row)]


# ---- scoring ------------------------------------------------------------------------------------


@dataclass
class Score:
    found: int = 0
    changes: int = 0
    reported: int = 0
    true: int = 0
    unchanged: int = 0
    unchanged_flagged: int = 0
    seconds: float = 0.0
    rows: int = 0
    seeds: int = 0

    def add(self, data: Series, reports: Reports, seconds: float, rows: int) -> None:
        truth = data.truth[:rows]
        local = _local_positions(data)
        matched: set[int] = set()
        flagged = np.zeros(rows, bool)
        for r, at in reports:
            flagged[r] = True
            t = truth[r]
            if t >= 0 and r not in matched and abs(local(r, at) - local(r, int(t))) <= 1:
                matched.add(r)
        self.changes += int((truth >= 0).sum())
        self.found += len(matched)
        self.reported += len(reports)
        self.true += len(matched)
        self.unchanged += int((truth < 0).sum())
        self.unchanged_flagged += int((flagged & (truth < 0)).sum())
        self.seconds += seconds
        self.rows += rows
        self.seeds += 1

    def line(self, name: str) -> str:
        recall = self.found / max(self.changes, 1)
        precision = self.true / self.reported if self.reported else float("nan")
        fdr = 1 - precision if self.reported else float("nan")
        flagged = self.unchanged_flagged / max(self.unchanged, 1)
        return (
            f"| {name} | {100 * recall:.1f} % | {100 * precision:.1f} % | {100 * fdr:.1f} % "
            f"| {100 * flagged:.2f} % | {self.seconds:.2f} | {self.rows // max(self.seeds, 1):,} |"
        )


def _local_positions(data: Series) -> Callable[[int, int], int]:
    """Run → its position among the changed configuration's runs of that row (a run of another
    configuration: the number of that configuration's runs before it)."""
    positions = {c: np.flatnonzero(data.config == c) for c in np.unique(data.config)}

    def local(row: int, run: int) -> int:
        runs = positions[int(data.changed_config[row])] if len(data.changed_config) else None
        return run if runs is None else int(np.searchsorted(runs, run))

    return local


def timed(run: Callable[[], Reports]) -> tuple[Reports, float]:
    start = time.perf_counter()
    out = run()
    return out, time.perf_counter() - start


HEADER = (
    "| method | recall | precision | FDR | unchanged flagged | seconds | rows per seed |\n"
    "|---|---:|---:|---:|---:|---:|---:|"
)


def scenario(args: argparse.Namespace, configs: list[int]) -> list[str]:
    """The table's lines; seed s has ``configs[s % len(configs)]`` configurations."""
    methods: dict[str, Callable[[Series], tuple[Reports, float, int]]] = {}
    ed_rows = min(args.edivisive_rows, args.rows)

    def on(rows: int, run: Callable[[np.ndarray], Reports]) -> Callable:  # type: ignore[type-arg]
        return lambda d: (*timed(lambda: run(d.x[:rows])), rows)

    mixed = " (mixed series)" if max(configs) > 1 else ""
    methods[f"cctviz (BH, fdr 0.05){mixed}"] = on(args.rows, cctviz_changes)
    if max(configs) > 1:
        methods["cctviz split by configuration"] = lambda d: (
            *timed(lambda: cctviz_split(d.x, d.config)),
            args.rows,
        )
    methods[f"t-test threshold (Welch, abs t > 5){mixed}"] = on(args.rows, ttest_changes)
    methods[f"ruptures PELT (l2, pen 2 log n){mixed}"] = on(args.rows, pelt_changes)
    methods[f"Otava default (Hunter: windows 50, t-test p ≤ 0.001){mixed}"] = on(
        args.rows, otava_changes
    )
    methods[f"E-Divisive means (permutations {args.permutations}, p ≤ 0.05){mixed}"] = on(
        ed_rows, lambda x: edivisive_changes(x, args.permutations)
    )
    scores = {name: Score() for name in methods}
    for seed in range(args.seeds):
        data = series(args.rows, args.runs, seed, configs[seed % len(configs)])
        for name, method in methods.items():
            reports, seconds, rows = method(data)
            scores[name].add(data, reports, seconds, rows)
    return [score.line(name) for name, score in scores.items()]


def pelt_agreement(rows: int, runs: int) -> str:
    data = series(rows, runs, 99)
    fast = pelt_changes(data.x)
    slow, seconds = timed(lambda: pelt_changes(data.x, python=True))
    same = sum(
        sorted(a for r2, a in fast if r2 == r) == sorted(a for r2, a in slow if r2 == r)
        for r in range(rows)
    )
    return (
        f"ruptures.Pelt(model='l2') and KernelCPD(kernel='linear') agree on {same} of {rows} "
        f"rows (seed 99; Pelt took {seconds / rows:.2f} s a row)"
    )


def store_path(args: argparse.Namespace) -> str:
    """The whole path: write a store (``cctviz.examples.ensemble``) and run ``ens.regressions``."""
    import cctviz
    from cctviz.ensemble.synthetic import Change

    score, write = Score(), 0.0
    for seed in range(args.seeds):
        data = series(args.rows, args.runs, seed)
        rows = np.flatnonzero(data.truth >= 0)
        changes = [Change(int(r), int(data.truth[r]), float(data.factor[r])) for r in rows]
        with tempfile.TemporaryDirectory() as work:
            start = time.perf_counter()
            ens = cctviz.examples.ensemble(
                Path(work) / "s.cctviz", args.runs, args.rows, seed=seed, changes=changes,
                noise=NOISE, outliers=OUTLIERS, job_sizes=(64,), problem_sizes=(30,),
                compilers=("gcc-12",),
            )  # fmt: skip
            write += time.perf_counter() - start
            table, seconds = timed(lambda ens=ens: ens.regressions("time"))
            node = {k: i for i, k in enumerate(_node_keys(seed, args.rows))}
            run = table["profile"].str.rsplit("-", n=1).str[-1].astype(int)
            reports = [(node[int(k)], int(a)) for k, a in zip(table["key"], run, strict=True)]
            score.add(data, reports, seconds, args.rows)
    return score.line(f"cctviz via a store: ens.regressions (writing it: {write:.1f} s more)")


def _node_keys(seed: int, n: int) -> list[int]:
    """The keys ``synthetic.ensemble`` gives its nodes 0 … n − 1 (made again the same way)."""
    from cctviz.ensemble.store.keys import ROOT, frame_text, key_of
    from cctviz.ensemble.synthetic import _tree

    parent, names = _tree(n, np.random.default_rng(seed))
    keys: list[int] = []
    for i in range(n):
        frame = frame_text({"name": names[i], "type": "function"})
        keys.append(int(key_of(keys[parent[i]] if parent[i] >= 0 else ROOT, frame, 0)))
    return keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--edivisive-rows", type=int, default=200, help="rows per seed")
    parser.add_argument("--permutations", type=int, default=100)
    parser.add_argument(
        "--configs", type=int, nargs="*", default=[2, 3, 4], help="per seed, in turn; none: skip"
    )
    parser.add_argument("--store", action="store_true", help="also time the path via a store")
    parser.add_argument("--quick", action="store_true", help="300 rows, 2 seeds, 100 E-Divisive")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.seeds, args.edivisive_rows = 300, 2, 100
    start = time.perf_counter()
    print(
        f"{args.rows:,} rows × {args.runs} runs, {args.seeds} seeds; noise {NOISE:.0%}, "
        f"outliers {OUTLIERS:.1%} (×3), {CHANGED:.0%} of rows with one change of 10–50 %\n"
    )
    print("### one configuration\n")
    print(HEADER)
    for line in scenario(args, [1]):
        print(line)
    if args.store:
        print(store_path(args))
    if args.configs:
        counts = ", ".join(
            f"seed {s}: {args.configs[s % len(args.configs)]}" for s in range(args.seeds)
        )
        print(f"\n### interleaved configurations ({counts}), levels 10–50 % apart\n")
        print(HEADER)
        for line in scenario(args, args.configs):
            print(line)
    if not args.quick:
        print("\n" + pelt_agreement(10, args.runs))
    total = time.perf_counter() - start
    print(f"\n(seconds: summed over the seeds; the whole script: {total:.0f} s)")


if __name__ == "__main__":
    main()
