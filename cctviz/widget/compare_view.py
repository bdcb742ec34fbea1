"""``cctviz.compare``: a widget over the union of two runs' trees, aligned by call path, coloured
by their difference, with the contexts only one run has drawn as their own glyphs."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import traitlets as t

from ..adapters.derived import SUFFIX
from ..analysis.compare import Columns, union_of
from ..core.judge import too_small
from ..core.table import NodeTable
from ..view import selection as sel
from .cct import CCT
from .size_reducer import effective


class Compare(CCT):
    """Runs in one tree: every calling context of any run, aligned by call path. Two runs are
    coloured by ``b − a`` on a diverging palette centred on 0 over a symmetric domain, more by
    log₂ last ÷ first (centred on a ratio of 1); the toolbar's colour menu switches to the ratio,
    Δ%, parallel efficiency (process-count labels) or a run's own values. Nodes are sized by the
    largest run. Contexts only in the first run are squares, those missing from the first
    hexagons (two runs: only in a, only in b); the tooltip gives every run's value and a series
    across the runs. Each run's rows (ranks, threads, profiles) are reduced per node first.
    A scaling study (process counts from the runs' metadata or numeric labels) gets its
    parallel efficiency, strong or weak (``scaling``: told by the metadata where it can,
    ``cctviz.analysis.scaling``; ``self.columns.scaling`` says which)."""

    def __init__(
        self,
        runs: list[Any],
        *,
        metric: str | None = None,
        reducer: str = "mean",
        labels: Any = None,
        scaling: str | None = "auto",
        **kwargs: Any,
    ) -> None:
        names = _labels(labels, len(runs))
        self._union = union_of(runs, metric, reducer, names, scaling)
        columns, kinds = self._union.columns, self._union.kinds
        #: the runs, their names, and the columns compared
        self.runs = tuple(runs)
        self.labels = names
        self.columns = columns
        self._reduced_runs = reducer
        self._compared_metric = columns.larger.rsplit(" (", 1)[0]
        kwargs.setdefault("color_by", columns.diff if len(runs) == 2 else columns.log_ratio)
        kwargs.setdefault("size_by", columns.larger)
        kwargs.setdefault("source", " vs ".join(names))
        self._user_kinds = dict(kwargs.pop("metric_kinds", None) or {})
        super().__init__(
            self._union.graphframe, metric_kinds={**kinds, **self._user_kinds}, **kwargs
        )
        self._diverging(None)

    def _make_table(self, data: Any) -> NodeTable:
        """The union's table, built from the runs' node tables (``data``, the union as a
        GraphFrame, is not read again)."""
        reducer, size_reducer = self._reduced_with
        size = effective(size_reducer, reducer)
        table = self._union.table(reducer, self._metric_kinds, size)
        # a difference or the largest run (and their derived partners) add up, with no share
        no_share = self.columns.no_share
        metrics = {}
        for name, m in table.metrics.items():
            rule, detail = _compared(m, self)
            share = name.removesuffix(SUFFIX) not in no_share and m.share
            metrics[name] = dataclasses.replace(m, share=share, rule=rule, detail=detail)
        return dataclasses.replace(table, metrics=metrics)

    @t.observe("color_by", "size_by", "judge_below")
    def _diverging(self, _change: Any) -> None:
        # a difference and a log ratio diverge from 0 (no change): a diverging palette over a
        # domain symmetric about it; a run's own values: the usual sequential one
        name = self.color_by
        if name in (self.columns.diff, self.columns.log_ratio):
            values = self.table.metrics[name].values[self._judged()]
            finite = values[np.isfinite(values)]
            reach = float(np.abs(finite).max()) if finite.size else 0.0
            self.palette = "rdbu"
            self.color_domain = (-reach, reach) if reach > 0 else "tree"
        elif self.palette == "rdbu":
            self.palette = "auto"
            self.color_domain = "tree"

    def _judged(self) -> np.ndarray:
        """The nodes the colour scale spans: under a ratio, those not too small to judge (as the
        view draws them grey, see cctviz.core.judge); every node otherwise."""
        small = too_small(self.table, self.color_by, self.size_by, self.judge_below)
        return np.ones(self.table.size, dtype=bool) if small is None else ~small

    @property
    def frame(self) -> Any:
        """The first and the last run compared as ``cctviz.compare_frame`` gives it."""
        from ..analysis.compare import compare_frame

        first, last = self.runs[0], self.runs[-1]
        labels = (self.labels[0], self.labels[-1])
        metric = self._compared_metric
        return compare_frame(first, last, metric=metric, reducer=self._reduced_runs, labels=labels)

    @property
    def data(self) -> Any:
        """The union of the runs, as a Hatchet GraphFrame (read-only)."""
        return self._data

    @data.setter
    def data(self, _data: Any) -> None:
        raise TypeError(
            "a compare view shows the union of its runs; for other runs make another "
            "with cctviz.compare(a, b)"
        )

    def to_code(self, name: str = "gf") -> str:
        raise TypeError(
            "a compare view's tree is the union of two runs, which no single GraphFrame holds; "
            "use w.view_state (call paths) or cctviz.compare_frame(a, b) for the numbers"
        )


def _labels(labels: Any, count: int) -> tuple[str, ...]:
    """The runs' names: given, or "a", "b" for two runs and "1", "2", ... for more."""
    if labels is None:
        return ("a", "b") if count == 2 else tuple(str(k + 1) for k in range(count))
    if isinstance(labels, str) or len(tuple(labels)) != count:
        raise ValueError(
            f"labels names the {count} runs, one each, e.g. {('before', 'after')!r}; got {labels!r}"
        )
    names = tuple(str(x) for x in labels)
    if len(set(names)) != count:
        raise ValueError(f"the runs need different labels; got {labels!r}")
    return names


def _runs(a: Any, b: Any, groupby: str | None) -> tuple[list[Any], list[str] | None]:
    """The runs to compare, and their names when they come from a Thicket's metadata."""
    if groupby is not None:
        if b is not None or not sel.is_thicket(a):
            raise TypeError(
                "groupby splits one Thicket by a metadata column: compare(tk, groupby=...)"
            )
        if groupby not in a.metadata.columns:
            listed = ", ".join(map(repr, a.metadata.columns))
            raise ValueError(f"the Thicket has no metadata column {groupby!r}; it has {listed}")
        groups = a.groupby(groupby)
        if len(groups) < 2:
            raise ValueError(
                f"{groupby!r} has one value only ({list(groups)!r}): nothing to compare"
            )
        keys = list(groups)
        return [groups[k] for k in keys], [
            str(k[0] if isinstance(k, tuple) and len(k) == 1 else k) for k in keys
        ]
    if b is None:
        if isinstance(a, (list, tuple)):
            if len(a) < 2:
                raise ValueError(f"compare needs at least two runs; got {len(a)}")
            return list(a), None
        raise TypeError(
            "compare needs two runs (compare(a, b)), a list of runs, or a Thicket with groupby="
        )
    return [a, b], None


def compare(
    a: Any,
    b: Any = None,
    *,
    metric: str | None = None,
    reducer: str = "mean",
    labels: Any = None,
    groupby: str | None = None,
    scaling: str | None = "auto",
    **kwargs: Any,
) -> Compare:
    """A widget comparing runs context by context: ``compare(a, b)`` for two GraphFrames or
    Thickets, ``compare([gf1, gf2, gf3], labels=[1, 27, 512])`` for a series (a scaling study),
    ``compare(tk, groupby="compiler")`` for a Thicket's groups (each group's mean over its
    profiles under the default reducer). ``metric`` defaults to the first inclusive metric (of
    a Caliper profile, the mean per rank, not the total over ranks); each run's rows are reduced
    per node with ``reducer`` first; ``labels`` name the runs. Runs on different process counts
    (metadata ``mpi.world.size``/``jobsize``, else numeric labels) get a parallel efficiency:
    ``scaling="strong"`` (t₁·p₁ ÷ tₙ·pₙ), ``"weak"`` (t₁ ÷ tₙ), ``"auto"`` (the metadata's
    problem size tells; an error asks when it cannot) or None (none).
    ``cctviz.compare_frame`` gives two runs' numbers as a DataFrame."""
    runs, names = _runs(a, b, groupby)
    return Compare(
        runs,
        metric=metric,
        reducer=reducer,
        labels=labels if labels is not None else names,
        scaling=scaling,
        **kwargs,
    )


__all__ = ["Columns", "Compare", "compare"]


def _compared(m: Any, view: Compare) -> tuple[str, str]:
    """The rule of a compare view's own columns: the compare view decided their kinds (the runs'
    metric's kind for what adds up, ratio for ratios), not the user's ``metric_kinds``."""
    if m.rule != "declared" or m.name in view._user_kinds:
        return m.rule, m.detail
    what = "a ratio of runs" if m.kind in ("ratio", "max") else f"as {view._compared_metric!r} is"
    return "compare", f"{m.name!r}: {m.kind}, {what}"
