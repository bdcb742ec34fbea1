"""Change points: where in a series of runs a node's metric moved to a new level, in which
configuration, with what else changed, and whether the node itself caused it.

1. **Series within configurations.** The runs are split by their configuration columns
   (``cctviz.ensemble.analysis.configs``: detected, or ``ens.configuration``); per configuration and
   node, the metric against the axis (``by``: the launch date by default), profiles sharing one
   value of the axis combined by their median, a gap taking the last value. A switch of
   configuration is never a change: no series crosses one. Columns named in ``across`` are not split
   on: each of their values is scaled to the level of the configuration's runs as a whole (per node,
   by its median), and the runs of all its values form one series.
2. **Tests and false discoveries** (``cctviz.ensemble.analysis.segments``): each (node,
   configuration) series is screened by its best split, changes are found by binary segmentation
   with a Bonferroni-corrected test, and Benjamini–Hochberg keeps those that pass at the false
   discovery rate ``fdr`` over every series screened. A change is reported when it passes and its
   level change (medians after ÷ before − 1) is at least ``min_change``.
3. **What else changed** (``environment``): the metadata columns whose values differ between the
   runs before and after the change, best separators first.

A change is the node's own (``cause = "exclusive"``) when its exclusive value moved by at least
half as much as the metric at the same point (a metric that is exclusive itself always is), else
``"inclusive only"``: the change happened in its descendants, and is attributed there."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from . import segments as sg
from . import series as se
from .environment import environment
from .grouping import Grouping, group
from .trend import check_axis

if TYPE_CHECKING:
    from ..ensemble import Ensemble

CHUNK = 256  # nodes screened at once (bounds the temporary arrays)
MATRIX_CELLS = 125_000_000  # nodes × runs held at once in this process (1 GB of float64)
COLUMNS = [
    "key", "path", "at", "profile", "before", "after", "change", "score", "cause", "config",
    "previous", "runs_before", "runs_after", "p", "q", "environment",
]  # fmt: skip


def configuration(ens: Ensemble, by: str, across: Sequence[str] = ()) -> list[str]:
    """The columns that split ``ens``' runs into series: ``ens.configuration`` when set, else the
    detected ones; never ``by`` or a column of ``across``."""
    from . import configs

    named = getattr(ens, "_configuration", None)
    columns = named if named is not None else configs.detect(ens.profiles, by)
    return [c for c in columns if c != by and c not in across]


def _matrix(ens: Ensemble, metric: str, grouping: Grouping, keys: np.ndarray | None = None) -> Any:
    node_keys = (
        ens.nodes.index.to_numpy(np.int64) if keys is None else np.asarray(sorted(keys), np.int64)
    )
    nodes = ("TRUE",) if keys is None else (f"key IN ({', '.join(map(str, node_keys))})",)
    raw = se.matrix(ens, metric, node_keys, grouping.axis, nodes)
    return node_keys, grouping.series(raw)


def regressions(
    ens: Ensemble,
    metric: str,
    by: str | None = None,
    min_change: float = 0.05,
    min_score: float = 0.0,
    fdr: float = 0.05,
    across: Sequence[str] = (),
) -> pd.DataFrame:
    metric = ens._metric(metric)
    if isinstance(fdr, bool) or not isinstance(fdr, (int, float)) or not 0 < fdr < 1:
        raise ValueError(f"fdr is a false discovery rate between 0 and 1 (e.g. 0.05); got {fdr!r}")
    profiles = ens.profiles
    by = check_axis(profiles, by)
    across = _check_across(profiles, across, by)
    grouping = group(profiles, by, configuration(ens, by, across), across)
    all_keys = np.sort(ens.nodes.index.to_numpy(np.int64))
    # the screening runs where the values are (a task per share of the nodes on a cluster);
    # in this process, shares keep the nodes × runs matrix under MATRIX_CELLS
    shares = max(1, -(-len(all_keys) * len(grouping.axis.values) // MATRIX_CELLS))
    task = partial(_screen, keys=all_keys, grouping=grouping, fdr=fdr)
    parts = ens._engine().per_keys(task, metric, ens._where, shares)
    keys = np.concatenate([p.keys for p in parts]) if parts else np.empty(0, np.int64)
    found: list[tuple[int, sg.Found, float, float]] = []
    hypotheses, offset = 0, 0
    for part in parts:
        hypotheses += part.hypotheses
        found += [(g, replace(f, row=f.row + offset), b, a) for g, f, b, a in part.found]
        offset += len(part.keys)
    if not found:
        return pd.DataFrame(columns=COLUMNS)
    passed, q = sg.benjamini_hochberg(np.asarray([f.p for _, f, *_ in found]), hypotheses, fdr)
    rows = []
    for (g, f, before, after), ok, qv in zip(found, passed, q, strict=True):
        change = after / before - 1 if before != 0 else np.inf
        if ok and abs(change) >= min_change and f.z >= min_score:
            rows.append((g, f, before, after, change, float(qv)))
    return _table(ens, metric, grouping, keys, rows)


@dataclass(frozen=True)
class Screened:
    """What screening one share of the nodes found: its node keys (rows of ``found``), the
    series screened (the false discovery rate's count) and each candidate change with its
    configuration and the medians of its runs before and after."""

    keys: np.ndarray
    hypotheses: int
    found: list[tuple[int, sg.Found, float, float]]


def _screen(
    batches: Iterator[Any], share: tuple[int, int], *, keys: np.ndarray, grouping: Grouping,
    fdr: float,
) -> Screened:  # fmt: skip
    """The change-point screening of the nodes of ``keys`` in ``share`` (an ``Engine.per_keys``
    task: on a Dask worker, over that worker's share of the values)."""
    here = keys[(keys >= share[0]) & (keys <= share[1])]
    filled = grouping.series(se.matrix_of(batches, here, grouping.axis))
    found: list[tuple[int, sg.Found, float, float]] = []
    hypotheses = 0
    for g, (lo, hi) in enumerate(grouping.bounds):
        if sg.splits(hi - lo) == 0:
            continue
        part = filled[:, lo:hi]
        hypotheses += int((~np.isnan(part).all(axis=1)).sum())  # each series screened
        got: list[sg.Found] = []
        for start in range(0, len(here), CHUNK):
            chunk = np.nan_to_num(part[start : start + CHUNK], nan=0.0)
            got += [
                sg.Found(start + f.row, f.start, f.at, f.end, f.z, f.p) for f in sg.find(chunk, fdr)
            ]
        hypotheses += len(got) - len({f.row for f in got})  # a series' second change and on
        for f in got:
            x = filled[f.row, lo:]
            before, after = float(np.median(x[f.start : f.at])), float(np.median(x[f.at : f.end]))
            found.append((g, f, before, after))
    return Screened(here, hypotheses, found)


def _check_across(profiles: pd.DataFrame, across: Sequence[str], by: str) -> list[str]:
    names = [across] if isinstance(across, str) else list(across)
    for name in names:
        if name == by or name not in profiles.columns:
            raise KeyError(
                f"across= takes metadata columns other than the axis {by!r}; got {name!r}; "
                f"columns: {', '.join(map(str, profiles.columns))}"
            )
    return names


def _table(
    ens: Ensemble, metric: str, grouping: Grouping, keys: np.ndarray, rows: list[Any]
) -> pd.DataFrame:
    if not rows:
        return pd.DataFrame(columns=COLUMNS)
    tree = ens.nodes
    causes = _causes(ens, metric, grouping, keys, rows)
    out = []
    for (g, f, before, after, change, q), cause in zip(rows, causes, strict=True):
        lo = grouping.bounds[g][0]
        start, at, end = lo + f.start, lo + f.at, lo + f.end
        key = int(keys[f.row])
        out.append(
            {
                "key": key,
                "path": tree.loc[key, "path"],
                "at": grouping.axis.values[at],
                "profile": grouping.axis.first[at],
                "before": before,
                "after": after,
                "change": change,
                "score": f.z,
                "cause": cause,
                "config": dict(grouping.configs[g]),
                "previous": grouping.last[at - 1],
                "runs_before": int(grouping.runs(start, at)),
                "runs_after": int(grouping.runs(at, end)),
                "p": f.p,
                "q": q,
                "environment": environment(grouping, (start, at, end)),
            }
        )
    table = pd.DataFrame(out, columns=COLUMNS)
    effect = (table["after"] - table["before"]).abs()
    return (
        table.assign(_e=effect)
        .sort_values("_e", ascending=False, kind="stable")
        .drop(columns="_e")
        .reset_index(drop=True)
    )


def _causes(
    ens: Ensemble, metric: str, grouping: Grouping, keys: np.ndarray, rows: list[Any]
) -> list[str]:
    """Per change: "exclusive" where the node's own value moved, "inclusive only" where only its
    subtree's did."""
    kinds = ens.metrics
    kind = kinds.loc[metric, "kind"] if metric in kinds.index else "other"
    partner = kinds.loc[metric, "partner"] if metric in kinds.index else None
    if kind != "inclusive":
        return ["exclusive" if kind == "exclusive" else "unknown"] * len(rows)
    if not isinstance(partner, str) or partner not in ens.metric_names:
        return ["unknown"] * len(rows)
    wanted = sorted({int(keys[f.row]) for _, f, *_ in rows})
    ekeys, emat = _matrix(ens, partner, grouping, np.asarray(wanted, np.int64))
    at_row = {int(k): r for r, k in enumerate(ekeys)}
    out = []
    for g, f, before, after, *_ in rows:
        r = at_row.get(int(keys[f.row]))
        if r is None:
            out.append("inclusive only")
            continue
        e = emat[r, grouping.bounds[g][0] :]
        de = np.nanmedian(e[f.at : f.end]) - np.nanmedian(e[f.start : f.at])
        out.append("exclusive" if abs(de) >= 0.5 * abs(after - before) else "inclusive only")
    return out
