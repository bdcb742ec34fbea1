"""The trend pane of an ensemble view: the selected node's series (the root's when nothing is
selected) and its largest children's along a metadata column, ``trend_by``, as small multiples
(``cctviz.widget.trend_payload``). The metric (the colour metric, or its inclusive partner),
the reducer and the profiles passing ``where`` are the tree's. A click on a child's chart
selects it (the ``selection`` trait, as a click in the tree), and the pane follows the
selection: no message of its own."""

from __future__ import annotations

from typing import Any

import traitlets as t

from .part import WidgetPart


class TrendPane(WidgetPart):
    """The trend part of ``CCT``: ``trend_by``, ``trend_log`` and the pane's data, ``_trend``."""

    _trend_of: tuple[Any, ...] | None = None
    """What ``_trend`` was computed for (data, node, metric, axis, reducer): not again."""
    _trend_profiles: tuple[str, dict[str, Any]] | None = None
    """The profiles' axes and count (``trend_payload.profiles_of``), for the data ``_tree``
    names: a new selection asks the engine for the trend only."""

    def _first_trend(self) -> None:
        """The default axis and the first pane (after the traits exist); none for a
        GraphFrame or Thicket."""
        self._trend_of = None
        if self._ensemble is None:
            with self.hold_trait_notifications():
                self.trend_by = ""
                self._trend = {}
            return
        by = self.trend_by if self.trend_by in self._trend_axes() else self._default_trend_by()
        if by == self.trend_by:
            self._draw_trend()
        else:
            self.trend_by = by  # the observer draws

    def _trend_axes(self) -> list[str]:
        from .trend_payload import NOT_AXES

        if self._ensemble is None:
            return []
        return [str(c) for c in self._ensemble.profiles.columns if str(c) not in NOT_AXES]

    def _default_trend_by(self) -> str:
        from ..ensemble.analysis.trend import default_axis

        if self._ensemble is None:  # a single profile's view: no axis
            return ""
        profiles = self._ensemble.profiles
        try:
            return default_axis(profiles)
        except ValueError:  # no date nor run: the first varying number (or column), if any
            from .trend_payload import axis_kind

            columns = self._trend_axes()
            varying = [c for c in columns if profiles[c].nunique(dropna=True) > 1] or columns
            numbers = [c for c in varying if axis_kind(profiles[c]) != "category"]
            return next(iter(numbers or varying), "")

    @t.validate("trend_by")
    def _valid_trend_by(self, proposal: t.Bunch) -> str:
        name = str(proposal["value"])
        if self._ensemble is None:
            if name:
                raise t.TraitError(
                    "trend_by is for a widget of a cctviz.Ensemble; this widget shows a single "
                    "GraphFrame or Thicket"
                )
            return name
        columns = self._trend_axes()
        if name not in columns:
            raise t.TraitError(
                f"trend_by must be a metadata column of the ensemble; got {name!r}; columns: "
                + ", ".join(map(repr, columns))
            )
        return name

    @t.observe("trend_by", "selection", "color_by", "_payload")
    def _trend_changed(self, _change: t.Bunch) -> None:
        self._draw_trend()

    def _trend_node(self) -> int:
        """The node the trend pane shows: the last selected, else the focused node, else the
        first root."""
        if self.selection:
            return int(self.selection[-1])
        if self.focused is not None:
            return int(self.focused)
        return int(self._table.roots[0])

    def _trend_metric(self) -> tuple[str, str | None]:
        """The stored metric the pane draws and the one its shares are of (None: no share).
        Of an exclusive colour metric, its inclusive partner: a node's line then holds its
        children's, one y scale shows what each child weighs, and the share in each title is
        of the values drawn. Else the colour metric (its partner; a colour the store has no
        column of, such as the change %: the size metric, else the first inclusive one)."""
        from .size_reducer import unreduced

        stored = [str(m) for m in self._data.metrics.index]
        metrics = self._table.metrics
        colour = metrics.get(self.color_by)
        partner = colour.partner if colour is not None else None
        first = (partner, self.color_by) if colour and colour.kind == "exclusive" else ()
        # a colour the store does not hold (the change %, profiles): what size shows
        size = unreduced(self._table, self.size_by)
        wanted = (*first, self.color_by, partner, size)
        kinds = self._data.metrics["kind"]
        inclusive = [m for m in stored if kinds.get(m) == "inclusive"]
        metric = next((m for m in wanted if m in stored), (inclusive or stored)[0])
        inclusive = [m for m in (metric, metrics[metric].partner) if m in metrics]
        share = next((m for m in inclusive if metrics[m].kind == "inclusive"), None)
        return metric, share

    def _draw_trend(self) -> None:
        if self._ensemble is None or not self.trend_by or not self._table.size:
            return
        node = self._trend_node()
        metric, share = self._trend_metric()
        of = (self._tree, node, metric, self.trend_by, self.reducer)
        if of == self._trend_of:
            return
        from .trend_payload import payload, profiles_of

        self._store_key(node)  # the keys of every node, once per table
        keys = self._derived.store_keys
        assert keys is not None
        if self._trend_profiles is None or self._trend_profiles[0] != self._tree:
            self._trend_profiles = (self._tree, profiles_of(self._data))
        profiles = self._trend_profiles[1]
        if all(a["name"] != self.trend_by for a in profiles["axes"]):
            return  # other data, without the column: _first_trend chooses another axis
        self._trend = payload(
            self._data,
            self._table,
            keys,
            node,
            metric,
            self.trend_by,
            self.reducer,
            share,
            profiles,
        )
        self._trend_of = of
