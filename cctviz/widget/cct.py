"""``CCT``: the calling context tree widget, and ``show``.

``CCT`` is made of a few bases and the parts it owns. Its bases (each derives from
``part.WidgetPart``, which holds the synced traits, built from ``cctviz/contract.json`` by
``traits.py``, and the data) are what every view is: scripting (``select``, ``focus``, ...) in
``scripting.py``, the table under the reducers in ``reducers.py``, what is sent to the browser
and its requests for more in ``lod_bridge.py``, figures of the view as shown in ``figures.py``,
the page's messages in ``messages.py``. The parts it owns (``owned.py``: objects with their own
state, reacting to the view's traits and messages) are what a view has: the search
(``search.py``), the table pane (``table_pane.py``), the notebook's static picture
(``static_picture.py``) and, on an ensemble's view only, its strip, changes and trend pane
(``ensemble_parts.py``). Here: building it, swapping its data, and the parts' members users
call; ``to_code`` in ``code.py``.
"""

from __future__ import annotations

import difflib
import pathlib
import uuid
from typing import TYPE_CHECKING, Any, ClassVar

import traitlets as t

from ..core import progress
from ..view.lod import DEFAULT_BUDGET
from . import bundle, code, view_units
from .derive import Derivations
from .ensemble.parts import CLASSES as ENSEMBLE_PARTS
from .ensemble.parts import NO_CHANGES, EnsembleParts, only_for_ensembles
from .figures import Figures
from .from_path import read_path
from .messages import MessageRouter
from .owned import OwnedPart
from .per_rank import PerRank
from .reducers import STAGES, Reducers, is_ensemble
from .scripting import Scripting
from .search import Search
from .source_pane import SourcePane
from .static_picture import StaticPicture
from .table_pane import TablePane
from .traits import MetricTraitError
from .view_units import path_of

if TYPE_CHECKING:
    import pandas as pd

    from ..analysis.source_text import SourceText

__all__ = ["CCT", "MetricTraitError", "data_source", "show"]


