"""Words as well as pictures: a Markdown summary of what a view shows — what colour and size
are, the hot path, the nodes that cost most themselves, the most imbalanced nodes (over ranks,
threads or profiles), the changes found along an ensemble's runs, what is selected — for
notebooks, reports and tools that read text. Shares follow the one rule of ``payload.share_base``; a
metric whose share means nothing is given as a value only. What the view greys out as too small to
judge (``judge_below``, cctviz.core.judge) is never among the top nodes or the top imbalances.
Values print with their metric's unit and an SI prefix (``units``, the view's ``w.units``;
``cctviz.core.units.format_value``): ``345 µs``, ``12.3k samples``; a metric without one as a
number with a prefix (``12.3k``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.derive import RULE
from ..core.judge import small_shares, too_small
from ..core.markdown import text
from ..core.table import Metric, NodeTable
from ..core.units import UnitError, column_texts, format_value
from .payload import share_base

HOT_PATH_SHARE = 0.05  # the hot path stops where the next node holds less than this share
TOP = 5


def unit_of(metric: Metric, units: Mapping[str, str] | None) -> str | None:
    """The unit of ``metric``'s values as the view prints them: its unit in ``units``, none for
    a ratio the reducer made (the imbalance or std ÷ mean of a metric has no unit, whatever the
    metric's is: the front end's ``metricUnit``); a derived metric's is its own (``w.derive``)."""
    if metric.kind == "ratio" and metric.rule != RULE:
        return None
    return (units or {}).get(metric.name)


def _valued(v: float, unit: str | None) -> str:
    """``v`` with its unit and an SI prefix (``345 µs``; no unit: ``12.3k``)."""
    if not np.isfinite(v):
        return "—"
    try:
        return format_value(float(v), unit)
    except UnitError:  # a unit given as text the grammar refuses: the number alone
        return format_value(float(v))


def _share(table: NodeTable, metric: Metric, i: int) -> str:
    base = share_base(table, metric)
    if base is None:
        return ""
    values = table.metrics[base].values
    roots = values[table.roots]
    total = float(roots[np.isfinite(roots) & (roots > 0)].sum())
    v = float(metric.values[i])
    return f" ({v / total:.1%} of total)" if total > 0 and np.isfinite(v) else ""


def _children(table: NodeTable) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for i, p in enumerate(table.parent.tolist()):
        out.setdefault(p, []).append(i)
    return out


def _named(table: NodeTable, i: int) -> str:
    """A node's name, with its caller's where the name alone is not unique in the tree."""
    name = text(table.name(i))
    p = int(table.parent[i])
    if p < 0 or int(np.count_nonzero(table.name_code == table.name_code[i])) == 1:
        return name
    return f"{name} (in {text(table.name(p))})"


def _steps(table: NodeTable, size: Metric, path: list[int], unit: str | None = None) -> str:
    """The hot path's steps; a run of steps holding the same value is shortened to its first and
    last names and how many levels it spans (one value, said once)."""
    runs: list[list[int]] = []
    for i in path:
        if runs and size.values[i] == size.values[runs[-1][-1]]:
            runs[-1].append(i)
        else:
            runs.append([i])
    parts = []
    for run in runs:
        names = [text(table.name(i)) for i in run]
        if len(run) > 3:
            names = [names[0], f"… ({len(run) - 2} levels) …", names[-1]]
        last = run[-1]
        value = _valued(size.values[last], unit)
        parts.append(f"{' → '.join(names)} {value}{_share(table, size, last)}")
    return " → ".join(parts)


def hot_path(table: NodeTable, size: Metric) -> list[int]:
    """From the largest root, the child with the largest ``size`` each step, while it holds at
    least HOT_PATH_SHARE of the root's value."""
    v = np.nan_to_num(size.values, nan=-np.inf)
    kids = _children(table)
    roots = kids.get(-1, [])
    if not roots:
        return []
    node = max(roots, key=lambda r: v[r])
    path, top = [node], v[node]
    while kids.get(node):
        nxt = max(kids[node], key=lambda c: v[c])
        if not (top > 0 and v[nxt] >= HOT_PATH_SHARE * top):
            break
        path.append(nxt)
        node = nxt
    return path


