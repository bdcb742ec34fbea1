"""``cctviz.compare``: a widget over the union of two runs' trees, aligned by call path, coloured
by their difference, with the contexts only one run has drawn as their own glyphs."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import traitlets as t

from ..compare import Columns, union_graphframe
from ..table import NodeTable
from .cct import CCT


class Compare(CCT):
    """Two runs in one tree: every calling context of either run, coloured by ``b − a`` on a
    diverging palette centred on 0 with a symmetric domain (or by log₂ b ÷ a, centred on a ratio
    of 1; or by each run's own values, from the toolbar's colour menu), sized by the larger of
    the two. Contexts only in ``a`` are squares, only in ``b`` hexagons; the tooltip gives both
    values, Δ, the ratio and Δ%. Each run's rows (ranks, threads) are reduced per node first."""

    def __init__(
        self,
        a: Any,
        b: Any,
        *,
        metric: str | None = None,
        reducer: str = "mean",
        labels: tuple[str, str] = ("a", "b"),
        **kwargs: Any,
    ) -> None:
        labels = _labels(labels)
        gf, union, columns, kinds = union_graphframe(a, b, metric, reducer, labels)
        #: the two runs, their names, and the columns compared
        self.runs = (a, b)
        self.labels = labels
        self.columns = columns
        self._union = union
        presence = zip(gf.dataframe.index, union.presence.tolist(), strict=True)
        self._presence_of = {id(node): int(p) for node, p in presence}
        kwargs.setdefault("color_by", columns.diff)
        kwargs.setdefault("size_by", columns.larger)
        kwargs.setdefault("source", f"{labels[0]} vs {labels[1]}")
        super().__init__(gf, metric_kinds=kinds, **kwargs)
        self._diverging({"new": self.color_by})

    def _make_table(self, data: Any, reducer: str) -> NodeTable:
        table = super()._make_table(data, reducer)
        presence = np.array([self._presence_of.get(id(n), 0) for n in table.nodes], np.int32)
        return dataclasses.replace(table, presence=presence, presence_labels=self.labels)

    @t.observe("color_by")
    def _diverging(self, change: Any) -> None:
        # a difference and a log ratio diverge from 0 (no change): a diverging palette over a
        # domain symmetric about it; a run's own values: the usual sequential one
        name = change["new"]
        if name in (self.columns.diff, self.columns.log_ratio):
            values = self.table.metrics[name].values
            finite = values[np.isfinite(values)]
            reach = float(np.abs(finite).max()) if finite.size else 0.0
            self.palette = "rdbu"
            self.color_domain = (-reach, reach) if reach > 0 else "tree"
        elif self.palette == "rdbu":
            self.palette = "auto"
            self.color_domain = "tree"

    @property
    def frame(self) -> Any:
        """The comparison as ``cctviz.compare_frame`` gives it, for these two runs."""
        from ..compare import compare_frame

        reducer = self.__dict__.get("_compare_reducer", "mean")
        return compare_frame(
            *self.runs, metric=self._compared(), reducer=reducer, labels=self.labels
        )

    def _compared(self) -> str:
        return self.columns.larger.removesuffix(" (larger run)")

    @property
    def data(self) -> Any:
        """The union of the two runs, as a Hatchet GraphFrame (read-only)."""
        return self._data

    @data.setter
    def data(self, _data: Any) -> None:
        raise TypeError(
            "a compare view shows the union of its two runs; for other runs make another "
            "with cctviz.compare(a, b)"
        )

    def to_code(self, name: str = "gf") -> str:
        raise TypeError(
            "a compare view's tree is the union of two runs, which no single GraphFrame holds; "
            "use w.view_state (call paths) or cctviz.compare_frame(a, b) for the numbers"
        )


def _labels(labels: Any) -> tuple[str, str]:
    if isinstance(labels, str) or len(tuple(labels)) != 2:
        raise ValueError(f"labels names the two runs, e.g. ('before', 'after'); got {labels!r}")
    a, b = (str(x) for x in labels)
    if a == b:
        raise ValueError(f"the two runs need different labels; got {labels!r}")
    return a, b


def compare(
    a: Any,
    b: Any,
    *,
    metric: str | None = None,
    reducer: str = "mean",
    labels: tuple[str, str] = ("a", "b"),
    **kwargs: Any,
) -> Compare:
    """A widget comparing two runs (GraphFrames or Thickets) context by context: see
    ``Compare``. ``metric`` defaults to the first inclusive metric; each run's rows are reduced
    per node with ``reducer`` first; ``labels`` name the runs in the legend and tooltips.
    ``cctviz.compare_frame`` gives the same numbers as a DataFrame."""
    w = Compare(a, b, metric=metric, reducer=reducer, labels=labels, **kwargs)
    w.__dict__["_compare_reducer"] = reducer
    return w


__all__ = ["Columns", "Compare", "compare"]
