"""GraphFrame (either Hatchet distribution) or Thicket → :class:`cctviz.table.NodeTable`.

Only API that UMD ``hatchet`` and LLNL ``llnl-hatchet`` share is used: ``gf.graph.roots``,
``Node.children`` / ``frame`` / ``_hatchet_nid``, ``gf.dataframe`` indexed by ``node`` (plus
``rank``/``thread``/``profile`` levels), ``gf.exc_metrics``, ``gf.inc_metrics`` and
``gf.default_metric``. Nothing here imports ``hatchet``, so cctviz never forces one distribution.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..table import Metric, NodeTable
from . import derived, rows, semantics
from . import metrics as metric_rules
from .reduce import NOT_ADDITIVE, check_reducer, per_node
from .spanning import count_cycle_edges, spanning_tree

ACCEPTED = "a Hatchet GraphFrame (UMD `hatchet` or LLNL `llnl-hatchet`) or a Thicket"


def is_graphframe(obj: object) -> bool:
    """Duck-typed check for a Hatchet GraphFrame or Thicket (either distribution)."""
    graph = getattr(obj, "graph", None)
    return (
        isinstance(getattr(obj, "dataframe", None), pd.DataFrame)
        and graph is not None
        and hasattr(graph, "roots")
    )


def from_graphframe(
    gf: Any,
    reducer: str = "mean",
    metric_kinds: Mapping[str, str] | None = None,
    size_reducer: str | None = None,
) -> NodeTable:
    """Build the node table of a Hatchet GraphFrame or Thicket.

    Rows of one node (per rank, thread, or Thicket profile) are combined with ``reducer``
    (``"mean"``, ``"sum"``, ``"min"``, ``"max"``, ``"std"`` or ``"imbalance"``: max ÷ mean);
    missing values stay NaN. An exclusive metric without an inclusive partner gets a derived one
    (see :mod:`cctviz.adapters.derived`). ``metric_kinds`` overrides what the reader says a metric
    is: ``{"imbalance": "ratio"}`` (``exclusive``, ``inclusive``, ``ratio``, ``max`` or ``other``;
    see :data:`cctviz.table.MetricKind`). ``size_reducer`` (another reducer): the table also
    holds each metric that adds up combined that way, named ``"time (inc) (mean)"``.
    """
    if not is_graphframe(gf):
        raise TypeError(f"cctviz draws {ACCEPTED}; got {type(gf).__module__}.{type(gf).__name__}")
    check_reducer(reducer)
    roots = list(gf.graph.roots)
    if not roots:
        raise ValueError("the GraphFrame's graph is empty: it has no root node to draw")

    nodes, parent, depth, extra = spanning_tree(roots)
    n = len(nodes)
    nid = _nids(nodes)
    df = gf.dataframe
    repeated = df.columns[df.columns.duplicated()].unique().tolist()
    if repeated:
        raise ValueError(
            f"the GraphFrame's dataframe has repeated column names {repeated}; each metric "
            "needs its own name (rename or drop the copies)"
        )
    keys = _row_keys(df, nodes, nid)

    metric_names, kind, partner, decisions = metric_rules.discover(
        df, getattr(gf, "exc_metrics", None) or [], getattr(gf, "inc_metrics", None) or [], gf
    )
    if metric_kinds:
        semantics.declare(metric_kinds, metric_names, kind, partner, decisions)
    if not metric_names:
        raise ValueError(
            "the GraphFrame has no numeric metric column; columns: "
            + ", ".join(repr(c) for c in df.columns)
        )
    block = df[metric_names].to_numpy(dtype=np.float64, na_value=np.nan)
    parent_np = np.frombuffer(parent, dtype=np.int32)
    # what only the reader's list says is checked against the tree (semantics.check_against_tree)
    checked = [
        j
        for j, m in enumerate(metric_names)
        if decisions[m].rule != "declared"
        and (kind[m] == "inclusive" or (decisions[m].rule == "reader" and m not in partner))
    ]
    if checked:
        totals = {metric_names[j]: rows.node_sums(block[:, j], keys, n) for j in checked}
        decisions = semantics.check_against_tree(decisions, totals, parent_np)
        kind.update({m: decisions[m].kind for m in metric_names})
    # an exclusive metric without an inclusive partner gets a derived one (its subtree sum)
    lonely = [m for m in metric_names if kind[m] == "exclusive" and m not in partner]
    if lonely:
        depth_np = np.frombuffer(depth, dtype=np.int32)
        groups, n_groups = derived.row_groups(df)
        sums = [
            derived.subtree_sums(
                block[:, metric_names.index(m)], keys, groups, n_groups, parent_np, depth_np
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
    # helper threads hold 0 and would make every node "2× imbalanced") are added up first
    inner = rows.inner_levels(df) if reducer in NOT_ADDITIVE else []
    if inner:
        values = per_node(*rows.summed_within(block, keys, df), n, reducer)
    else:
        values = per_node(block, keys, n, reducer)
    table_metrics = {}
    for j, m in enumerate(metric_names):
        rule, detail = _rule(decisions[m], kind[m], reducer)
        table_metrics[str(m)] = Metric(
            name=str(m),
            values=np.ascontiguousarray(values[:, j]),
            # a spread or a ratio of a time no longer adds up along the tree: glyphs show the max
            kind=_reduced_kind(kind[m], reducer),  # type: ignore[arg-type]
            partner=str(partner[m]) if m in partner else None,
            rule=rule,
            detail=detail,
        )
    if size_reducer is not None and size_reducer != reducer:
        table_metrics.update(
            rows.companions(block, keys, n, size_reducer, metric_names, kind, partner, decisions)
        )
    # free the row-sized temporaries before the string columns (a 1M-node tree's peak)
    del block, values

    first_row = _first_rows(keys, n)
    del keys
    name_code, name_table = _string_column(df, "name", first_row, nodes)
    type_code, type_table = _string_column(df, "type", first_row, nodes)
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
        parent=np.frombuffer(parent, dtype=np.int32).copy(),
        depth=np.frombuffer(depth, dtype=np.int32).copy(),
        name_code=name_code,
        names=name_table,
        type_code=type_code,
        types=type_table,
        nodes=nodes,
        hatchet_nid=nid,
        metrics=table_metrics,
        first_row=first_row,
        reducer=reducer if multi_rows else None,
        reduced_over=reduced_over if multi_rows else (),
        extra_edges=len(extra),
        cycle_edges=count_cycle_edges(extra, parent),
        callers=np.asarray(extra, dtype=np.int32).reshape(-1, 2),
        source=type(gf).__name__,
    )


def _reduced_kind(kind: str, reducer: str) -> str:
    """A metric's kind once reduced: under ``imbalance`` a ratio, under ``std`` a spread whose
    glyphs show the largest one (neither adds up along the tree); else as it was."""
    if reducer not in NOT_ADDITIVE or kind == "other":
        return kind
    return "ratio" if reducer == "imbalance" else "max"


def _rule(decision: semantics.Decision, kind: str, reducer: str) -> tuple[str, str]:
    """The ``rule`` and ``detail`` of a metric once reduced (the reducer can decide it last)."""
    if _reduced_kind(kind, reducer) != kind:
        detail = f"{decision.detail}; under the {reducer} reducer its values do not add up"
        return "reducer", detail
    return decision.rule, decision.detail


def _row_keys(df: pd.DataFrame, nodes: list[Any], nid: np.ndarray) -> np.ndarray:
    """Table index of the node of each dataframe row (-1 for rows whose node is not drawn)."""
    if "node" not in df.index.names:
        raise TypeError(
            f"the GraphFrame's dataframe must be indexed by 'node'; its index levels are "
            f"{list(df.index.names)}"
        )
    index = df.index
    if isinstance(index, pd.MultiIndex):
        level = index.names.index("node")
        uniques, codes = index.levels[level], index.codes[level]
    else:
        uniques, codes = index, None
    if len(uniques) and not hasattr(uniques[0], "_hatchet_nid"):
        raise TypeError(
            f"the GraphFrame's dataframe index 'node' holds {type(uniques[0]).__name__} values "
            f"such as {uniques[0]!r:.40}; it must hold the graph's hatchet Nodes"
        )
    n = len(nid)
    # Hatchet numbers nodes 0..n-1 (enumerate_traverse): a lookup array beats a sort
    dense = n > 0 and int(nid.min()) >= 0 and int(nid.max()) < 2 * n + 1024
    if dense:
        at = np.full(int(nid.max()) + 1, -1, dtype=np.int64)
        at[nid] = np.arange(n)
        unique_nids = bool(np.array_equal(at[nid], np.arange(n)))
    else:
        order = np.argsort(nid, kind="stable")
        sorted_nid = nid[order]
        unique_nids = bool(np.all(sorted_nid[1:] != sorted_nid[:-1]))
    if unique_nids:  # normal case: map through _hatchet_nid
        row_nid = _nids(uniques.to_numpy(dtype=object))
        if dense:
            inside = (row_nid >= 0) & (row_nid < at.size)
            mapped = np.where(inside, at[np.where(inside, row_nid, 0)], -1)
        else:
            pos = np.minimum(np.searchsorted(sorted_nid, row_nid), n - 1)
            mapped = np.where(sorted_nid[pos] == row_nid, order[pos], -1)
    else:  # a graph whose nids collide: fall back to object identity
        lookup = {id(node): i for i, node in enumerate(nodes)}
        mapped = np.fromiter((lookup.get(id(u), -1) for u in uniques), np.int64, len(uniques))
    if codes is None:
        return mapped
    return np.where(codes >= 0, mapped[codes], -1)


def _first_rows(keys: np.ndarray, n: int) -> np.ndarray:
    """Index of the first dataframe row of each node (-1 for a node with no row)."""
    first = np.full(n, -1, dtype=np.int64)
    rows = np.flatnonzero(keys >= 0)
    # assigning in reverse leaves the first row of each node in place
    first[keys[rows][::-1]] = rows[::-1]
    return first


def _string_column(
    df: pd.DataFrame, column: str, first_row: np.ndarray, nodes: list[Any]
) -> tuple[np.ndarray, list[str]]:
    """Per-node text as (int32 codes, string table), from the dataframe column ``column`` (what
    users see in ``gf.dataframe``), else from the node's frame, whose keys differ by reader."""
    n = len(nodes)
    values = np.full(n, None, dtype=object)
    have = first_row >= 0
    if column in df.columns:
        values[have] = df[column].to_numpy(dtype=object)[first_row[have]]
    missing = np.flatnonzero(pd.isna(values))
    if missing.size:  # the frames say (every node's, when there is no such column: types, often)
        frames = map(_FRAME, nodes if missing.size == n else (nodes[i] for i in missing))
        fallback = np.empty(missing.size, dtype=object)
        fallback[:] = [_frame_text(frame, column) for frame in frames]
        values[missing] = fallback
    codes, uniques = pd.factorize(values, use_na_sentinel=False)
    if n and not np.array_equal(np.asarray(uniques, dtype=object)[codes], values):
        # pandas hashes strings as UTF-8 and takes text with lone surrogates ("\ud800") for
        # other text; checked above (one comparison a node), a dict tells them apart
        table: dict[Any, int] = {}
        codes = np.fromiter((table.setdefault(v, len(table)) for v in values), np.int64, n)
        uniques = list(table)
    return codes.astype(np.int32), ["" if u is None else str(u) for u in uniques]


