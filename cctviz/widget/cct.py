"""``CCT``: the calling context tree widget (its data, synced traits and observers), and ``show``.

Scripting (``select``, ``focus``, ...) is in ``scripting.py``, what is sent to the browser and its
requests for more in ``lod_bridge.py``, ``to_code`` in ``code.py``; the traits are built from
``cctviz/contract.json`` by ``traits.py``.
"""

from __future__ import annotations

import difflib
import pathlib
import re
import uuid
from typing import Any

import pandas as pd
import traitlets as t

from .. import view
from ..adapters import from_graphframe, semantics
from ..adapters.metrics import table_defaults
from ..contract import REDUCERS, VIEW_TRAITS
from ..figure import ViewSnapshot, figure_of
from ..figure.render import figure_format
from ..lod import DEFAULT_BUDGET
from ..table import NodeTable
from . import bundle, code, traits
from .front_end_errors import FrontEndErrors
from .lod_bridge import MAX_LOADED_MATCHES, LevelOfDetailBridge
from .screen import ScreenState
from .scripting import Scripting
from .size_reducer import SIZE_REDUCERS, defaults_with, effective, sized_by, unreduced
from .static_picture import StaticPicture
from .table_pane import TablePane
from .traits import MetricTraitError

__all__ = ["CCT", "MetricTraitError", "data_source", "show"]


