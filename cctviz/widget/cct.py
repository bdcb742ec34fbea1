"""``CCT``: the calling context tree widget, and ``show``."""

from __future__ import annotations

import difflib
from typing import Any

import anywidget
import traitlets as t

from ..adapters import from_graphframe
from ..payload import encode
from ..table import REDUCERS, NodeTable, UnknownMetricError
from . import bundle


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
    selection = t.Tuple(help="Ids of the selected nodes, in selection order.").tag(sync=True)
    height = t.Int(520, min=200, help="Height of the view in pixels.").tag(sync=True)

    def __init__(
        self,
        data: Any,
        *,
        color_by: str | None = None,
        size_by: str | None = None,
        reducer: str = "mean",
        **kwargs: Any,
    ) -> None:
        bundle.require()
        _check_keywords(kwargs)
        if reducer not in REDUCERS:
            raise ValueError(
                f"unknown reducer {reducer!r}; accepted: {', '.join(map(repr, REDUCERS))}"
            )
        self._data = data
        self._table = from_graphframe(data, reducer=reducer)
        default_colour, default_size = self._default_metrics()
        super().__init__(
            _payload=encode(self._table),
            reducer=reducer,
            color_by=color_by if color_by is not None else default_colour,
            size_by=size_by if size_by is not None else default_size,
            **kwargs,
        )

    # -- data --------------------------------------------------------------------------------
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

    @t.validate("selection")
    def _valid_selection(self, proposal: t.Bunch) -> tuple[int, ...]:
        n = self._table.size
        ids: list[int] = []
        for value in proposal["value"]:
            if isinstance(value, bool) or not hasattr(value, "__index__"):
                raise t.TraitError(
                    f"selection holds node ids (integers from 0 to {n - 1}); got {value!r}"
                )
            i = int(value.__index__())
            if not 0 <= i < n:
                raise t.TraitError(
                    f"node id {i} is out of range: this tree has {n} nodes (ids 0 to {n - 1})"
                )
            ids.append(i)
        return tuple(dict.fromkeys(ids))

    @t.observe("reducer")
    def _reduce_again(self, change: t.Bunch) -> None:
        self._table = from_graphframe(self._data, reducer=change["new"])
        self._payload = encode(self._table)

    def __repr__(self) -> str:
        table = self._table
        return (
            f"CCT({table.source}: {table.size} nodes, {len(table.roots)} root(s); "
            f"color_by={self.color_by!r}, size_by={self.size_by!r})"
        )


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