_NID = operator.attrgetter("_hatchet_nid")
_FRAME = operator.attrgetter("frame")


def _frame_text(frame: Any, key: str) -> Any:
    attrs = getattr(frame, "attrs", None)  # both distributions' Frame keeps a dict here
    value = attrs.get(key) if type(attrs) is dict else None
    return str(frame) if value is None and key == "name" else value


def _nids(nodes: list[Any]) -> np.ndarray:
    """Each node's ``_hatchet_nid``, or a ``TypeError`` naming a node whose nid is not an int."""
    try:
        return np.fromiter(map(_NID, nodes), dtype=np.int64, count=len(nodes))
    except (TypeError, ValueError, OverflowError, AttributeError) as error:
        failure = error
    for node in nodes:  # which node, and why
        value = getattr(node, "_hatchet_nid", None)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(
                f"node {node.frame.get('name')!r} has _hatchet_nid {value!r}; Hatchet numbers "
                "nodes with whole numbers (gf.graph.enumerate_traverse() numbers a graph built "
                "by hand)"
            ) from None
        if not -(2**63) <= int(value) < 2**63:
            raise TypeError(f"node {node.frame.get('name')!r} has _hatchet_nid {value}: too big")
    raise TypeError(f"the nodes' _hatchet_nid could not be read: {failure}")
