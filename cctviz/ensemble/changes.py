"""Change points: where in a series of runs a node's metric moved to a new level, and whether the
node itself caused it. The method, in three steps:

1. **Series.** Per node, the metric against the axis (``by``: the launch date by default), the
   profiles sharing one value of the axis combined by their median; a gap takes the last value.
2. **Screening** (numpy, all nodes at once): single-run outliers are taken out by a running
   median of three runs; the noise σ of each node is robust (1.4826 × the median absolute
   difference of successive runs, ÷ √2); a node is a candidate when some split of its series into
   before and after differs by at least ``min_score`` standard errors. This keeps step 3 to the
   few nodes that moved, so 5,000 nodes × 10,000 runs take seconds.
3. **Detection** (``ruptures``' kernel change-point detection with a linear kernel, i.e. least
   squares on the σ-normalised series, minimum segment of five runs, a BIC-like penalty
   ``penalty × log(runs)``): the change points of each candidate. Each is kept when its level
   change (medians after ÷ before − 1) is at least ``min_change`` and its score (difference of
   the segment means in standard errors) at least ``min_score``.

A change is the node's own (``cause = "exclusive"``) when its exclusive value moved by at least
half as much as the metric at the same point (a metric that is exclusive itself always is), else
``"inclusive only"``: the change happened in its descendants, and is attributed there."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from . import reducers as red
from .trend import check_axis

CHUNK = 256  # nodes screened at once (bounds the temporary arrays)
MIN_SEGMENT = 5  # runs: a shorter bump (outliers in neighbouring runs) is no new level


def _series(
    ens: Any, metric: str, by: str, keys: list[int] | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Node keys, axis values, first profile at each axis value, and the matrix keys × axis.

    The values come out of DuckDB as three numeric columns (node row, axis position, value):
    the profile ids and axis values are mapped to positions in small tables first, so no text
    column of the ensemble's size is ever made."""
    duck = ens._shared.duck
    profiles = ens.profiles[[by]].dropna().sort_values(by, kind="stable")
    axis_values, position = np.unique(profiles[by].to_numpy(), return_inverse=True)
    # sorted by the axis: the first profile of each axis value is where its position first occurs
    first_profile = profiles.index.to_numpy()[np.unique(position, return_index=True)[1]]
    tree = ens.nodes
    node_keys = (
        tree.index.to_numpy(np.int64) if keys is None else np.asarray(sorted(keys), np.int64)
    )
    column = red.quote(metric)
    sql = (
        f"SELECT CAST(n.row AS INTEGER) AS row, CAST(a.idx AS INTEGER) AS idx, v.{column} AS value "
        f"FROM {duck._source('values')} v "
        "JOIN cctviz_axis a ON a.profile = v.profile JOIN cctviz_nodes n ON n.key = v.key "
        f"WHERE v.{column} IS NOT NULL"
    )
    got = duck.columns(
        sql,
        {
            "cctviz_axis": pd.DataFrame({"profile": profiles.index, "idx": position}),
            "cctviz_nodes": pd.DataFrame({"key": node_keys, "row": np.arange(len(node_keys))}),
        },
    )
    rows, cols = np.asarray(got.pop("row")), np.asarray(got.pop("idx"))  # int32: half the memory
    values = np.asarray(got.pop("value"), np.float64)
    matrix = np.full((len(node_keys), len(axis_values)), np.nan)
    if len(profiles) == len(axis_values):  # one profile per axis value: no duplicates
        matrix[rows, cols] = values
    else:  # profiles sharing an axis value: their median
        flat = rows.astype(np.int64) * len(axis_values) + cols
        med = pd.Series(values).groupby(flat).median()
        idx = med.index.to_numpy(np.int64)
        matrix[idx // len(axis_values), idx % len(axis_values)] = med.to_numpy()
    return node_keys, axis_values, first_profile, matrix


def _filled(x: np.ndarray) -> np.ndarray:
    """Gaps take the last value before them (the first values, the first after); a matrix
    without gaps (every node in every run, as in a nightly series) is used as it is."""
    if not np.isnan(x).any():
        return x
    return pd.DataFrame(x).ffill(axis=1).bfill(axis=1).to_numpy()


def _median3(x: np.ndarray) -> np.ndarray:
    """A running median of three runs (the first and last runs: of the three at that end): a
    single-run outlier disappears, also at the ends."""
    out = x.copy()
    if x.shape[1] < 3:
        return out
    a, b, c = x[:, :-2], x[:, 1:-1], x[:, 2:]
    out[:, 1:-1] = np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))
    out[:, 0], out[:, -1] = out[:, 1], out[:, -2]
    return out


