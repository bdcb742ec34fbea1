"""Words as well as pictures: a Markdown summary of what a view shows — what colour and size
are, the hot path, the nodes that cost most themselves, what is selected — for notebooks,
reports and tools that read text. Shares follow the one rule of ``payload.share_base``; a
metric whose share means nothing is given as a value only."""

from __future__ import annotations

import numpy as np

from .markdown import text
from .payload import share_base
from .table import Metric, NodeTable

HOT_PATH_SHARE = 0.05  # the hot path stops where the next node holds less than this share
TOP = 5


def _value(v: float) -> str:
    return "—" if not np.isfinite(v) else f"{v:.4g}"


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


def _steps(table: NodeTable, size: Metric, path: list[int]) -> str:
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
        parts.append(f"{' → '.join(names)} {_value(size.values[last])}{_share(table, size, last)}")
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
    table: NodeTable, color_by: str, size_by: str, selection: tuple[int, ...], reducer: str | None
) -> str:
    """Markdown: what the view's colour and size are, its hot path, the top nodes by colour,
    what is selected."""
    color, size = table.metrics[color_by], table.metrics[size_by]
    over = f", ranks and threads combined by {reducer}" if reducer else ""
    lines = [
        f"## {text(table.source or 'Profile')}: {table.size} calling contexts",
        "",
        f"Colour: {text(color_by)} ({color.kind}); size: {text(size_by)} ({size.kind}){over}.",
        "",
    ]
    path = hot_path(table, size)
    if path:
        lines += [f"**Hot path** (by {text(size_by)}): {_steps(table, size, path)}.", ""]
    order = np.argsort(-np.nan_to_num(color.values, nan=-np.inf), kind="stable")[:TOP]
    lines.append(f"**Top {len(order)} by {text(color_by)}:**")
    lines += [
        f"{k}. {_named(table, int(i))}: {_value(color.values[i])}{_share(table, color, int(i))}"
        for k, i in enumerate(order, 1)
    ]
    if selection:
        shown = ", ".join(
            f"{_named(table, i)} {_value(color.values[i])}{_share(table, color, i)}"
            for i in selection[:TOP]
        )
        more = f" and {len(selection) - TOP} more" if len(selection) > TOP else ""
        lines += ["", f"**Selected** ({len(selection)}): {shown}{more}."]
    return "\n".join(lines)
