"""Python reading and driving the view: the selection as Hatchet objects, and selecting,
highlighting, focusing, collapsing and expanding nodes by anything ``select`` accepts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import traitlets as t

from ..adapters import pinned
from ..analysis import flat, frames
from ..core.callpath import ContextKeys
from ..core.markdown import Markdown
from ..view import selection as sel
from . import imbalance
from .part import Message, WidgetPart, handles, node_of

Handler = Callable[[t.Bunch], None]


class Scripting(WidgetPart):
    """The scripting part of ``CCT``: the selection as Hatchet objects, and driving the view."""

    def __init__(self, **kwargs: Any) -> None:
        self._select_handlers: dict[Any, Handler] = {}  # on_select's callbacks, observing
        super().__init__(**kwargs)

    # -- selection out -------------------------------------------------------------------------
    def on_select(self, callback: Callable[[tuple[int, ...]], Any], remove: bool = False) -> None:
        """Call ``callback(selection)`` whenever the selection changes (``remove=True`` stops)."""
        handlers = self._select_handlers
        if remove:
            handler = handlers.pop(callback, None)
            if handler is not None:
                self.unobserve(handler, "selection")
            return
        if callback not in handlers:
            handlers[callback] = lambda change: callback(change["new"])
            self.observe(handlers[callback], "selection")

    @property
    def selected_nodes(self) -> list[Any]:
        """The Hatchet ``Node`` objects of the selection, in selection order."""
        return [self._table.nodes[i] for i in self.selection]

    @property
    def selected_frame(self) -> Any:
        """The rows of ``gf.dataframe`` for the selected nodes (every rank and thread kept)."""
        return sel.selected_frame(self._data, self.selected_nodes)

    def selected_graphframe(self, descendants: bool = False) -> Any:
        """A GraphFrame (a Thicket, from a Thicket) of the selected nodes (with ``descendants``,
        their subtrees too): Hatchet's own ``filter`` without squash, over the tree of the kept
        nodes, a kept node's nearest kept ancestor its parent. Every node holds its rows as they
        are in the full profile (every metric, rank, thread and profile); sibling nodes with
        equal frames stay apart (Hatchet's squash would merge them, and UMD hatchet's would
        recompute the inclusive columns). Its metadata pins what each metric is
        (``cctviz.metric_kinds``, as ``to_code``'s code does)."""
        if not self.selection:
            raise ValueError("nothing is selected: click nodes or call w.select(...) first")
        ids = set(self.selection)
        if descendants:
            ids = self._with_descendants(ids)
        nodes = self._table.nodes
        roots = [nodes[i] for i in sorted(ids) if self._kept_ancestor(i, ids) < 0]
        out = sel.restricted_graphframe(self._data, [nodes[i] for i in sorted(ids)], roots)
        # what each metric is, as this view read it: the rules could read the subset otherwise
        pinned.attach(out, pinned.text(self._table, self._data))
        return out

    @property
    def selection_query(self) -> Any:
        """A Hatchet base-syntax query (``Query`` in LLNL, ``QueryMatcher`` in UMD) that matches
        exactly the selected calling contexts: ``gf.filter(w.selection_query)`` keeps the
        selected nodes here, and the nodes with the same call paths in another run's GraphFrame."""
        if not self.selection:
            raise ValueError("nothing is selected: click nodes or call w.select(...) first")
        keys = ContextKeys()
        paths = [self._path_names(i) for i in self.selection]
        return sel.context_query({keys.key(n) for n in self.selected_nodes}, paths)

    def _path_names(self, node: int) -> list[str]:
        """The names on node ``node``'s call path, from its root."""
        names = []
        while node >= 0:
            names.append(self._table.name(node))
            node = int(self._table.parent[node])
        return names[::-1]

    @property
    def node_frame(self) -> Any:
        """One row per node id: the Hatchet ``node``, ``name`` and every metric as the view shows
        it under ``reducer`` (NaN kept): ``gf.dataframe.groupby(level="node").agg(reducer)``
        with the nodes as ids, plus the derived inclusive metrics."""
        return frames.node_frame(self._table)

    def distribution(self, node: Any, metric: str | None = None) -> Any:
        """The per-row values (one per rank, thread or Thicket profile) behind one node's value of
        ``metric`` (default: the colour metric), as a pandas Series indexed like
        ``gf.dataframe``; of an Ensemble, one per profile passing ``where`` (index: profile).
        ``node``: anything ``select`` accepts that names exactly one node."""
        ids = self._resolver().ids(node)
        if len(ids) != 1:
            raise ValueError(f"distribution needs exactly one node; {node!r} gives {len(ids)}")
        name = self.color_by if metric is None else metric
        self._table.metric(name)  # an unknown name is a clear error listing the metrics
        if self._ensemble is not None:  # one value per profile, from the store's engine
            return self._profile_values(ids[0], name)
        return frames.distribution(self._table, self._data, ids[0], name)

    @handles("distribution")
    def _distribution_request(self, content: Message) -> dict[str, Any]:
        """A tooltip's spread of one node's rows of one metric."""
        node, metric = node_of(content), content.get("metric")
        if not isinstance(metric, str):
            raise ValueError(f"distribution needs a metric name; got {metric!r}")
        if not 0 <= node < self._table.size:
            raise ValueError(f"no node {node}: ids run from 0 to {self._table.size - 1}")
        values = self.distribution(node, metric)
        if getattr(self, "_ensemble", None) is not None:  # the max's profile by its date
            values = self._named_profiles(values)
        return {"spread": frames.spread(values)}

    def describe(self) -> Markdown:
        """What the view shows, in words (Markdown): what colour and size are, the hot path, the
        top nodes by colour with their shares, the most imbalanced nodes (over ranks, threads or
        an ensemble's profiles), an ensemble's changes along its runs, what is selected."""
        from ..view.describe import describe

        ensemble = self._ens is not None
        changes = self._ens.changes.in_words() if self._ens is not None else None
        return Markdown(
            describe(
                self._table,
                self.color_by,
                self.size_by,
                tuple(self.selection),
                self._table.reducer,
                imbalance=imbalance.of_view(self, ensemble),
                changes=changes,
                title=f"{self.source} ({len(self._data)} profiles, store version "
                f"{getattr(self, '_store_version', None)})"
                if ensemble
                else None,
                judge_below=self.judge_below,
                units=dict(self.units),
            )
        )

    def flat_profile(self, by: str | list[str] = "name") -> Any:
        """One row per function (``by``: ``"name"``, or dataframe columns such as
        ``["name", "module"]``) over all its calling contexts: exclusive metrics summed,
        inclusive ones counted once per call path (the outermost occurrence under recursion),
        ``contexts`` and their ``ids`` (``w.select(row.ids)``), largest colour metric first."""
        return flat.flat_profile(self._table, self._data, by, self.color_by)

    # -- Python in -------------------------------------------------------------------------------
    def select(self, what: Any, add: bool = False) -> tuple[int, ...]:
        """Select nodes: ids, Hatchet Nodes, names, a Hatchet query or a callable on dataframe
        rows (a node is selected if any of its rows passes). Returns the new selection."""
        ids = self._resolver().ids(what)
        self.selection = tuple(dict.fromkeys([*self.selection, *ids])) if add else tuple(ids)
        return self.selection

    def highlight(self, what: Any) -> tuple[int, ...]:
        """Mark nodes (as ``select`` finds them) without selecting them; ``None`` clears."""
        self.highlighted = tuple(self._resolver().ids(what))
        return self.highlighted

    def focus(self, what: Any) -> int | None:
        """Root the view at one node (as ``select`` finds it); ``None`` shows everything again."""
        if what is None:
            self.focused = None
            return None
        ids = self._resolver().ids(what)
        if len(ids) != 1:
            raise ValueError(f"focus needs exactly one node; {what!r} gives {len(ids)}")
        self.focused = ids[0]
        return self.focused

    def collapse(self, what: Any) -> tuple[int, ...]:
        """Collapse the subtrees of these nodes (leaves have nothing to collapse)."""
        has_children = set(self._table.parent[self._table.parent >= 0].tolist())
        ids = [i for i in self._resolver().ids(what) if i in has_children]
        self.collapsed = tuple(dict.fromkeys([*self.collapsed, *ids]))
        return self.collapsed

    def expand(self, what: Any = None) -> tuple[int, ...]:
        """Expand these nodes, their collapsed ancestors too so that they show; ``None``: all."""
        if what is None:
            self.collapsed = ()
            return self.collapsed
        opened = set()
        for i in self._resolver().ids(what):
            j = i
            while j >= 0:
                opened.add(j)
                j = int(self._table.parent[j])
        self.collapsed = tuple(i for i in self.collapsed if i not in opened)
        return self.collapsed

    def _kept_ancestor(self, i: int, ids: set[int]) -> int:
        """The nearest ancestor of node ``i`` in ``ids`` (-1: none), along the drawn tree."""
        parent = self._table.parent
        j = int(parent[i])
        while j >= 0 and j not in ids:
            j = int(parent[j])
        return j

    def _with_descendants(self, ids: set[int]) -> set[int]:
        parent = self._table.parent
        out = set(ids)
        for i in range(self._table.size):  # pre-order: a parent is decided before its children
            if parent[i] >= 0 and int(parent[i]) in out:
                out.add(i)
        return out