def describe(
    table: NodeTable,
    color_by: str,
    size_by: str,
    selection: tuple[int, ...],
    reducer: str | None,
    imbalance: tuple[str, np.ndarray] | None = None,
    changes: tuple[str, pd.DataFrame, str, str] | None = None,
    title: str | None = None,
    judge_below: float = 0.01,
    units: Mapping[str, str] | None = None,
) -> str:
    """Markdown: what the view's colour and size are, its hot path, the top nodes by colour,
    the most imbalanced nodes (``imbalance``: what the values are over, and max ÷ mean per
    node), the changes found (``changes``: the axis, ``regressions``' rows with ``node``, the
    configurations looked in, the metric they are of),
    what is selected. ``judge_below``: the view's; nodes it greys out are not told as top.
    ``units``: metric name → unit (``w.units``): values print with it and an SI prefix."""
    color, size = table.metrics[color_by], table.metrics[size_by]
    color_unit, size_unit = unit_of(color, units), unit_of(size, units)
    rows = " and ".join(f"{r}s" for r in table.reduced_over)  # none: one row per node
    over = f", {rows} combined by {reducer}" if reducer and rows else ""
    lines = [
        f"## {text(title or table.source or 'Profile')}: {table.size} calling contexts",
        "",
        f"Colour: {text(color_by)} ({color.kind}); size: {text(size_by)} ({size.kind}){over}.",
        "",
    ]
    path = hot_path(table, size)
    if path:
        lines += [f"**Hot path** (by {text(size_by)}): {_steps(table, size, path, size_unit)}.", ""]
    small = too_small(table, color_by, size_by, judge_below)
    ranked = np.nan_to_num(color.values, nan=-np.inf)
    if small is not None:  # grey in the view: not judged, so not among the top either
        ranked = np.where(small, -np.inf, ranked)
    order = np.argsort(-ranked, kind="stable")[: min(TOP, int(np.count_nonzero(ranked > -np.inf)))]
    if not len(order):
        order = np.argsort(-np.nan_to_num(color.values, nan=-np.inf), kind="stable")[:TOP]
    lines.append(f"**Top {len(order)} by {text(color_by)}:**")
    lines += [
        f"{k}. {_named(table, int(i))}: {_valued(color.values[i], color_unit)}"
        f"{_share(table, color, int(i))}"
        for k, i in enumerate(order, 1)
    ]
    if small is not None and small.any():
        lines.append(
            f"({int(small.sum())} nodes under {judge_below:.0%} of the size total are too small "
            "to judge, grey in the view: left out.)"
        )
    if imbalance is not None:
        lines += _imbalance(table, size_by, color_by, *imbalance, judge_below=judge_below)
    if changes is not None:
        lines += _changes(table, *changes, units=units)
    if selection:
        shown = ", ".join(
            f"{_named(table, i)} {_valued(color.values[i], color_unit)}{_share(table, color, i)}"
            for i in selection[:TOP]
        )
        more = f" and {len(selection) - TOP} more" if len(selection) > TOP else ""
        lines += ["", f"**Selected** ({len(selection)}): {shown}{more}."]
    return "\n".join(lines)


def _imbalance(
    table: NodeTable,
    size_by: str,
    color_by: str,
    over: str,
    ratio: np.ndarray,
    *,
    judge_below: float,
) -> list[str]:
    """The nodes whose ``color_by`` varies most over ``over`` (max ÷ mean), among those the
    imbalance view judges: at least ``judge_below`` of the size's inclusive total (a tiny node's
    imbalance is noise; the view greys it out)."""
    small = small_shares(table, size_by, judge_below)
    big = ~small if small is not None else np.ones(table.size, bool)
    ok = big & np.isfinite(ratio) & (ratio > 1)
    order = np.flatnonzero(ok)[np.argsort(-ratio[ok], kind="stable")][:TOP]
    head = f"**Imbalance** ({text(color_by)}: max ÷ mean over {text(over)})"
    if not len(order):
        return ["", f"{head}: none (every node with ≥ {judge_below:.0%} of the size is balanced)."]
    shown = ", ".join(f"{_named(table, int(i))} {ratio[i]:.2f}×" for i in order)
    return ["", f"{head}: {shown}."]


def _changes(
    table: NodeTable,
    by: str,
    found: Any,
    within: str = "",
    basis: str = "",
    units: Mapping[str, str] | None = None,
) -> list[str]:
    """The changes found, own changes first, then the largest effect (as the Changes tab); in
    which configurations (``within``) they were looked for; before and after in the unit of
    the metric they are of (``basis``) with one prefix."""
    head = f"**Changes** along {text(by)}" + (f" ({text(within)})" if within else "")
    if found is None or not len(found):
        return ["", f"{head}: none found."]
    own = found["cause"] == "exclusive"
    rows = pd.concat([found[own], found[~own]]).head(TOP)
    items = []
    for _, row in rows.iterrows():
        where = int(row["node"])
        name = _named(table, where) if where >= 0 else text(" → ".join(row["path"]))
        cause = "own" if row["cause"] == "exclusive" else "in what it calls"
        at = row["at"].date().isoformat() if hasattr(row["at"], "date") else str(row["at"])
        config = row.get("config") or {}
        in_config = " in " + ", ".join(f"{k} {v}" for k, v in config.items()) if config else ""
        environment = tuple(row.get("environment") or ())
        since = f", with {environment[0]}" if environment else ""
        before, after = column_texts([row["before"], row["after"]], (units or {}).get(basis))
        items.append(
            f"{name} {row['change']:+.1%} at {text(at)}{text(in_config)} "
            f"({before} → {after}, {cause}{text(since)})"
        )
    more = f" and {len(found) - TOP} more" if len(found) > TOP else ""
    return ["", f"{head} ({len(found)}): {'; '.join(items)}{more}."]
