"""The node table of a tree and the dataframe rows of its nodes: what every metric is (the reader's
lists, the data's semantics, ``metric_kinds``), each node's rows reduced to its value, inclusive
metrics derived where a profile has none, size companions, and the nodes' names and types.

``from_graphframe`` reads the tree and rows of a GraphFrame or Thicket; a compare view gives the
union tree of several runs' node tables and one row per node (``cctviz.compare``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core import progress
from ..core.table import Metric, NodeTable
from . import derived, pinned, rows, semantics, value_kinds
from . import metrics as metric_rules
from .reduce import COMPARES_RANKS, NOT_ADDITIVE, per_node
from .spanning import count_cycle_edges
from .text import text_column


@dataclass(frozen=True)
class Tree:
    """A tree in depth-first pre-order: its Hatchet nodes, each one's parent index (-1: a root)
    and depth, the (parent, child) edges not drawn (a DAG's other callers), and each node's
    ``_hatchet_nid``."""

    nodes: np.ndarray  # of Hatchet Nodes (an object array: see from_graphframe)
    parent: np.ndarray  # int32
    depth: np.ndarray  # int32
    extra: list[tuple[int, int]]
    nid: np.ndarray


def from_rows(
    tree: Tree,
    df: pd.DataFrame,
    keys: np.ndarray,
    listed: tuple[Sequence[Any], Sequence[Any]],
    data: Any,
    reducer: str,
    metric_kinds: Mapping[str, str] | None,
    size_reducer: str | None,
    source: str,
) -> NodeTable:
    """The node table of ``tree`` whose rows are ``df``'s (``keys``: the tree index of each
    row's node, -1 for none): ``listed`` are the reader's exclusive and inclusive metrics,
    ``data`` what gives metadata (the GraphFrame or Thicket); the rest as ``from_graphframe``."""
    progress.stage("reducing the metrics")
    gf, parent, n = data, tree.parent, len(tree.nodes)
    table_metrics, single, inner = node_metrics(
        tree.parent, tree.depth, df, keys, listed, data, reducer, metric_kinds, size_reducer
    )

    progress.stage("reading names")
    first_row = _first_rows(keys, n, single)
    del keys
    names = text_column(df, "name", first_row, tree.nodes)
    types = text_column(df, "type", first_row, tree.nodes)
    # a timeseries' records of one node are time steps: the reducer line says so
    steps = "time steps (iteration)" if semantics.is_timeseries(gf, df) else "iteration"
    reduced_over = tuple(
        steps if x == "iteration" else str(x) for x in df.index.names if x != "node"
    )
    if inner:  # "imbalance over rank (thread added up)"
        reduced_over = (f"{reduced_over[0]} ({', '.join(inner)} added up)",)
    # rows per node come from the other index levels (rank, thread, profile); a "node" index
    # that repeats without them is only nodes sharing a _hatchet_nid (told apart above)
    multi_rows = (
        bool(reduced_over) and len(df.index) > 0 and not df.index.get_level_values("node").is_unique
    )

    return NodeTable(
        parent=tree.parent,
        depth=tree.depth,
        name_text=names,
        type_text=types,
        nodes=tree.nodes,
        hatchet_nid=tree.nid,
        metrics=table_metrics,
        first_row=first_row,
        reducer=reducer if multi_rows else None,
        reduced_over=reduced_over if multi_rows else (),
        extra_edges=len(tree.extra),
        cycle_edges=count_cycle_edges(tree.extra, parent),
        callers=np.asarray(tree.extra, dtype=np.int32).reshape(-1, 2),
        source=source,
    )


def node_metrics(
    parent: np.ndarray,
    depth: np.ndarray,
    df: pd.DataFrame,
    keys: np.ndarray,
    listed: tuple[Sequence[Any], Sequence[Any]],
    data: Any,
    reducer: str,
    metric_kinds: Mapping[str, str] | None,
    size_reducer: str | None,
    explain: bool = True,
) -> tuple[dict[str, Metric], bool, list[str]]:
    """The metrics of a tree's node table (``parent``, ``depth``: the tree in pre-order) from
    ``df``'s rows (``keys``, ``listed``, ``data`` and the rest as :func:`from_rows`): what each
    metric is and its value per node; also whether each node has at most one row, and the
    index levels added up within a rank first. Apart from ``from_rows`` so that a reader that
    builds no Hatchet nodes (the store's Caliper rows) decides kinds by the very same rules.

    ``explain=False``: only kinds, partners and values are wanted (the store keeps no rule or
    detail), so the tree checks are run only where they can change a kind (a metric only the
    reader's list decided); elsewhere they would only add a note to the detail. On a small
    Caliper profile they are a third of this function's time."""
    gf, n = data, len(parent)
    metric_names, kind, partner, decisions = metric_rules.discover(df, *listed, gf)
    stored = pinned.stored(gf)  # an ensemble's reduced tree: as its store's metrics table says
    if stored:
        pinned.apply_stored(stored, metric_names, kind, partner, decisions)
    by_format = pinned.formats(gf)  # read by cctviz.read: as the file format means each metric
    if by_format:
        pinned.apply_stored(by_format, metric_names, kind, partner, decisions, rule="format")
    pins = pinned.read(gf)
    if pins:
        semantics.declare(pins, metric_names, kind, partner, decisions, pinned=True)
    if metric_kinds:
        semantics.declare(metric_kinds, metric_names, kind, partner, decisions)
    if not metric_names:
        raise ValueError(
            "the GraphFrame has no numeric metric column; columns: "
            + ", ".join(repr(c) for c in df.columns)
        )
    # column by column: ``df[metric_names]`` builds a frame first, ~0.5 ms even for a few rows
    # (a tenth of reading a small Caliper file); the values are the same float64 casts
    block = np.column_stack(
        [df[m].to_numpy(dtype=np.float64, na_value=np.nan) for m in metric_names]
    )
    single = rows.one_row_each(keys, n)  # a single profile: each node's rows are its one row
    # what only the reader's list says is checked against the tree (semantics.check_against_tree)
    checked = [
        j
        for j, m in enumerate(metric_names)
        if decisions[m].rule not in ("declared", "pinned", "store", "format")
        and (kind[m] == "inclusive" or (decisions[m].rule == "reader" and m not in partner))
        and (explain or decisions[m].rule == "reader")
    ]
    if checked:
        totals = {metric_names[j]: rows.node_sums(block[:, j], keys, n, single) for j in checked}
        # parameters and top-down fractions first: the tree check would call some inclusive
        raw = {metric_names[j]: block[:, j] for j in checked}
        decisions = value_kinds.by_values(decisions, totals, raw, parent)
        decisions = semantics.check_against_tree(decisions, totals, parent)
        kind.update({m: decisions[m].kind for m in metric_names})
    # an exclusive metric without an inclusive partner gets a derived one (its subtree sum)
    lonely = [m for m in metric_names if kind[m] == "exclusive" and m not in partner]
    if lonely:
        groups, n_groups = derived.row_groups(df)
        sums = [
            derived.subtree_sums(
                block[:, metric_names.index(m)], keys, groups, n_groups, parent, depth
            )
            for m in lonely
        ]
        block = np.column_stack([block, *sums])
        for m in lonely:
            name = derived.derived_name(str(m))
            metric_names.append(name)
            kind[name] = "inclusive"
            partner[m], partner[name] = name, m
            decisions[name] = semantics.Decision(
                "inclusive", "derived", f"the subtree sums of {str(m)!r}, rank by rank"
            )
    # a spread or an imbalance compares the outer level (ranks): its inner rows (threads, where
    # helper threads hold 0 and would make every node "2× imbalanced") are added up first; the
    # median, as the mean, min and max, is over every (rank, thread) row
    inner = rows.inner_levels(df) if reducer in COMPARES_RANKS else []
    if inner:
        values = per_node(*rows.summed_within(block, keys, df), n, reducer)
    else:
        values = per_node(block, keys, n, reducer, single)
    table_metrics = {}
    for j, m in enumerate(metric_names):
        rule, detail = _rule(decisions[m], kind[m], reducer)
        drawn_kind = reduced_kind(kind[m], reducer)
        table_metrics[str(m)] = Metric(
            name=str(m),
            values=np.ascontiguousarray(values[:, j]),
            # a spread or a ratio of a time no longer adds up along the tree: glyphs show the max
            kind=drawn_kind,  # type: ignore[arg-type]
            base_kind=kind[m] if drawn_kind != kind[m] else None,  # type: ignore[arg-type]
            partner=str(partner[m]) if m in partner else None,
            rule=rule,
            detail=detail,
        )
    if size_reducer is not None and size_reducer != reducer:
        table_metrics.update(
            rows.companions(block, keys, n, size_reducer, metric_names, kind, partner, decisions)
        )
    return table_metrics, single, inner


def reduced_kind(kind: str, reducer: str) -> str:
    """A metric's kind once reduced: under ``imbalance`` a ratio, under ``std`` a spread and
    under ``median`` a middle value, whose glyphs show the largest one (none adds up along the
    tree); else as it was."""
    if reducer not in NOT_ADDITIVE or kind == "other":
        return kind
    return "ratio" if reducer == "imbalance" else "max"


def _rule(decision: semantics.Decision, kind: str, reducer: str) -> tuple[str, str]:
    """The ``rule`` and ``detail`` of a metric once reduced (the reducer can decide it last)."""
    if reduced_kind(kind, reducer) != kind:
        detail = f"{decision.detail}; under the {reducer} reducer its values do not add up"
        return "reducer", detail
    return decision.rule, decision.detail


def _first_rows(keys: np.ndarray, n: int, single: bool) -> np.ndarray:
    """Index of the first dataframe row of each node (-1 for a node with no row); ``single``: no
    node has more than one row (each node's row put in place)."""
    first = np.full(n, -1, dtype=np.int64)
    if single and keys.size and keys.min() >= 0:
        first[keys] = np.arange(keys.size)
        return first
    rows = np.flatnonzero(keys >= 0)
    # assigning in reverse leaves the first row of each node in place
    first[keys[rows][::-1]] = rows[::-1]
    return first
