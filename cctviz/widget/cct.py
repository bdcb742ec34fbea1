"""``CCT``: the calling context tree widget, and ``show``."""

from __future__ import annotations

import difflib
import inspect
import pathlib
import re
from collections.abc import Callable
from typing import Any

import anywidget
import numpy as np
import traitlets as t

from .. import selection as sel
from .. import view
from ..adapters import from_graphframe
from ..callpath import ContextKeys
from ..figure.of_widget import figure_of
from ..figure.render import figure_format
from ..lod import DEFAULT_BUDGET, EXPAND_STEP, LevelOfDetail
from ..payload import encode
from ..table import REDUCERS, NodeTable, UnknownMetricError
from . import bundle

# The colour-blind-safe palettes of js/src/cct/scales.js ("auto": viridis, or the diverging
# "rdbu" centred on 0 when the colour metric changes sign). A test checks both lists agree.
PALETTES = (
    *("auto", "viridis", "cividis", "magma", "plasma", "inferno", "blues", "greys"),
    *("rdbu", "puor"),
)


class MetricTraitError(UnknownMetricError, t.TraitError):
    """An unknown metric set on a widget trait (a ``TraitError`` and a ``ValueError``)."""


class CCT(anywidget.AnyWidget):
    """An interactive, bivariate calling context tree of a Hatchet GraphFrame or Thicket.

    Node colour shows ``color_by``, node area shows ``size_by``. Clicking a node selects it
    (shift-click toggles more); the selected node ids are in ``selection``. A node id is the
    node's position in ``table`` (depth-first pre-order); ``table.nodes[i]`` is its Hatchet Node.
    """

    _esm = bundle.esm()
    _css = bundle.css()

    _payload = t.Dict(help="The node table as binary columns (see cctviz.payload).").tag(sync=True)
    color_by = t.Unicode(help="Metric shown by node colour.").tag(sync=True)
    size_by = t.Unicode(help="Metric shown by node area.").tag(sync=True)
    color_scale = t.Enum(
        ["linear", "log"], default_value="linear", help="Colour scale: 'linear' or 'log'."
    ).tag(sync=True)
    reducer = t.Enum(
        list(REDUCERS),
        default_value="mean",
        help="How per-rank/thread/profile rows of one node are combined.",
    ).tag(sync=True)
    backend = t.Enum(
        ["auto", "svg", "canvas"],
        default_value="auto",
        help="Drawing backend: 'svg', 'canvas', or 'auto' (canvas above 4,000 nodes).",
    ).tag(sync=True)
    palette = t.Enum(
        list(PALETTES), default_value="auto", help="Colour palette ('auto': diverging if signed)."
    ).tag(sync=True)
    legend = t.Enum(
        ["shared", "per-root"],
        default_value="shared",
        help="One colour scale and legend for all trees, or one per tree.",
    ).tag(sync=True)
    selection = t.Tuple(help="Ids of the selected nodes, in selection order.").tag(sync=True)
    collapsed = t.Tuple(help="Ids of the collapsed nodes (each drawn as one glyph).").tag(sync=True)
    prune_range = t.Tuple(
        t.Float(),
        t.Float(),
        default_value=None,
        allow_none=True,
        help="(low, high) of the colour metric kept; others fold into aggregates. None: all.",
    ).tag(sync=True)
    focused = t.Int(None, allow_none=True, help="Id of the node the view is rooted at.").tag(
        sync=True
    )
    visible_roots = t.Tuple(
        default_value=None, allow_none=True, help="Ids of the roots shown; None: all."
    ).tag(sync=True)
    highlighted = t.Tuple(help="Ids of highlighted nodes (marked, not selected).").tag(sync=True)
    search = t.Unicode("", help="Search pattern matched against node names.").tag(sync=True)
    search_regex = t.Bool(False, help="Treat search as a regular expression.").tag(sync=True)
    search_case = t.Bool(False, help="Case-sensitive search.").tag(sync=True)
    height = t.Int(560, min=240, help="Height of the widget in pixels.").tag(sync=True)
    units = t.Dict(
        value_trait=t.Unicode(), help="Units of metrics for the legend titles, e.g. {'time': 's'}."
    ).tag(sync=True)
    _stage_size = t.Tuple(
        t.Int(), t.Int(), default_value=(0, 0), help="Drawing size on screen (set by the view)."
    ).tag(sync=True)
    _view_transform = t.Tuple(
        t.Float(),
        t.Float(),
        t.Float(),
        default_value=None,
        allow_none=True,
        help="Zoom and pan (x, y, k) the user set on screen; None: fitted (set by the view).",
    ).tag(sync=True)

    def __init__(
        self,
        data: Any,
        *,
        color_by: str | None = None,
        size_by: str | None = None,
        reducer: str = "mean",
        state: dict[str, Any] | None = None,
        source: str | None = None,
        budget: int | None = DEFAULT_BUDGET,
        **kwargs: Any,
    ) -> None:
        bundle.require()
        _check_keywords(kwargs)
        if reducer not in REDUCERS:
            raise ValueError(
                f"unknown reducer {reducer!r}; accepted: {', '.join(map(repr, REDUCERS))}"
            )
        if budget is not None and (
            isinstance(budget, bool) or not isinstance(budget, int) or budget < 1
        ):
            raise ValueError(
                f"budget is the number of nodes drawn at first (at least 1), or None to send "
                f"every node; got {budget!r}"
            )
        self._budget = budget
        self._data = data
        self._table = from_graphframe(data, reducer=reducer)
        self._reduced_with = reducer
        self._lod = self._level_of_detail(self._table)
        #: where the data came from (a file, a run), recorded in exported figures
        self.source: str | None = source if source is not None else data_source(data)
        default_colour, default_size = self._default_metrics()
        super().__init__(
            _payload=self._encode(),
            reducer=reducer,
            color_by=color_by if color_by is not None else default_colour,
            size_by=size_by if size_by is not None else default_size,
            **kwargs,
        )
        self.on_msg(self._on_command)
        if state is not None:
            self._apply_state(state)

    # -- data --------------------------------------------------------------------------------
    @property
    def data(self) -> Any:
        """The GraphFrame (or Thicket) shown. Setting another one swaps the data and keeps the
        view state that still applies (metrics it has, nodes with the same call paths)."""
        return self._data

    @data.setter
    def data(self, data: Any) -> None:
        saved = self.view_state
        table = from_graphframe(data, reducer=self.reducer)
        self._reduced_with = self.reducer
        with self.hold_trait_notifications():
            # empty the node-id traits first: they are validated against the new table
            for name in ("selection", "collapsed", "highlighted"):
                setattr(self, name, ())
            self.focused = None
            self.set_trait("visible_roots", None)
            self._data, self._table = data, table
            self._lod = self._level_of_detail(table)
            colour, size = self._default_metrics()
            if self.color_by not in table.metrics:
                self.color_by = colour
            if self.size_by not in table.metrics:
                self.size_by = size
            self._payload = self._encode()
        self._apply_state(saved)

    @property
    def view_state(self) -> dict[str, Any]:
        """The whole view state as a JSON-serialisable dict (nodes given by call path);
        ``cctviz.CCT(gf, state=w.view_state)`` restores it, also on another run's GraphFrame."""
        return view.to_json(self)

    def _apply_state(self, state: dict[str, Any]) -> None:
        values = view.from_json(state, self._table, self.metrics)
        if "reducer" in values:
            self.reducer = values.pop("reducer")
        with self.hold_sync():
            for name, value in values.items():
                setattr(self, name, value)

    def to_code(self, name: str = "gf") -> str:
        """Python code that rebuilds the visible tree from the GraphFrame ``name`` with Hatchet's
        own ``filter`` (squashed): the nodes drawn, collapsed glyphs included, aggregates and
        level-of-detail folds not."""
        if sel.is_thicket(self._data):
            raise TypeError("to_code writes GraphFrame code; for a Thicket use w.view_state")
        table = self._table
        ids = view.visible_nodes(
            table,
            collapsed=self.collapsed,
            prune_range=self.prune_range,
            color_values=table.metrics[self.color_by].values,
            focused=self.focused,
            visible_roots=self.visible_roots,
        )
        if self._lod is not None:  # what the browser draws: the loaded nodes (folds are not)
            ids = [i for i in ids if self._lod.revealed[i]]
        nids = sorted(int(table.hatchet_nid[i]) for i in ids)
        notes = [f"# cctviz view of {name}: {len(ids)} of {table.size} nodes"]
        if self._lod is not None:
            notes.append(f"# level of detail: {len(self.loaded)} nodes loaded, the rest folded")
        if self.focused is not None:
            notes.append(f"# focus: {table.name(self.focused)!r}")
        if self.visible_roots is not None:
            notes.append(f"# roots: {[table.name(i) for i in self.visible_roots]!r}")
        if self.collapsed:
            notes.append(f"# collapsed: {[table.name(i) for i in self.collapsed]!r}")
        if self.prune_range is not None:
            lo, hi = self.prune_range
            notes.append(f"# pruned: {self.color_by!r} kept in [{lo!r}, {hi!r}] (and ancestors)")
        # as in selected_graphframe: keep the full profile's inclusive values where Hatchet lets
        # us (LLNL), since recomputing them fails on several real profiles
        options = "squash=True, num_procs=1"
        if "update_inc_cols" in inspect.signature(self._data.filter).parameters:
            options += ", update_inc_cols=False"
        return "\n".join(
            [
                *notes,
                f"visible = {set(nids)!r}  # _hatchet_nid of the nodes drawn",
                f"view = {name}.filter(",
                f'    lambda row: row["node"]._hatchet_nid in visible, {options}',
                ")",
                "",
            ]
        )

    @property
    def table(self) -> NodeTable:
        """The node table drawn by this widget (read-only)."""
        return self._table

    @property
    def metrics(self) -> list[str]:
        """Names of the metrics that ``color_by`` and ``size_by`` accept."""
        return list(self._table.metrics)

    def _default_metrics(self) -> tuple[str, str]:
        from ..adapters.metrics import default_pair

        m = self._table.metrics
        kinds = {k: v.kind for k, v in m.items()}
        partners = {k: v.partner for k, v in m.items() if v.partner}
        default = getattr(self._data, "default_metric", None)
        return default_pair(list(m), kinds, partners, str(default) if default is not None else None)

    # -- validation --------------------------------------------------------------------------
    @t.validate("color_by", "size_by")
    def _valid_metric(self, proposal: t.Bunch) -> str:
        name = proposal["value"]
        if name not in self._table.metrics:
            raise MetricTraitError(name, list(self._table.metrics))
        return name

    def _node_id(self, value: Any, trait: str) -> int:
        n = self._table.size
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise t.TraitError(
                f"{trait} holds node ids (integers from 0 to {n - 1}); got {value!r}"
            )
        i = int(value.__index__())
        if not 0 <= i < n:
            raise t.TraitError(
                f"node id {i} is out of range: this tree has {n} nodes (ids 0 to {n - 1})"
            )
        return i

    @t.validate("selection", "collapsed", "highlighted")
    def _valid_node_ids(self, proposal: t.Bunch) -> tuple[int, ...]:
        name = proposal["trait"].name
        ids = tuple(dict.fromkeys(self._node_id(v, name) for v in proposal["value"]))
        if name != "collapsed":
            self._reveal(ids)  # before the trait syncs: the browser must have the nodes
        return ids

    @t.validate("focused")
    def _valid_focus(self, proposal: t.Bunch) -> int | None:
        value = proposal["value"]
        if value is None:
            return None
        node = self._node_id(value, "focused")
        self._reveal([node])
        return node

    @t.validate("visible_roots")
    def _valid_roots(self, proposal: t.Bunch) -> tuple[int, ...] | None:
        if proposal["value"] is None:
            return None
        roots = set(self._table.roots.tolist())
        ids = tuple(dict.fromkeys(self._node_id(v, "visible_roots") for v in proposal["value"]))
        for i in ids:
            if i not in roots:
                listed = ", ".join(map(str, sorted(roots)))
                raise t.TraitError(f"node {i} is not a root; the roots are {listed}")
        self._reveal(ids)
        return ids

    @t.validate("prune_range")
    def _valid_prune(self, proposal: t.Bunch) -> tuple[float, float] | None:
        value = proposal["value"]
        if value is not None and value[0] > value[1]:
            raise t.TraitError(
                f"inverted prune range: low {value[0]!r} is above high {value[1]!r}; "
                "give (low, high) with low <= high, or None to keep every node"
            )
        return value

    @t.validate("search", "search_regex", "search_case")
    def _valid_search(self, proposal: t.Bunch) -> Any:
        name, value = proposal["trait"].name, proposal["value"]
        pattern = value if name == "search" else self.search
        regex = value if name == "search_regex" else self.search_regex
        if regex and pattern:
            try:
                re.compile(pattern)
            except re.error as error:
                raise t.TraitError(
                    f"invalid regular expression {pattern!r}: {error}; "
                    "set search_regex=False to search for the text as it is"
                ) from None
        return value

    # -- selection out -------------------------------------------------------------------------
    def on_select(self, callback: Callable[[tuple[int, ...]], Any], remove: bool = False) -> None:
        """Call ``callback(selection)`` whenever the selection changes (``remove=True`` stops)."""
        handlers = self.__dict__.setdefault("_select_handlers", {})
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
        """A GraphFrame of the selected nodes (with ``descendants``, their subtrees too), made by
        Hatchet's own ``filter``, squashed: a kept node's nearest kept ancestor is its parent.
        Inclusive columns keep their values from the full profile."""
        if not self.selection:
            raise ValueError("nothing is selected: click nodes or call w.select(...) first")
        ids = set(self.selection)
        if descendants:
            ids = self._with_descendants(ids)
        return sel.restricted_graphframe(self._data, [self._table.nodes[i] for i in sorted(ids)])

    @property
    def selection_query(self) -> Any:
        """A Hatchet base-syntax query (``Query`` in LLNL, ``QueryMatcher`` in UMD) that matches
        exactly the selected calling contexts: ``gf.filter(w.selection_query)`` keeps the
        selected nodes here, and the nodes with the same call paths in another run's GraphFrame."""
        if not self.selection:
            raise ValueError("nothing is selected: click nodes or call w.select(...) first")
        keys = ContextKeys()
        return sel.context_query({keys.key(n) for n in self.selected_nodes})

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

    def _resolver(self) -> sel.Resolver:
        resolver = self.__dict__.get("_resolver_cache")
        if resolver is None or resolver.table is not self._table:
            resolver = sel.Resolver(self._table, self._data)
            self.__dict__["_resolver_cache"] = resolver
        return resolver

    def _with_descendants(self, ids: set[int]) -> set[int]:
        parent = self._table.parent
        out = set(ids)
        for i in range(self._table.size):  # pre-order: a parent is decided before its children
            if parent[i] >= 0 and int(parent[i]) in out:
                out.add(i)
        return out

    @property
    def search_matches(self) -> list[int]:
        """Ids of the nodes whose names match ``search`` (with ``search_regex``/``search_case``)."""
        if not self.search:
            return []
        flags = 0 if self.search_case else re.IGNORECASE
        if self.search_regex:
            test = re.compile(self.search, flags).search
        else:
            test = re.compile(re.escape(self.search), flags).search
        # each distinct name is tested once: a million nodes share far fewer names
        hits = [code for code, name in enumerate(self._table.names) if test(name)]
        return np.flatnonzero(np.isin(self._table.name_code, hits)).tolist()

    @t.observe("reducer")
    def _reduce_again(self, change: t.Bunch) -> None:
        if change["new"] == self._reduced_with:
            return  # the first assignment, in __init__: the table is built with it already
        self._reduced_with = change["new"]
        self._table = from_graphframe(self._data, reducer=change["new"])
        revealed = None if self._lod is None else self._lod.revealed
        self._lod = self._level_of_detail(self._table)
        if self._lod is not None and revealed is not None:
            self._lod.reveal(revealed.nonzero()[0])  # the same tree: keep what was loaded
        self._payload = self._encode()

    # -- level of detail -----------------------------------------------------------------------
    def _level_of_detail(self, table: NodeTable) -> LevelOfDetail | None:
        if self._budget is None or table.size <= self._budget:
            return None
        return LevelOfDetail(table, self._budget)

    def _encode(self) -> dict[str, Any]:
        if self._lod is None:
            return encode(self._table)
        drawn = self._lod.drawn()
        return encode(
            drawn.table, node_id=drawn.node_id, folded=drawn.folded, total=self._table.size
        )

    @property
    def budget(self) -> int | None:
        """Nodes sent to the browser at first (``None``: all). Trees up to this size are sent
        whole; bigger ones are sent best-first by inclusive value, the rest folded into "N more"
        rows that load on click. Set it with ``CCT(data, budget=...)``."""
        return self._budget

    @property
    def loaded(self) -> np.ndarray:
        """Ids of the nodes the browser has (all of them below the budget)."""
        if self._lod is None:
            return np.arange(self._table.size)
        return np.flatnonzero(self._lod.revealed)

    def load(self, what: Any) -> int:
        """Send these nodes (as ``select`` finds them) and their ancestors to the browser;
        returns how many were not there yet. Selecting, focusing or highlighting does it too."""
        return self._reveal(self._resolver().ids(what))

    def _reveal(self, ids: Any) -> int:
        if self._lod is None:
            return 0
        added = self._lod.reveal(ids)
        if added:
            self._payload = self._encode()
        return added

    def expand_fold(self, node: int, step: int = EXPAND_STEP) -> int:
        """Load the next ``step`` hidden children of ``node`` (``-1``: hidden roots), the largest
        first: what clicking a "N more" row does. Returns how many were loaded."""
        if self._lod is None:
            return 0
        added = self._lod.expand(int(node), step)
        if added:
            self._payload = self._encode()
        return added

    def _on_command(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        """Commands from the front end; each gets a reply with its request id."""
        if not isinstance(content, dict) or content.get("type") != "expand":
            return
        reply: dict[str, Any] = {"type": "reply", "id": content.get("id")}
        try:
            node = content.get("node")
            if isinstance(node, bool) or not isinstance(node, int):
                raise ValueError(f"expand needs a node id; got {node!r}")
            reply.update(ok=True, loaded=self.expand_fold(node))
        except ValueError as error:
            reply.update(ok=False, error=str(error))
        self.send(reply)

    @t.observe("search", "search_regex", "search_case")
    def _load_matches(self, _change: t.Bunch) -> None:
        # search runs over the full tree here; matches not in the browser yet are loaded
        if self._lod is not None and self.search:
            self._reveal(self.search_matches[:MAX_LOADED_MATCHES])

    # -- figures -----------------------------------------------------------------------------
    def to_svg(self, **options: Any) -> str:
        """A standalone SVG of the current view, drawn by the widget's renderer in headless
        Chromium. Options as for ``save`` (``dpi`` aside); the default size is the widget's
        size on screen."""
        return figure_of(self, **options).svg

    def save(self, path: str | pathlib.Path, **options: Any) -> pathlib.Path:
        """Write the current view to ``path``: ``.svg``, ``.pdf`` (vector) or ``.png``.

        Options: ``width``, ``height`` (pixels, or strings with a unit: ``"3.5in"``, ``"8cm"``,
        ``"240pt"``); ``dpi`` (PNG, default 300); ``style`` (``"screen"`` or ``"paper"``:
        white, black text, thin strokes, cividis); ``font_family``; ``font_size`` (points);
        ``title``; ``units`` (metric name to unit, added to ``w.units``). The file records the
        data source, metrics, view state, cctviz version and date."""
        figure_format(path)  # a bad extension fails before any drawing
        return figure_of(self, **options).write(path)

    def renderer_state(self) -> dict[str, Any]:
        """The view state in the front end's terms (what the renderer draws)."""
        return {key: _jsonable(getattr(self, trait)) for trait, key in STATE_TRAITS.items()}

    def __repr__(self) -> str:
        table = self._table
        return (
            f"CCT({table.source}: {table.size} nodes, {len(table.roots)} root(s); "
            f"color_by={self.color_by!r}, size_by={self.size_by!r})"
        )


MAX_LOADED_MATCHES = 1000
"""Search matches loaded into the browser at most (the rest stay in their folds)."""

# traits of CCT ⇄ keys of the renderer's view state (js/src/widget.js has the same table)
STATE_TRAITS = {
    "color_by": "colorBy",
    "size_by": "sizeBy",
    "color_scale": "colorScale",
    "backend": "backend",
    "palette": "palette",
    "legend": "legend",
    "collapsed": "collapsed",
    "prune_range": "prune",
    "focused": "focus",
    "visible_roots": "roots",
    "search": "search",
    "search_regex": "searchRegex",
    "search_case": "searchCase",
    "highlighted": "highlighted",
}


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def data_source(data: Any) -> str | None:
    """Where ``data`` was read from, when it says: a Thicket's profile files."""
    mapping = getattr(data, "profile_mapping", None)
    if isinstance(mapping, dict) and mapping:
        return ", ".join(str(v) for v in mapping.values())
    return None


def _check_keywords(kwargs: dict[str, Any]) -> None:
    allowed = set(CCT.class_trait_names()) - {
        n for n in CCT.class_trait_names() if n.startswith("_")
    }
    for key in kwargs:
        if key not in allowed:
            close = difflib.get_close_matches(key, sorted(allowed | {"color_by", "size_by"}), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TypeError(f"CCT() got an unexpected keyword argument {key!r}{hint}")


def show(data: Any, **kwargs: Any) -> CCT:
    """Display ``CCT(data, **kwargs)`` in the current notebook cell and return the widget."""
    from IPython.display import display

    widget = CCT(data, **kwargs)
    display(widget)
    return widget