class CCT(Scripting, Reducers, Figures, MessageRouter):
    """An interactive, bivariate calling context tree of a Hatchet GraphFrame or Thicket.

    Node colour shows ``color_by``, node area shows ``size_by``. Clicking a node selects it
    (shift-click toggles more); the selected node ids are in ``selection``. A node id is the
    node's position in ``table`` (depth-first pre-order); ``table.nodes[i]`` is its Hatchet Node.

    Parameters
    ----------
    data
        A Hatchet GraphFrame (UMD ``hatchet`` or LLNL ``llnl-hatchet``), a Thicket or a
        ``cctviz.Ensemble``; a profile file (``str`` or ``pathlib.Path``) that ``cctviz.read``
        knows (folded stacks, ``perf script`` output, callgrind: ``docs/formats.md``). Other
        files and folders are read with Hatchet first
        (``hatchet.GraphFrame.from_caliperreader(path)``, ``from_hpctoolkit(path)``, ...).
        ``cctviz.examples.load(name)`` gives bundled real profiles.
    color_by
        The metric node colour shows (default: the main exclusive metric).
    size_by
        The metric node area shows (default: its inclusive partner).
    reducer
        How a node's rows (per rank, thread or Thicket profile) make one value: ``"mean"``,
        ``"median"``, ``"sum"``, ``"min"``, ``"max"``, ``"std"`` or ``"imbalance"`` (max ÷ mean).
    size_reducer
        The reducer of the size metric when it differs (``"auto"``: one that adds up along the
        tree when ``reducer`` does not).
    metric_kinds
        What metrics are, where the profile does not say or says wrong:
        ``{"imbalance": "ratio"}`` (``exclusive``, ``inclusive``, ``ratio``, ``max``, ``other``).
    state
        A saved view (``w.view_state``, plain JSON) to restore: selection, collapsed and focused
        nodes by call path, metrics, palette, ...
    source
        Where the data comes from, shown in the view and recorded in figures (default: what the
        data says, e.g. a Thicket's files).
    budget
        How many nodes are drawn at first (level of detail: the rest load on demand); ``None``
        sends every node.
    **kwargs
        Any other view setting, by its trait name: ``selection``, ``collapsed``, ``focused``,
        ``highlighted``, ``palette``, ``height``, ``legend``, ``search``, ``table_mode``,
        ``units``, ``derived`` (metrics computed from others: ``CCT.derive``), ... (``help`` on
        ``cctviz.CCT.<name>`` says what each is).

    Notes
    -----
    Building the view of a big profile takes seconds: after one, the cell shows what it is doing
    (``cctviz.core.progress``); interrupting the kernel stops it and leaves no widget.
    """

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
        data, read_from = read_path(data)  # a profile file: cctviz.read (from_path.py)
        given_units = kwargs.pop("units", None)  # over what the data states: units.effective
        if budget is not None and (
            isinstance(budget, bool) or not isinstance(budget, int) or budget < 1
        ):
            raise ValueError(
                f"budget is the number of nodes drawn at first (at least 1), or None to send "
                f"every node; got {budget!r}"
            )
        self._budget = budget
        self._search, self._table_pane = Search(self), TablePane(self)
        self._static, self._deriver = StaticPicture(self), Derivations(self)
        self._source, self._per_rank = SourcePane(self), PerRank(self)
        own = (self._search, self._table_pane, self._static, self._deriver)
        for part in (*own, self._source, self._per_rank):
            part.bind()
        self._tree = uuid.uuid4().hex  # names the full tree in the payload (see payload.encode)
        # a big profile takes seconds: progress shows, and an interrupt leaves no widget open
        try:
            with progress.work(f"reading the {type(data).__name__}", STAGES):
                self._start_ensemble(data)
                self._first_table(data, reducer, size_reducer, metric_kinds)  # reducers.py
                derived = self._deriver.first(kwargs.pop("derived", None))  # derive.py
                progress.stage("choosing what to draw")
                self._lod = self._level_of_detail(self._table)
                self.source = source if source is not None else read_from or data_source(data)
                path = path_of(source or read_from)
                kwargs["units"] = view_units.first(self, data, path, given_units)
                default_colour, default_size = self._default_metrics()
                progress.stage("sending to the view")
                super().__init__(
                    _payload=self._encode(),
                    reducer=reducer,
                    size_reducer=size_reducer,
                    color_by=color_by if color_by is not None else default_colour,
                    size_by=size_by if size_by is not None else default_size,
                    derived=derived,
                    **kwargs,
                )
                self._first_panes()
                self._start_messages()  # every message from the page goes to its part
                if state is not None:
                    progress.stage("applying the saved view")
                    self._apply_state(state)
        except BaseException:
            if self.comm is not None:  # opened: the front end forgets the half-built view
                self.layout.close()
                self.close()
            raise

    # -- data --------------------------------------------------------------------------------
    @property
    def data(self) -> Any:
        """The GraphFrame, Thicket or Ensemble shown (of an Ensemble: the profiles passing
        ``where``). Setting another one swaps the data and keeps the view state that still
        applies (metrics it has, nodes with the same call paths); ``where`` starts empty."""
        return self._data

    @data.setter
    def data(self, data: Any) -> None:
        data, read_from = read_path(data)  # a profile file: cctviz.read
        try:
            with progress.work(f"reading the {type(data).__name__}", STAGES):
                self._start_ensemble(None)  # nothing filters the old data while...
                self.where = ""  # ...the filter goes: the new data is shown whole
                self._start_ensemble(data)
                self._swap(data)  # reducers.py
                view_units.swap(self, data, path_of(read_from or data_source(data)))
                self._first_panes()
        except BaseException:  # interrupted: the ensemble state of the data still shown
            self._start_ensemble(self._data)
            raise

    # -- the parts ---------------------------------------------------------------------------
    PARTS: ClassVar[tuple[type[OwnedPart], ...]] = (
        Search,
        TablePane,
        StaticPicture,
        Derivations,
        SourcePane,
        PerRank,
        *ENSEMBLE_PARTS,
    )
    """The classes of the parts a view may own (the router knows their messages)."""

    def _parts(self) -> list[Any]:
        ensemble = self._ens.all() if self._ens is not None else ()
        own = [self._search, self._table_pane, self._static, self._deriver]
        return [*own, self._source, self._per_rank, *ensemble]

    def _start_ensemble(self, data: Any) -> None:
        """The ensemble's parts for ``data`` (before its table is built): made for an
        Ensemble, dropped for other data."""
        if self._ens is not None:
            self._ens.drop()
            self._ens = None
        self._ensemble = data if is_ensemble(data) else None
        if self._ensemble is not None:
            self._ens = EnsembleParts.of(self, self._ensemble)

    def _first_panes(self) -> None:
        """An ensemble's strip and trend pane (after the traits exist); none for one profile."""
        if self._ens is not None:
            self._ens.first()
            return
        with self.hold_trait_notifications():
            self.strip_x = self.strip_y = self.trend_by = ""
            self._strip, self._trend = {}, {}

    @t.validate("where", "strip_x", "strip_y", "trend_by", "table_mode")
    def _for_ensembles(self, proposal: t.Bunch) -> str:
        """A view of one profile refuses what only an ensemble's takes (an ensemble's parts
        check ``where``, the strip's axes and ``trend_by`` in its view)."""
        return only_for_ensembles(proposal["trait"].name, proposal["value"], self._ens is not None)

    def _encode(self) -> dict[str, Any]:
        payload = super()._encode()
        return self._ens.changes.amend(payload) if self._ens is not None else payload

    def _ipython_display_(self) -> None:
        self._static.show_in_cell()

    # -- what users call of the parts ----------------------------------------------------------
    @property
    def search_matches(self) -> list[int]:
        """Ids of the nodes whose names match ``search`` (with ``search_regex``/``search_case``),
        in tree order."""
        return self._search.search_matches

    def search_step(self, step: int = 1) -> int | None:
        """Step to the next (``step=1``) or previous (``-1``) search match, as ▶ ◀ (Enter,
        Shift+Enter) do: after the match the last step went to, wrapping around, among the
        matches inside the focus and the visible roots. Its collapsed ancestors open (an
        ordinary change of ``collapsed``), the view moves its cursor to it and brings it into
        view. Returns its id; None when nothing matches."""
        return self._search.search_step(step)

    def search_show_all(self) -> int:
        """Open the collapsed ancestors of every search match inside the focus and the visible
        roots (under level of detail: of the first ``MAX_LOADED_MATCHES``, which are loaded),
        as the search box's "all" does. Returns how many more nodes the view draws."""
        return self._search.search_show_all()

    def callers(self, function: str, depth: int | None = None) -> pd.DataFrame:
        """The callers of ``function`` merged by name (the upper half of the sandwich): one row
        per call path up from it, ``path`` = (function, its caller, the caller's caller, ...),
        every metric summed over the contexts of ``function`` on that path (inclusive ones once
        under recursion), ``contexts`` and their ``ids``. Limited to the focused subtree."""
        return self._table_pane.callers(function, depth)

    def callees(self, function: str, depth: int | None = None) -> pd.DataFrame:
        """What ``function`` calls, merged across all its contexts (the lower half of the
        sandwich): one row per call path down from it (from its outermost occurrence on each
        path), ``path`` = (function, callee, ...), every metric summed, ``contexts``, ``ids``."""
        return self._table_pane.callees(function, depth)

    def derive(
        self, name: str, expression: str | None, kind: str = "ratio", unit: str | None = None
    ) -> None:
        """Add the metric ``name``, computed per node from the values shown (rows combined by the
        reducer; again when it changes) by ``expression``: ``+ - * /``, unary minus, parentheses
        and numbers over metric names in backquotes (``"`time` / `time (inc)`"``; a zero
        denominator gives NaN). ``kind``: ``"ratio"`` (no sums, no shares), ``"inclusive"``,
        ``"exclusive"``, ``"max"`` or ``"other"``. ``unit``: its unit (``"s"``, ``"B/s"``), in
        ``w.units``; without one, inferred where obvious: a sum or difference of metrics of one
        unit has it, a product with or division by a number keeps it, a ratio of one unit has
        none (``cctviz.analysis.derive_units``). ``expression=None`` removes it. Sets
        ``w.derived`` (docs/derived-metrics.md)."""
        self._deriver.derive(name, expression, kind, unit)

    @property
    def table_columns(self) -> list[str]:
        """The metric columns the table pane, ``table_frame`` and ``table_figure`` show:
        ``table_metrics``, or when it is () the colour and size metrics with their partners."""
        return self._table_pane.columns()

    @property
    def table_frame(self) -> pd.DataFrame:
        """What the table pane's calling-contexts table shows, every row open: one row per node
        (index ``id``) within the focus and the visible roots, in the pane's order (pre-order,
        children largest first by the first inclusive column), its ``depth`` below the top
        rows, ``name`` and the ``table_columns`` (values as in ``node_frame``). A share in the
        pane is a value divided by ``table_frame.attrs["totals"][column]`` (None: no share)."""
        return self._table_pane.table_frame()

    def table_figure(
        self, path: str | pathlib.Path | None = None, *, rows: Any = 25, **options: Any
    ) -> pathlib.Path | str:
        """A tree-table of ``table_frame`` for a paper: names indented by depth, the
        ``table_columns`` with shares, booktabs rules, written to ``path`` (``.svg``, ``.pdf``,
        ``.png``) with the provenance of ``save``; without ``path``, the SVG text. ``rows``: how
        many (the largest by the first inclusive column, with their ancestors) or a list of
        node ids. Options: ``width`` (pixels or ``"3.5in"``; default the table's own), ``style``
        (``"paper"``, default, or ``"screen"``), ``font_family``, ``font_size`` (points),
        ``title``, ``units`` (added to ``w.units``: after the column's name), ``dpi`` (PNG)."""
        return self._table_pane.table_figure(path, rows, **options)

    @property
    def profiles_selected(self) -> pd.DataFrame:
        """The profiles the tree is reduced over (those passing ``where``; all of the ensemble
        when it is ''), one row each with its metadata, as ``ens.profiles``."""
        if self._ens is None:
            raise ValueError("profiles_selected is for a widget of a cctviz.Ensemble")
        return self._ens.strip.profiles_selected

    @property
    def changes(self) -> pd.DataFrame:
        """The changes of level along the runs of the profiles shown (``where``), one row per
        (node, change), largest effect first: ``Ensemble.regressions`` of the colour metric (an
        exclusive one: each node's own changes; an inclusive one: also on the path down to
        where they happened) by the launch date (else the run), plus ``node``, the node's id in
        this tree (-1: not in it). Found when first read (seconds on a big store), then kept
        until ``where`` or the metric changes. Read-only."""
        if self._ens is None:
            raise TypeError(NO_CHANGES)
        return self._ens.changes.changes

    @property
    def explained(self) -> Any:
        """The compare view last opened on a change (``explain``, or "compare runs" in the
        Changes tab), or None. One the page opened is closed when the page opens the next (the
        view shows one at a time; each holds two runs' trees)."""
        return self._ens.changes.explained if self._ens is not None else None

    def explain(self, change: Any) -> Any:
        """The compare view (``cctviz.compare``) of the run just before ``change`` and the run
        where its new level starts, aligned by call path, focused on the changed node: ``change``
        is a row of ``w.changes`` or its position there. Kept in ``w.explained``."""
        if self._ens is None:
            raise TypeError(NO_CHANGES)
        return self._ens.changes.explain(change)

    def source_text(self, node: Any, context: int = 5) -> SourceText:
        """The source of ``node`` (an id, or anything ``select`` accepts that names one node):
        ``context`` lines before and after the line the profile records for it, with the colour
        metric's value of each line it measures (HPCToolkit's statements of its procedure).
        The file is looked for in the HPCToolkit database's ``src/`` copy (a view read from the
        database's folder, or one listed in ``source_paths``), under each folder of
        ``source_paths`` (the recorded path's longest tail first), then as recorded; a
        ``SourceNotFoundError`` lists every path tried. Read as text, never run (at most 4 MB;
        undecodable bytes replaced; a binary file is refused). ``print`` it for a listing."""
        return self._source.source_text(node, context)

    def ranks_of(self, node: Any, metric: str | None = None) -> pd.DataFrame:
        """Node ``node``'s value of ``metric`` (default: the colour metric) in each of its rows:
        one row per rank and thread (a Thicket: per profile), the dataframe's index levels but
        ``node`` as columns, then the metric. The rows of ``gf.dataframe`` for that node, as
        they are (``w.rank`` does not filter them). A profile with one row per node is a
        ``ValueError`` naming its index levels."""
        return self._per_rank.ranks_of(node, metric)

    def to_code(self, name: str = "gf") -> str:
        """Python code that rebuilds the visible tree from the GraphFrame (or Thicket) ``name``
        with Hatchet's own ``filter``: the nodes drawn, collapsed glyphs included, aggregates and
        level-of-detail folds not, each holding the values the view shows (see ``code.py``)."""
        return code.to_code(self, name)

    def __repr__(self) -> str:
        table = self._table
        return (
            f"CCT({table.source}: {table.size} nodes, {len(table.roots)} root(s); "
            f"color_by={self.color_by!r}, size_by={self.size_by!r})"
        )


def data_source(data: Any) -> str | None:
    """Where ``data`` was read from, when it says: a Thicket's profile files, an Ensemble's
    store."""
    if is_ensemble(data):
        return f"cctviz.Ensemble {data.path}"
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
