"""The trend pane of an ensemble's view, a part it owns (``owned.py``): the selected node's series
(the root's when nothing is selected) and its largest children's along a metadata column,
``trend_by``, as small multiples (``cctviz.widget.ensemble.trend_payload``). The metric (the colour
metric, or its inclusive partner), the reducer and the profiles passing ``where`` are the tree's. A
click on a child's chart selects it (the ``selection`` trait, as a click in the tree), and the pane
follows the selection: no message of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets as t

from ..owned import OwnedPart

if TYPE_CHECKING:
    from ...ensemble.ensemble import Ensemble
    from ..cct import CCT


class Trend(OwnedPart):
    """The trend pane of an ensemble's view: ``trend_by``, ``trend_log`` and the pane's data,
    ``_trend``."""

    _trend_of: tuple[Any, ...] | None = None
    """What ``_trend`` was computed for (data, node, metric, axis, reducer): not again."""
    _trend_profiles: tuple[str, dict[str, Any]] | None = None
    """The profiles' axes and count (``trend_payload.profiles_of``), for the data ``_tree``
    names: a new selection asks the engine for the trend only."""

    def __init__(self, view: CCT, ensemble: Ensemble) -> None:
        super().__init__(view)
        self.ensemble = ensemble

    def first(self) -> None:
        """The default axis and the first pane (after the view's traits exist)."""
        self._trend_of = None
        by = (
            self.view.trend_by
            if self.view.trend_by in self._trend_axes()
            else self._default_trend_by()
        )
        if by == self.view.trend_by:
            self._draw_trend()
        else:
            self.view.trend_by = by  # the observer draws

    def _trend_axes(self) -> list[str]:
        from .trend_payload import NOT_AXES

        return [str(c) for c in self.ensemble.profiles.columns if str(c) not in NOT_AXES]

    def _default_trend_by(self) -> str:
        from ...ensemble.analysis.trend import default_axis

        profiles = self.ensemble.profiles
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
        if self.view.selection:
            return int(self.view.selection[-1])
        if self.view.focused is not None:
            return int(self.view.focused)
        return int(self.view._table.roots[0])

    def _trend_metric(self) -> tuple[str, str | None]:
        """The stored metric the pane draws and the one its shares are of (None: no share).
        Of an exclusive colour metric, its inclusive partner: a node's line then holds its
        children's, one y scale shows what each child weighs, and the share in each title is
        of the values drawn. Else the colour metric (its partner; a colour the store has no
        column of, such as the change %: the size metric, else the first inclusive one)."""
        from ..size_reducer import unreduced

        stored = [str(m) for m in self.view._data.metrics.index]
        metrics = self.view._table.metrics
        colour = metrics.get(self.view.color_by)
        partner = colour.partner if colour is not None else None
        first = (partner, self.view.color_by) if colour and colour.kind == "exclusive" else ()
        # a colour the store does not hold (the change %, profiles): what size shows
        size = unreduced(self.view._table, self.view.size_by)
        wanted = (*first, self.view.color_by, partner, size)
        kinds = self.view._data.metrics["kind"]
        inclusive = [m for m in stored if kinds.get(m) == "inclusive"]
        metric = next((m for m in wanted if m in stored), (inclusive or stored)[0])
        inclusive = [m for m in (metric, metrics[metric].partner) if m in metrics]
        share = next((m for m in inclusive if metrics[m].kind == "inclusive"), None)
        return metric, share

    def _draw_trend(self) -> None:
        if not self.view.trend_by or not self.view._table.size:
            return
        node = self._trend_node()
        metric, share = self._trend_metric()
        of = (self.view._tree, node, metric, self.view.trend_by, self.view.reducer)
        if of == self._trend_of:
            return
        from .trend_payload import payload, profiles_of

        self.view._store_key(node)  # the keys of every node, once per table
        keys = self.view._derived.store_keys
        assert keys is not None
        if self._trend_profiles is None or self._trend_profiles[0] != self.view._tree:
            self._trend_profiles = (self.view._tree, profiles_of(self.view._data))
        profiles = self._trend_profiles[1]
        if all(a["name"] != self.view.trend_by for a in profiles["axes"]):
            return  # other data, without the column: _first_trend chooses another axis
        self.view._trend = payload(
            self.view._data,
            self.view._table,
            keys,
            node,
            metric,
            self.view.trend_by,
            self.view.reducer,
            share,
            profiles,
        )
        self._trend_of = of
