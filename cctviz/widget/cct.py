"""``CCT``: the calling context tree widget, and ``show``.

``CCT`` is its parts (each derives from ``part.WidgetPart``, which holds the synced traits, built
from ``cctviz/contract.json`` by ``traits.py``, and the data): scripting (``select``, ``focus``,
...) in ``scripting.py``, the table pane in ``table_pane.py``, reducers in ``reducers.py``, what
is sent to the browser and its requests for more in ``lod_bridge.py``, the search in
``search.py``, figures in ``figures.py``, the notebook's static picture in
``static_picture.py``, an ensemble's strip and changes in ``profile_strip.py`` and
``changes.py``, the page's messages in ``messages.py``; ``to_code`` in ``code.py``. Here:
building it and swapping its data.
"""

from __future__ import annotations

import difflib
import uuid
from typing import Any

from ..core import progress
from ..view.lod import DEFAULT_BUDGET
from . import bundle, code
from .changes import Changes
from .messages import MessageRouter
from .reducers import STAGES, is_ensemble
from .scripting import Scripting
from .search import Search
from .static_picture import StaticPicture
from .table_pane import TablePane
from .traits import MetricTraitError
from .trend_pane import TrendPane

__all__ = ["CCT", "MetricTraitError", "data_source", "show"]


class CCT(Scripting, Search, TablePane, Changes, TrendPane, StaticPicture, MessageRouter):
    """An interactive, bivariate calling context tree of a Hatchet GraphFrame or Thicket.

    Node colour shows ``color_by``, node area shows ``size_by``. Clicking a node selects it
    (shift-click toggles more); the selected node ids are in ``selection``. A node id is the
    node's position in ``table`` (depth-first pre-order); ``table.nodes[i]`` is its Hatchet Node.

    Parameters
    ----------
    data
        A Hatchet GraphFrame (UMD ``hatchet`` or LLNL ``llnl-hatchet``), a Thicket or a
        ``cctviz.Ensemble``; a file or folder is read with Hatchet first
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
        ``units``, ... (``help`` on ``cctviz.CCT.<name>`` says what each is).

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
        if budget is not None and (
            isinstance(budget, bool) or not isinstance(budget, int) or budget < 1
        ):
            raise ValueError(
                f"budget is the number of nodes drawn at first (at least 1), or None to send "
                f"every node; got {budget!r}"
            )
        self._budget = budget
        self._tree = uuid.uuid4().hex  # names the full tree in the payload (see payload.encode)
        # a big profile takes seconds: progress shows, and an interrupt leaves no widget open
        try:
            with progress.work(f"reading the {type(data).__name__}", STAGES):
                self._start_ensemble(data)  # profile_strip.py
                self._first_table(data, reducer, size_reducer, metric_kinds)  # reducers.py
                progress.stage("choosing what to draw")
                self._lod = self._level_of_detail(self._table)
                self.source = source if source is not None else data_source(data)
                default_colour, default_size = self._default_metrics()
                progress.stage("sending to the view")
                super().__init__(
                    _payload=self._encode(),
                    reducer=reducer,
                    size_reducer=size_reducer,
                    color_by=color_by if color_by is not None else default_colour,
                    size_by=size_by if size_by is not None else default_size,
                    **kwargs,
                )
                self._first_strip()
                self._first_trend()  # trend_pane.py
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
        try:
            with progress.work(f"reading the {type(data).__name__}", STAGES):
                self._start_ensemble(None)  # nothing filters the old data while...
                self.where = ""  # ...the filter goes: the new data is shown whole
                self._start_ensemble(data)
                self._swap(data)  # reducers.py
                self._first_strip()
                self._first_trend()
        except BaseException:  # interrupted: the ensemble state of the data still shown
            self._start_ensemble(self._data)
            raise

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