def _noise(x: np.ndarray) -> np.ndarray:
    d = np.abs(np.diff(x, axis=1))
    sigma = 1.4826 * np.median(d, axis=1) / np.sqrt(2)
    level = np.median(np.abs(x), axis=1)
    return np.maximum(sigma, 1e-9 * np.maximum(level, 1e-300))


def _best_split(s: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """Per row, the largest difference of the means before and after a split, in standard errors."""
    t = s.shape[1]
    c = np.cumsum(s, axis=1)
    k = np.arange(MIN_SEGMENT, t - MIN_SEGMENT + 1)
    if not len(k):
        return np.zeros(s.shape[0])
    left = c[:, k - 1] / k
    right = (c[:, -1:] - c[:, k - 1]) / (t - k)
    se = sigma[:, None] * np.sqrt(1 / k + 1 / (t - k))
    return np.max(np.abs(right - left) / se, axis=1)


def regressions(
    ens: Any,
    metric: str,
    by: str | None = None,
    min_change: float = 0.05,
    min_score: float = 6.0,
    penalty: float = 10.0,
) -> pd.DataFrame:
    import ruptures as rpt

    metric = ens._metric(metric)
    by = check_axis(ens.profiles, by)
    keys, axis, first, raw = _series(ens, metric, by)
    columns = ["key", "path", "at", "profile", "before", "after", "change", "score", "cause"]
    if raw.shape[1] < 2 * MIN_SEGMENT:
        return pd.DataFrame(columns=columns)
    filled = _filled(raw)
    candidates: list[int] = []
    for lo in range(0, len(keys), CHUNK):
        part = filled[lo : lo + CHUNK]
        smooth = _median3(part)
        score = _best_split(smooth, _noise(part))
        candidates += (lo + np.flatnonzero(score >= min_score)).tolist()
    found = []
    for i in candidates:
        x = filled[i]
        s = _median3(x[None, :])[0]
        sigma = float(_noise(x[None, :])[0])
        algo = rpt.KernelCPD(kernel="linear", min_size=MIN_SEGMENT).fit((s - s.mean()) / sigma)
        ends = algo.predict(pen=penalty * np.log(len(s)))
        starts = [0, *ends[:-1]]
        for j in range(1, len(ends)):
            b0, b, b1 = starts[j - 1], starts[j], ends[j]
            before, after = float(np.median(x[b0:b])), float(np.median(x[b:b1]))
            change = after / before - 1 if before != 0 else np.inf
            score = abs(s[b:b1].mean() - s[b0:b].mean()) / (
                sigma * np.sqrt(1 / (b - b0) + 1 / (b1 - b))
            )
            if abs(change) >= min_change and score >= min_score:
                found.append((i, b, b0, b1, before, after, change, score))
    tree = ens.nodes
    causes = _causes(ens, metric, by, keys, axis, found)
    rows = [
        (
            int(keys[i]),
            tree.loc[int(keys[i]), "path"],
            axis[b],
            first[b],
            before,
            after,
            change,
            score,
            cause,
        )
        for (i, b, _b0, _b1, before, after, change, score), cause in zip(found, causes, strict=True)
    ]
    out = pd.DataFrame(rows, columns=columns)
    effect = (out["after"] - out["before"]).abs()
    return (
        out.assign(_e=effect)
        .sort_values("_e", ascending=False)
        .drop(columns="_e")
        .reset_index(drop=True)
    )


def _causes(
    ens: Any, metric: str, by: str, keys: np.ndarray, axis: np.ndarray, found: list[tuple[Any, ...]]
) -> list[str]:
    """Per change: "exclusive" where the node's own value moved, "inclusive only" where only its
    subtree's did."""
    kinds = ens.metrics
    kind = kinds.loc[metric, "kind"] if metric in kinds.index else "other"
    partner = kinds.loc[metric, "partner"] if metric in kinds.index else None
    if kind != "inclusive":
        return ["exclusive" if kind == "exclusive" else "unknown"] * len(found)
    if not isinstance(partner, str) or partner not in ens._shared.duck.value_columns():
        return ["unknown"] * len(found)
    wanted = sorted({int(keys[f[0]]) for f in found})
    if not wanted:
        return []
    ekeys, eaxis, _, emat = _series(ens, partner, by, wanted)
    row = {int(k): r for r, k in enumerate(ekeys)}
    col = np.searchsorted(eaxis, axis)
    out = []
    for i, b, b0, b1, before, after, *_ in found:
        r = row.get(int(keys[i]))
        if r is None:
            out.append("inclusive only")
            continue
        e = emat[r, np.clip(col, 0, len(eaxis) - 1)]
        de = np.nanmedian(e[b:b1]) - np.nanmedian(e[b0:b])
        out.append("exclusive" if abs(de) >= 0.5 * abs(after - before) else "inclusive only")
    return out
