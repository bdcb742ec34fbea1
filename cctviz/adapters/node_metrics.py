"""What each metric of a tree's rows is, and its value per node, in two steps:

- :func:`decide`: which columns are metrics and what each one is (the reader's lists, the data's
  semantics, pins, ``metric_kinds``). It reads only the columns' names and dtypes, the frame's
  index names and the metadata under :data:`DECIDING_KEYS`, so a caller reading many files of
  the same shape (the store's Caliper rows) decides once for all of them;
- :func:`metric_values`: each metric's value per node from the rows as one float64 block, the
  tree checks where only a reader's list decided a kind, derived inclusive metrics, companions.

:func:`node_metrics` runs both on a DataFrame (``cctviz.adapters.from_rows``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.table import Metric
from . import derived, pinned, rows, semantics, value_kinds
from . import metrics as metric_rules
from .reduce import COMPARES_RANKS, NOT_ADDITIVE, per_node

#: every metadata key :func:`decide` reads (Caliper spot's lists, the pins, an ensemble's and a
#: file format's kinds): with the columns' names and dtypes, the frame's index names and the
#: reader's lists, all that a decision depends on
DECIDING_KEYS = (
    "spot.metrics",
    "spot.timeseries.metrics",
    pinned.KEY,
    pinned.STORE_KEY,
    pinned.FORMAT_KEY,
)


@dataclass(frozen=True)
class Decided:
    """The metric columns in order, each one's kind, the exclusive/inclusive partners and the
    decision (rule and detail) behind each kind. Never changed in place (a caller may keep it)."""

    names: tuple[Any, ...]
    kind: Mapping[Any, str]
    partner: Mapping[Any, Any]
    decisions: Mapping[Any, semantics.Decision]


def decide(
    df: pd.DataFrame,
    listed: tuple[Sequence[Any], Sequence[Any]],
    data: Any,
    metric_kinds: Mapping[str, str] | None,
) -> Decided:
    """What each metric of ``df`` is: ``listed`` are the reader's exclusive and inclusive
    metrics, ``data`` gives the metadata (a GraphFrame, a Thicket)."""
    gf = data
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
    return Decided(tuple(metric_names), kind, partner, decisions)


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
    ``df``'s rows (``keys``: the node of each row, -1 for none): what each metric is and its
    value per node; also whether each node has at most one row, and the index levels added up
    within a rank first (``explain``: as :func:`metric_values`)."""
    decided = decide(df, listed, data, metric_kinds)
    # column by column: ``df[metric_names]`` builds a frame first, ~0.5 ms even for a few rows
    # (a tenth of reading a small Caliper file); the values are the same float64 casts
    block = np.column_stack(
        [df[m].to_numpy(dtype=np.float64, na_value=np.nan) for m in decided.names]
    )
    # a spread or an imbalance compares the outer level (ranks): its inner rows (threads, where
    # helper threads hold 0 and would make every node "2× imbalanced") are added up first; the
    # median, as the mean, min and max, is over every (rank, thread) row
    inner = rows.inner_levels(df) if reducer in COMPARES_RANKS else []
    metrics, single = metric_values(
        parent,
        depth,
        block,
        keys,
        decided,
        reducer,
        size_reducer,
        explain,
        groups=lambda: derived.row_groups(df),
        within=(lambda rows_: rows.summed_within(rows_, keys, df)) if inner else None,
    )
    return metrics, single, inner


def metric_values(
    parent: np.ndarray,
    depth: np.ndarray,
    block: np.ndarray,
    keys: np.ndarray,
    decided: Decided,
    reducer: str,
    size_reducer: str | None,
    explain: bool,
    groups: Callable[[], tuple[np.ndarray, int]],
    within: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None,
) -> tuple[dict[str, Metric], bool]:
    """Each metric's value per node from ``block`` (rows × ``decided.names``, float64), and
    whether each node has at most one row. ``groups``: each row's run (rank, thread…) and how
    many (asked only to derive an inclusive metric); ``within``: the rows added up within each
    rank, where a spread or an imbalance compares ranks and threads are inner rows.

    ``explain=False``: only kinds, partners and values are wanted (the store keeps no rule or
    detail), so the tree checks are run only where they can change a kind (a metric only the
    reader's list decided); elsewhere they would only add a note to the detail. On a small
    Caliper profile they are a third of this function's time."""
    n = len(parent)
    metric_names = list(decided.names)
    kind, partner = dict(decided.kind), dict(decided.partner)
    decisions = dict(decided.decisions)
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
        row_group, n_groups = groups()
        sums = [
            derived.subtree_sums(
                block[:, metric_names.index(m)], keys, row_group, n_groups, parent, depth
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
    if within is not None:
        values = per_node(*within(block), n, reducer)
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
            base_kind=kind[m] if drawn_kind != kind[m] else None,
            partner=str(partner[m]) if m in partner else None,
            rule=rule,
            detail=detail,
        )
    if size_reducer is not None and size_reducer != reducer:
        table_metrics.update(
            rows.companions(block, keys, n, size_reducer, metric_names, kind, partner, decisions)
        )
    return table_metrics, single


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
