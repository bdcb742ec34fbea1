"""An ensemble's changes in the widget: where the tree's metric moved to a new level along the
runs (``Ensemble.regressions`` over the profiles shown), marked in the tree by rings and held
in a colour metric of each node's relative change; ``w.changes``, ``w.explain(change)`` and the
front end's ``changes`` and ``explain`` requests (the Changes tab, "compare runs").

Finding changes reads every node's series of the store (seconds on a store of thousands of runs
and nodes), so it never delays the first picture: the view asks for them once it has drawn a new
tree (a ``changes`` request), and ``w.changes`` finds them when first read. They are kept per
(``where``, metric, axis) until the data changes."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import traitlets as t

from ...core.table import Metric, NodeTable
from ..owned import OwnedPart
from ..part import Message, handles

if TYPE_CHECKING:
    from ...ensemble.ensemble import Ensemble
    from ..cct import CCT

CAUSES = {"exclusive": 1, "inclusive only": 2}
"""A change's cause as the table's ``change_cause`` codes (0: no change; "unknown": 1)."""


def change_metric_name(basis: str) -> str:
    """The colour metric of each node's relative change of ``basis`` (percent)."""
    return f"change % ({basis})"


class Changes(OwnedPart):
    """The changes of an ensemble's view: found, drawn as rings, listed and explained."""

    _found: dict[tuple[str, str, str, tuple[str, ...]], pd.DataFrame]
    """Changes found, by (where, metric, axis, configuration columns): what ``regressions`` gave
    (node ids are added for the tree drawn, ``_with_nodes``)."""
    _explained: Any = None
    _explained_by_page = False
    """Whether ``_explained`` was opened by the page's "compare runs" (the next one closes it)."""

    def __init__(self, view: CCT, ensemble: Ensemble) -> None:
        super().__init__(view)
        self.ensemble = ensemble
        self._found = {}

    # -- what the user reads -----------------------------------------------------------------
    @property
    def changes(self) -> pd.DataFrame:
        """The view's ``changes`` (see ``CCT.changes``)."""
        return self._changes_found().copy()

    @property
    def explained(self) -> Any:
        """The view's ``explained`` (see ``CCT.explained``)."""
        return self._explained

    def explain(self, change: Any) -> Any:
        """The view's ``explain`` (see ``CCT.explain``)."""
        found = self._changes_found()
        if isinstance(change, (int, np.integer)) and not isinstance(change, bool):
            if not 0 <= int(change) < len(found):
                rows = f"{len(found)} row(s), 0 to {len(found) - 1}" if len(found) else "no row"
                raise IndexError(f"no change {int(change)}: w.changes has {rows}")
            change = found.iloc[int(change)]
        elif not isinstance(change, (pd.Series, dict)):
            raise TypeError(
                f"explain() takes a row of w.changes or its position; got {type(change).__name__}"
            )
        by = self._changes_key()[2]
        from ...ensemble.analysis.explain import explain  # the compare view (cctviz.widget.explain)

        self._explained = explain(self.view._data, change, by)
        self._explained_by_page = False
        return self._explained

    # -- finding them --------------------------------------------------------------------------
    def _changes_key(self) -> tuple[str, str, str, tuple[str, ...]]:
        """(where, metric, axis, configuration columns) of the changes the view shows: along
        ``trend_by`` (the launch date when unset), within the configurations of the profiles
        shown."""
        from ...ensemble.analysis.changes import configuration
        from ...ensemble.analysis.trend import check_axis

        by = check_axis(self.view._data.profiles, self.view.trend_by or None)
        columns = tuple(configuration(self.view._data, by))
        return self.view.where, self._change_basis(), by, columns

    def in_words(self) -> tuple[str, pd.DataFrame, str, str]:
        """What ``describe`` says of the changes: their axis, the changes, their
        configurations, the metric they are of."""
        key = self._changes_key()
        return key[2], self.changes, self._within(key), key[1]

    def _within(self, key: tuple[str, str, str, tuple[str, ...]]) -> str:
        """The configurations the changes of ``key`` were looked for in, in words ('': one)."""
        columns = list(key[3])
        if not columns:
            return ""
        groups = len(self.view._data.profiles.groupby(columns, dropna=False))
        return f"within {groups} configurations: {', '.join(columns)}" if groups > 1 else ""

    def amend(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The view's payload: its changes say the configurations they were looked for in."""
        if "changes" in payload:
            payload["changes"]["within"] = self._within(self._changes_key())
        return payload

    def _change_basis(self) -> str:
        """The metric whose changes are found: the colour metric; a colour the store does not
        hold (the change metric itself, ``profiles``) keeps the one of the table drawn, else the
        size metric."""
        stored = {str(m) for m in self.ensemble.metrics.index}
        if self.view._table.change_metric is not None and self.view.color_by not in stored:
            return self.view._table.change_metric.removeprefix("change % (").removesuffix(")")
        # the colour metric itself: an exclusive one finds each node's own changes, at the node
        # where they happened (its inclusive partner would bury a small node's change in its
        # caller's subtree); an inclusive one finds them on the path down, each with its cause
        for name in (self.view.color_by, self.view.size_by):
            if name in stored:
                return name
        raise ValueError(
            f"the colour metric {self.view.color_by!r} is not a metric of the store; changes are "
            f"found for {', '.join(sorted(stored))}"
        )

    def _changes_found(self) -> pd.DataFrame:
        """The changes of the view's key (found now if they were not yet), with their node ids
        in the tree drawn; drawn in it if they were not yet."""
        key = self._changes_key()
        if key not in self._found:
            _where, basis, by, _columns = key
            from ...ensemble.analysis.changes import regressions

            self._found[key] = regressions(self.view._data, basis, by)
        found = _with_nodes(self._found[key], self.view._store_keys())
        # drawn once: none found, nothing to draw (the view's table is not sent again)
        table = self.view._table
        if (found["node"] >= 0).any() and table.change_metric != change_metric_name(key[1]):
            self._show(_with_changes(table, found, key[1]))
        return found

    def _show(self, table: NodeTable) -> None:
        """Send ``table``, the one drawn with its changes added or taken away: the same nodes,
        so the level of detail keeps what the browser has."""
        self.view._use(self.view._data, table)
        if self.view._lod is not None:
            self.view._lod.table = table  # the change metric is of no kind: nothing to aggregate
        with self.view.hold_trait_notifications():
            if self.view.color_by == table.change_metric:
                self.view.palette = "rdbu"
            self.view._payload = self.view._encode()

    def keep_found(self, data: Any, table: NodeTable) -> NodeTable:
        """``table`` of ``data`` (the profiles shown) with the changes already found for them."""
        if not self._found:
            return table
        from ...ensemble.analysis.trend import check_axis
        from ...ensemble.store.keys import table_keys

        by = check_axis(data.profiles, self.view.trend_by or None)
        for (where, basis, axis, _columns), found in self._found.items():
            if where == self.view.where and axis == by and basis == self._change_basis():
                # the same profiles under another reducer: the same tree, its keys are known
                same = data is self.view._data and self.view._derived.store_keys is not None
                keys = self.view._store_keys() if same else table_keys(table)[0]
                found = _with_nodes(found, keys)
                return _with_changes(table, found, basis) if (found["node"] >= 0).any() else table
        return table

    @t.observe("trend_by")
    def _changes_along(self, change: t.Bunch) -> None:
        """Another axis: the rings drawn were along the old one (the view asks for the new
        axis' changes once it has drawn the table without them)."""
        if self.view._table.change_metric is None or not change["old"]:
            return
        self._show(_without_changes(self.view._table))

    @t.observe("color_by")
    def _colour_by_change(self, change: t.Bunch) -> None:
        name = self.view._table.change_metric
        if name is not None and change["new"] == name:  # diverging, centred on "no change"
            self.view.palette = "rdbu"
            return
        if str(change["old"]).startswith("change % (") and self.view.palette == "rdbu":
            self.view.palette = "auto"
        if name is not None and name != change_metric_name(self._change_basis()):
            # another metric's changes: the view asks for them once it has drawn this table
            self._show(_without_changes(self.view._table))

    # -- the page's requests ---------------------------------------------------------------------
    @handles("changes")
    def _changes_request(self, _content: Message) -> dict[str, Any]:
        """Find the changes (once per where and metric), draw them, and list them."""
        from ...ensemble.analysis import configs

        try:
            found = self._changes_found()
        except TypeError as error:
            raise ValueError(str(error)) from None
        key = self._changes_key()
        _where, basis, by, columns = key
        rows = [
            {
                "key": str(int(r.key)),
                "node": int(r.node),
                "path": [str(p) for p in r.path],
                "at": _text(r.at),
                "before": _number(r.before),
                "after": _number(r.after),
                "change": _number(r.change),
                "cause": str(r.cause),
                "config": configs.label(r.config),
                "environment": [str(e) for e in r.environment],
            }
            for r in found.itertuples(index=False)
        ]
        profiles = self.view._data.profiles
        groups = len(profiles.groupby(list(columns), dropna=False)) if columns else 1
        said = configs.sentence(list(columns), by, groups) or configs.too_short(
            profiles, by, list(columns)
        )
        return {"changes": {"metric": basis, "by": by, "rows": rows, "caution": said}}

    @handles("explain")
    def _explain_request(self, content: Message) -> dict[str, Any]:
        """Compare runs on the change at ``index`` of ``w.changes``: the compare view's model."""
        index = content.get("index")
        if isinstance(index, bool) or not isinstance(index, int):
            raise ValueError(f"explain needs the change's position in w.changes; got {index!r}")
        old = self._explained if self._explained_by_page else None
        try:
            widget = self.explain(index)
        except (IndexError, TypeError) as error:
            raise ValueError(str(error)) from None
        self._explained_by_page = True
        if old is not None:
            old.close()  # its view in the page goes with it; the new one takes its place
        return {"model": f"IPY_MODEL_{widget.model_id}"}


def _text(at: Any) -> str:
    from ...ensemble.analysis.trend import axis_text

    return axis_text(at)


def _number(value: Any) -> float | None:
    v = float(value)
    return v if np.isfinite(v) else None


def _with_nodes(found: pd.DataFrame, keys: np.ndarray) -> pd.DataFrame:
    """``found`` with column ``node``: each change's node id in the tree of ``keys`` (-1: none)."""
    ids = {int(k): i for i, k in enumerate(keys.tolist())}
    out = found.copy()
    out.insert(1, "node", np.asarray([ids.get(int(k), -1) for k in found["key"]], np.int64))
    return out


def _without_changes(table: NodeTable) -> NodeTable:
    metrics = {k: m for k, m in table.metrics.items() if k != table.change_metric}
    empty = np.empty(0, np.int32)
    return dataclasses.replace(table, metrics=metrics, change_cause=empty, change_metric=None)


def _with_changes(table: NodeTable, found: pd.DataFrame, basis: str) -> NodeTable:
    """``table`` with each node's largest change (percent; 0: none) and its cause."""
    change = np.zeros(table.size)
    cause = np.zeros(table.size, np.int32)
    first = found[found["node"] >= 0].drop_duplicates("node")  # largest effect first
    nodes = first["node"].to_numpy(np.int64)
    change[nodes] = 100 * first["change"].to_numpy(np.float64)
    cause[nodes] = [CAUSES.get(str(c), 1) for c in first["cause"]]
    name = change_metric_name(basis)
    metric = Metric(
        name=name,
        values=change,
        kind="other",
        rule="changes",
        detail=f"each node's largest change of level of {basis} along the runs (after ÷ before "
        "− 1, in %; 0: none), from Ensemble.regressions",
        share=False,
    )
    metrics = {k: m for k, m in _without_changes(table).metrics.items()}
    return dataclasses.replace(
        table, metrics={**metrics, name: metric}, change_cause=cause, change_metric=name
    )
