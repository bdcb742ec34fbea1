"""From node ids to pandas and Hatchet objects, and from what users pass to ``select`` to ids.

Only API both Hatchet distributions share is used: ``gf.filter`` with a callable (rows carry the
index in a ``node`` column) or a query, ``hatchet.query.QueryMatcher`` with a callable predicate
(given a row Series named by its Node, or the node's rows as a DataFrame on multi-index frames).
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..core.callpath import ContextKeys
from ..core.rebuild import rebuild_tree
from ..core.table import NodeTable

# the sequential filter: UMD hatchet's parallel filter can hang (see ../shared notes)
FILTER_OPTIONS = {"num_procs": 1}

ACCEPTED = (
    "node ids, hatchet Nodes, node names, a Hatchet query (QueryMatcher, object dialect list, or "
    "string dialect 'MATCH ...'), or a callable on rows of gf.dataframe"
)


def is_query(x: Any) -> bool:
    """A Hatchet query object, an object-dialect list, or a string-dialect string."""
    if isinstance(x, str):
        return x.lstrip().upper().startswith("MATCH")
    if isinstance(x, list) and x and all(map(_is_query_step, x)):
        return any(not isinstance(s, str) for s in x)  # a list of names is not a query
    name = type(x).__name__
    return hasattr(x, "match") and ("Query" in name or "query" in type(x).__module__)


def _is_query_step(step: Any) -> bool:
    """An object-dialect step: {attribute: predicate}, (quantifier, {...}), or a quantifier."""
    if isinstance(step, str):
        return step in (".", "*", "+")
    return isinstance(step, dict) or (
        isinstance(step, tuple) and len(step) == 2 and isinstance(step[1], dict)
    )


class Resolver:
    """Maps Hatchet nodes, names, queries and predicates to the node ids of one table."""

    def __init__(self, table: NodeTable, gf: Any):
        self.table = table
        self.gf = gf
        self._by_nid = {int(v): i for i, v in enumerate(table.hatchet_nid)}
        self._by_object = {id(n): i for i, n in enumerate(table.nodes)}
        self._by_context: dict[Any, int] | None = None

    def by_context(self) -> dict[Any, int]:
        """Context key (call path, occurrence) → id, built once on demand."""
        if self._by_context is None:
            keys = ContextKeys()
            self._by_context = {keys.key(node): i for i, node in enumerate(self.table.nodes)}
        return self._by_context

    def ids(self, x: Any) -> list[int]:
        """Node ids for ``x``, in a stable order without repeats."""
        return list(dict.fromkeys(self._ids(x)))

    def _ids(self, x: Any) -> Iterable[int]:
        n = self.table.size
        if x is None:
            return []
        if isinstance(x, (bool, np.bool_)):
            raise TypeError(f"cannot select {x!r}; accepted: {ACCEPTED}")
        if isinstance(x, (int, np.integer)):
            if not 0 <= int(x) < n:
                raise ValueError(f"node id {int(x)} is out of range: ids go from 0 to {n - 1}")
            return [int(x)]
        if is_query(x):
            return self._query(x)
        if isinstance(x, str):
            return self._name(x)
        if hasattr(x, "frame") and hasattr(x, "_hatchet_nid"):
            return [self._node(x)]
        if callable(x):
            return self._predicate(x)
        if isinstance(x, (bytes, bytearray, memoryview, Mapping)):
            # bytes iterate as small ints, a dict as its keys: neither is a list of nodes
            raise TypeError(
                f"cannot select {type(x).__name__} {x!r:.80}; accepted: {ACCEPTED} (or a list "
                "of them)"
            )
        if isinstance(x, Iterable):
            return [i for item in x for i in self._ids(item)]
        raise TypeError(f"cannot select {type(x).__name__} {x!r}; accepted: {ACCEPTED}")

    def _node(self, node: Any) -> int:
        i = self._by_object.get(id(node))
        if i is not None:
            return i
        found = self.by_context().get(ContextKeys().key(node))
        if found is None:
            raise ValueError(
                f"node {node!r} is not in this tree (no node with its call path); "
                "was it taken from another GraphFrame?"
            )
        return found

    def _name(self, name: str) -> list[int]:
        names = self.table.names
        try:
            code = names.index(name)
        except ValueError:
            close = difflib.get_close_matches(name, names, n=3)
            hint = f"; close names: {', '.join(map(repr, close))}" if close else ""
            raise ValueError(f"no node is named {name!r}{hint}") from None
        return [int(i) for i in np.flatnonzero(self.table.name_code == code)]

    def _predicate(self, fn: Callable[[pd.Series], Any]) -> list[int]:
        df = self.gf.dataframe
        try:
            mask = df.apply(fn, axis=1)
        except Exception as error:
            raise ValueError(
                f"the selection function failed on a row of gf.dataframe: {error!r}"
            ) from error
        if mask.dtype != bool:
            raise TypeError("a selection function must return True or False for each dataframe row")
        nodes = df.index.get_level_values("node")[mask.to_numpy()]
        return [self._node(node) for node in dict.fromkeys(nodes)]

    def _query(self, query: Any) -> list[int]:
        # squash=False keeps Hatchet's node numbering, so the kept nodes map back by _hatchet_nid
        try:
            kept = hatchet_filter(self.gf, query, squash=False)
        except Exception as error:
            raise ValueError(f"Hatchet could not apply the query: {error}") from error
        nodes = kept.dataframe.index.get_level_values("node")
        ids = []
        for node in dict.fromkeys(nodes):
            i = self._by_nid.get(int(node._hatchet_nid))
            ids.append(i if i is not None else self._node(node))
        return sorted(ids)


def selected_frame(gf: Any, nodes: list[Any]) -> pd.DataFrame:
    """The rows of ``gf.dataframe`` for ``nodes``, every rank and thread kept."""
    df = gf.dataframe
    if not nodes:
        return df.iloc[0:0]
    return df.loc[nodes]


def is_thicket(gf: Any) -> bool:
    """A Thicket: its ``filter`` selects profiles by metadata; nodes are kept with ``query``."""
    return isinstance(getattr(gf, "metadata", None), pd.DataFrame) and hasattr(gf, "query")


def hatchet_filter(gf: Any, how: Any, squash: bool) -> Any:
    """Hatchet's own node filter: ``gf.filter`` (a GraphFrame) or ``tk.query`` (a Thicket).

    Object- and string-dialect queries on multi-index frames run with LLNL hatchet's
    ``multi_index_mode="all"`` (a node matches when all its rows do); UMD hatchet has no such
    option, and callables and base-syntax queries need none."""
    thicket = is_thicket(gf)
    method = gf.query if thicket else gf.filter
    # GraphFrame.filter takes num_procs in both distributions (UMD's decorator hides it from
    # inspect); Thicket.query has no such option
    options: dict[str, Any] = {} if thicket else dict(FILTER_OPTIONS)
    params = inspect.signature(method).parameters
    dialect = isinstance(how, (list, str)) or type(how).__name__ in ("ObjectQuery", "StringQuery")
    multi = isinstance(gf.dataframe.index, pd.MultiIndex)
    if dialect and multi and "multi_index_mode" in params:
        options["multi_index_mode"] = "all"
    if squash and "update_inc_cols" in params:
        # inclusive columns keep the full profile's values; UMD hatchet 1.4.1 cannot be told
        # so, and its recomputation fails on some multi-index frames with pandas 2
        options["update_inc_cols"] = False
    return method(how, squash=squash, **options)


def restricted_graphframe(gf: Any, nodes: list[Any], roots: list[Any]) -> Any:
    """``gf`` (a GraphFrame or Thicket) of ``nodes`` only, each holding its rows as they are in
    ``gf`` (every metric, rank, thread and profile): Hatchet's filter without squash, then the
    tree rebuilt over the kept nodes (:func:`cctviz.core.rebuild.rebuild_tree`), a kept node under
    its nearest kept ancestor, ``roots`` (some of ``nodes``) at the top. Hatchet's squash is not
    used: it merges sibling nodes with equal frames and UMD hatchet's recomputes inclusive
    columns over the smaller tree."""
    keep = {int(n._hatchet_nid) for n in nodes}
    if is_thicket(gf):
        how: Any = nid_query(keep)
    else:

        def how(row: pd.Series) -> bool:
            node = row["node"] if "node" in row.index else row.name
            if isinstance(node, tuple):
                node = node[0]
            return int(node._hatchet_nid) in keep

    kept = hatchet_filter(gf, how, squash=False)
    copies = rebuild_tree(kept, keep, {int(n._hatchet_nid) for n in roots})
    if is_thicket(kept):
        # a Thicket's per-node statistics share its tree: the kept nodes' rows, renamed alike
        stats = kept.statsframe
        rows = stats.dataframe[stats.dataframe.index.isin(list(copies))]
        stats.dataframe = rows.rename(index=copies)
        stats.graph = kept.graph
    return kept


def nid_query(nids: set[int]) -> Any:
    """A base-syntax query matching the nodes whose ``_hatchet_nid`` is in ``nids``."""
    try:
        from hatchet.query import Query as BaseQuery
    except ImportError:  # UMD hatchet
        from hatchet.query import QueryMatcher as BaseQuery

    def predicate(rows: Any) -> bool:
        single = isinstance(rows, pd.Series)
        node = rows.name if single else rows.index.get_level_values("node")[0]
        if isinstance(node, tuple):
            node = node[0]
        return int(node._hatchet_nid) in nids

    return BaseQuery().match(".", predicate)


def context_query(contexts: set[Any], paths: list[list[str]] | None = None) -> Any:
    """A Hatchet base-syntax query (``Query`` in LLNL hatchet, ``QueryMatcher`` in UMD)
    matching the nodes whose context key
    (:class:`cctviz.core.callpath.ContextKeys`) is in ``contexts``: exactly those nodes, on this or
    another run's GraphFrame of the same program. ``paths``: their call paths (names from the
    root), for the query's repr."""
    try:  # LLNL hatchet: new-style base-syntax query (QueryMatcher is deprecated there)
        from hatchet.query import Query as BaseQuery
    except ImportError:  # UMD hatchet
        from hatchet.query import QueryMatcher as BaseQuery

    keys = ContextKeys()

    def predicate(rows: Any) -> bool:
        # a row named by its Node, or (multi-index frames) the node's rows, one per rank/thread
        single = isinstance(rows, pd.Series)
        node = rows.name if single else rows.index.get_level_values("node")[0]
        if isinstance(node, tuple):
            node = node[0]
        return keys.key(node) in contexts

    query = BaseQuery().match(".", predicate)
    if paths is not None:
        query.__class__ = _described(type(query))
        query.cctviz_paths = [" → ".join(p) for p in paths]
    return query


def _described(base: type) -> type:
    """``base`` (Hatchet's query class) with a repr saying which call paths it matches, instead
    of ``<...QueryMatcher object at 0x...>``: still one of Hatchet's queries to ``gf.filter``."""
    if base not in _DESCRIBED:

        def __repr__(self: Any) -> str:
            paths: list[str] = self.cctviz_paths
            shown = "; ".join(paths[:REPR_PATHS])
            more = f"; … ({len(paths)} in all)" if len(paths) > REPR_PATHS else ""
            count = f"{len(paths)} calling context{'' if len(paths) == 1 else 's'}"
            return f"<hatchet {base.__name__} matching {count} by call path: {shown}{more}>"

        _DESCRIBED[base] = type(base.__name__, (base,), {"__repr__": __repr__})
    return _DESCRIBED[base]


_DESCRIBED: dict[type, type] = {}
REPR_PATHS = 5
"""How many call paths a query's repr lists."""