class CCT(
    Scripting,
    TablePane,
    LevelOfDetailBridge,
    ScreenState,
    StaticPicture,
    FrontEndErrors,
    bundle.PackedWidget,
):
    """An interactive, bivariate calling context tree of a Hatchet GraphFrame or Thicket.

    Node colour shows ``color_by``, node area shows ``size_by``. Clicking a node selects it
    (shift-click toggles more); the selected node ids are in ``selection``. A node id is the
    node's position in ``table`` (depth-first pre-order); ``table.nodes[i]`` is its Hatchet Node.
    """

    # the synced traits: kind, default, allowed values and help come from cctviz/contract.json
    color_by: str = traits.trait("color_by")
    size_by: str = traits.trait("size_by")
    color_scale: str = traits.trait("color_scale")
    palette: str = traits.trait("palette")
    legend: str = traits.trait("legend")
    color_domain: str | tuple[float, float] = traits.trait("color_domain")
    backend: str = traits.trait("backend")
    collapsed: tuple[int, ...] = traits.trait("collapsed")
    prune_range: tuple[float, float] | None = traits.trait("prune_range")
    focused: int | None = traits.trait("focused")
    visible_roots: tuple[int, ...] | None = traits.trait("visible_roots")
    search: str = traits.trait("search")
    search_regex: bool = traits.trait("search_regex")
    search_case: bool = traits.trait("search_case")
    highlighted: tuple[int, ...] = traits.trait("highlighted")
    legend_share: str = traits.trait("legend_share")
    judge_below: float = traits.trait("judge_below")
    fold_to_fit: bool = traits.trait("fold_to_fit")
    caller_edges: bool = traits.trait("caller_edges")
    table_mode: str = traits.trait("table_mode")
    sandwich: str = traits.trait("sandwich")
    selection: tuple[int, ...] = traits.trait("selection")
    reducer: str = traits.trait("reducer")
    size_reducer: str = traits.trait("size_reducer")
    height: int = traits.trait("height")
    units: dict[str, str] = traits.trait("units")
    _payload: dict[str, Any] = traits.trait("_payload")

    def __init__(
        self,
        data: Any,
        *,
        color_by: str | None = None,
        size_by: str | None = None,
        reducer: str = "mean",
        size_reducer: str = "auto",
        metric_kinds: dict[str, str] | None = None,
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
        if size_reducer not in SIZE_REDUCERS:
            raise ValueError(
                f"unknown size_reducer {size_reducer!r}; accepted: "
                + ", ".join(map(repr, SIZE_REDUCERS))
            )
        self._size_reducer = size_reducer  # read by _make_table before the traits exist
        self._budget = budget
        self._data = data
        self._tree = uuid.uuid4().hex  # names the full tree in the payload (see payload.encode)
        #: what the user says metrics are (see from_graphframe), kept for every new table
        self._metric_kinds = dict(metric_kinds or {})
        self._table = self._make_table(data, reducer)
        self._reduced_with = (reducer, size_reducer)
        self._lod = self._level_of_detail(self._table)
        #: where the data came from (a file, a run), recorded in exported figures
        self.source: str | None = source if source is not None else data_source(data)
        default_colour, default_size = self._default_metrics()
        super().__init__(
            _payload=self._encode(),
            reducer=reducer,
            size_reducer=size_reducer,
            color_by=color_by if color_by is not None else default_colour,
            size_by=size_by if size_by is not None else default_size,
            **kwargs,
        )
        self._start_screen()  # what is on screen: see screen.py
        self.on_msg(self._on_screen)
        self.on_msg(self._on_snapshot)  # the notebook's static picture: static_picture.py
        self.on_msg(self._on_front_end_error)  # what the view could not do: front_end_errors.py
        self.on_msg(self._on_command)
        self.on_msg(self._on_pane_command)
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
        table = self._make_table(data, self.reducer)
        self._reduced_with = (self.reducer, self.size_reducer)
        with self.hold_trait_notifications():
            # empty the node-id traits first: they are validated against the new table
            for name in ("selection", "collapsed", "highlighted"):
                setattr(self, name, ())
            self.focused = None
            self.set_trait("visible_roots", None)
            self._data, self._table = data, table
            self._tree = uuid.uuid4().hex  # other data: the front end starts a new undo history
            self._lod = self._level_of_detail(table)
            colour, size = self._default_metrics()
            if self.color_by not in table.metrics:
                self.color_by = colour
            if self.size_by not in table.metrics:
                self.size_by = size
            self._payload = self._encode()
        self._apply_state(saved)

    def _make_table(self, data: Any, reducer: str) -> NodeTable:
        """The node table of ``data`` (a subclass adds to it: the compare view's presence).
        An ensemble is reduced over its profiles with ``reducer`` by its engine first."""
        kinds = self._metric_kinds
        if type(data).__module__ == "cctviz.ensemble.ensemble":
            from ..ensemble.graphframe import PROFILES, to_graphframe

            data, reducer = to_graphframe(data, reducer), "mean"  # one row per node now
            kinds = {PROFILES: "max", **(kinds or {})}
        size = effective(self._size_reducer, reducer)
        return from_graphframe(data, reducer=reducer, metric_kinds=kinds, size_reducer=size)

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

    @property
    def table(self) -> NodeTable:
        """The node table drawn by this widget (read-only)."""
        return self._table

    @property
    def metrics(self) -> list[str]:
        """Names of the metrics that ``color_by`` and ``size_by`` accept."""
        return list(self._table.metrics)

    @property
    def metric_kinds(self) -> pd.DataFrame:
        """Each metric's kind (exclusive, inclusive, ratio, max, other), partner, and the rule
        that decided it (Caliper name, spot.metrics alias, name pair, tree check, reader…);
        ``CCT(gf, metric_kinds={...})`` overrides it."""
        return semantics.kinds_frame(self._table.metrics)

    def _default_metrics(self) -> tuple[str, str]:
        reader = getattr(self._data, "default_metric", None)
        return defaults_with(self._table, lambda t: table_defaults(t, reader))

    def to_code(self, name: str = "gf") -> str:
        """Python code that rebuilds the visible tree from the GraphFrame (or Thicket) ``name``
        with Hatchet's own ``filter``: the nodes drawn, collapsed glyphs included, aggregates and
        level-of-detail folds not, each holding the values the view shows (see ``code.py``)."""
        return code.to_code(self, name)

    # -- checks that involve several traits (each trait checks its own value: traits.py) -------
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

    # -- effects of changes --------------------------------------------------------------------
    @t.observe("selection", "highlighted", "focused", "visible_roots")
    def _load_nodes(self, change: t.Bunch) -> None:
        # under level of detail, nodes named from Python (or by another view) that the browser
        # does not have yet are sent, with their paths, in the next payload
        new = change["new"]
        if new is not None:
            self._reveal([new] if isinstance(new, int) else new)

    @t.observe("search", "search_regex", "search_case")
    def _load_matches(self, _change: t.Bunch) -> None:
        # search runs over the full tree here; matches not in the browser yet are loaded
        if self._lod is not None and self.search:
            self._reveal(self.search_matches[:MAX_LOADED_MATCHES])

    @t.observe("reducer", "size_reducer")
    def _reduce_again(self, _change: t.Bunch) -> None:
        if (self.reducer, self.size_reducer) == self._reduced_with:
            return  # the first assignment, in __init__: the table is built with it already
        self._reduced_with = (self.reducer, self.size_reducer)
        self._size_reducer = self.size_reducer
        defaults = (self.color_by, self.size_by) == self._default_metrics()
        self._table = self._make_table(self._data, self.reducer)
        revealed = None if self._lod is None else self._lod.revealed
        self._lod = self._level_of_detail(self._table)
        if self._lod is not None and revealed is not None:
            self._lod.reveal(revealed.nonzero()[0])  # the same tree: keep what was loaded
        # one message: the front end draws the new table with the metrics that name its columns
        with self.hold_sync(), self.hold_trait_notifications():
            colour, size = self._default_metrics()
            if defaults:  # the defaults stay the defaults: under imbalance, its own pair
                self.color_by, self.size_by = colour, size
            else:  # what the user chose: size follows to the companion of its metric
                self.size_by = sized_by(self._table, self.size_by) or size
                self.color_by = unreduced(self._table, self.color_by) or colour
            self._payload = self._encode()

    # -- figures -----------------------------------------------------------------------------
    def renderer_state(self) -> dict[str, Any]:
        """The view state in the front end's terms (what the renderer draws)."""
        return {spec.key: _jsonable(getattr(self, spec.trait)) for spec in VIEW_TRAITS}

    def _snapshot(self) -> ViewSnapshot:
        """What a figure of the current view needs (figures read nothing else)."""
        return ViewSnapshot(
            payload=self._payload,
            renderer_state=self.renderer_state(),
            selection=self.selection,
            stage_size=self._stage_size,
            view_transform=self._view_transform,
            height=self.height,
            units=dict(self.units),
            source=self.source,
            nodes=self._table.size,
            color_by=self.color_by,
            size_by=self.size_by,
            reducer=self._table.reducer,
            view_state=self.view_state,
        )

    def to_svg(self, **options: Any) -> str:
        """A standalone SVG of the current view, drawn by the widget's renderer in headless
        Chromium. Options as for ``save`` (``dpi`` aside); the default size is the widget's
        size on screen."""
        return figure_of(self._snapshot(), **options).svg

    def save(self, path: str | pathlib.Path, **options: Any) -> pathlib.Path:
        """Write the current view to ``path``: ``.svg``, ``.pdf`` (vector) or ``.png``.

        Options: ``width``, ``height`` (pixels, or strings with a unit: ``"3.5in"``, ``"8cm"``,
        ``"240pt"``); ``dpi`` (PNG, default 300); ``style`` (``"screen"`` or ``"paper"``:
        white, black text, thin strokes, cividis); ``font_family``; ``font_size`` (points);
        ``title``; ``units`` (metric name to unit, added to ``w.units``). The file records the
        data source, metrics, view state, cctviz version and date."""
        figure_format(path)  # a bad extension fails before any drawing
        return figure_of(self._snapshot(), **options).write(path)

    def __repr__(self) -> str:
        table = self._table
        return (
            f"CCT({table.source}: {table.size} nodes, {len(table.roots)} root(s); "
            f"color_by={self.color_by!r}, size_by={self.size_by!r})"
        )


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def data_source(data: Any) -> str | None:
    """Where ``data`` was read from, when it says: a Thicket's profile files."""
    mapping = getattr(data, "profile_mapping", None)
    if isinstance(mapping, dict) and mapping:
        return ", ".join(str(v) for v in mapping.values())
    return None


def _check_keywords(kwargs: dict[str, Any]) -> None:
    allowed = {n for n in CCT.class_trait_names() if not n.startswith("_")}
    for key in kwargs:
        if key not in allowed:
            close = difflib.get_close_matches(key, sorted(allowed | {"color_by", "size_by"}), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TypeError(f"CCT() got an unexpected keyword argument {key!r}{hint}")


def show(data: Any, **kwargs: Any) -> CCT:
    """Display ``CCT(data, **kwargs)`` in the current notebook cell and return the widget."""
    from IPython.display import display

    widget = CCT(data, **kwargs)
    display(widget)  # type: ignore[no-untyped-call]
    return widget
