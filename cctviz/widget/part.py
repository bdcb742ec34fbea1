"""``WidgetPart``: what every base of ``CCT`` shares, declared once.

``CCT``'s bases, one concept each (scripting, reducers, level of detail, figures, the page's
messages), derive from ``WidgetPart``, which holds what they and the parts the view owns
(``owned.py``) read in common: the synced traits (built from ``cctviz/contract.json``), the data
and its node table, the level of detail, the view tree's name, and what is worked out from the
table and kept (``Derived``). The table changes in one place, ``_use``, which drops all of that
at once.

A base or an owned part answers a message kind of the contract by marking a method with
``handles(kind)``; the message router (``messages.py``) sends each message to the one method that
handles its kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import pandas as pd
import traitlets as t

from ..adapters.metrics import table_defaults
from ..analysis import derive
from ..analysis.merged import MergedTrees
from ..core.contract import MESSAGES
from ..core.table import NodeTable
from ..view import selection as sel
from ..view import state as view
from ..view.lod import LevelOfDetail
from . import bundle, traits
from .size_reducer import defaults_with

if TYPE_CHECKING:
    from ..ensemble.ensemble import Ensemble
    from .ensemble.parts import EnsembleParts

Message = dict[str, Any]
"""A message from the front end, as the router passes it on: a dict whose ``type`` is a kind
of the contract."""

HANDLES = "_cctviz_handles"
"""The attribute ``handles`` sets on a method: the message kind it answers."""

F = TypeVar("F", bound=Callable[..., Any])


def handles(kind: str) -> Callable[[F], F]:
    """Mark a part's method as the handler of the front end's messages of ``kind`` (a kind of
    ``contract.json`` that the front end sends). A request (a kind whose fields include ``id``)
    is answered with the fields the method returns; a report's method returns None."""
    if MESSAGES.get(kind, {}).get("from") != "front end":
        raise KeyError(f"{kind!r} is not a message kind the front end sends (cctviz/contract.json)")

    def mark(method: F) -> F:
        setattr(method, HANDLES, kind)
        return method

    return mark


def node_of(content: Message) -> int:
    """The node id a request names (what it asks for checks it against the table)."""
    node = content.get("node")
    if isinstance(node, bool) or not isinstance(node, int):
        raise ValueError(f"{content.get('type')} needs a node id; got {node!r}")
    return node


@dataclass
class Derived:
    """What the parts work out from the node table and keep until the table changes."""

    resolver: sel.Resolver | None = None
    """Ids of what ``select`` accepts (scripting.py)."""
    merged: dict[Any, MergedTrees] = field(default_factory=dict)
    """The table pane's merged trees, by scope: (focused, visible_roots), None for all."""
    where: list[str | None] | None = None
    """The module (or file) of each node (None: the profile does not say), once ``where_read``."""
    where_read: bool = False
    store_keys: np.ndarray | None = None
    """An ensemble's tree: the store's key of each node (matched by call path), once asked."""


class WidgetPart(bundle.PackedWidget):
    """The base of every part of ``CCT``: its synced traits and data (see the module's doc)."""

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
    table_metrics: tuple[str, ...] = traits.trait("table_metrics")
    selection: tuple[int, ...] = traits.trait("selection")
    reducer: str = traits.trait("reducer")
    size_reducer: str = traits.trait("size_reducer")
    rank: int | None = traits.trait("rank")
    source_paths: list[str] = traits.trait("source_paths")
    height: int = traits.trait("height")
    units: dict[str, str] = traits.trait("units")
    derived: dict[str, dict[str, str]] = traits.trait("derived")
    where: str = traits.trait("where")
    strip_x: str = traits.trait("strip_x")
    strip_y: str = traits.trait("strip_y")
    _strip: dict[str, Any] = traits.trait("_strip")
    trend_by: str = traits.trait("trend_by")
    trend_log: bool = traits.trait("trend_log")
    _trend: dict[str, Any] = traits.trait("_trend")
    _static_follows: bool = traits.trait("_static_follows")
    _payload: dict[str, Any] = traits.trait("_payload")
    _search_count: dict[str, Any] = traits.trait("_search_count")

    # the data (``CCT.__init__`` sets them; ``_use`` swaps the data and its table)
    _data: Any
    """The GraphFrame or Thicket shown (for an Ensemble: the sub-ensemble ``where`` selects)."""
    _ensemble: Ensemble | None = None
    """The Ensemble the widget was given, whose profiles its strip draws (``where`` filters it:
    ``ensemble/strip.py``); None for a GraphFrame or Thicket."""
    _ens: EnsembleParts | None = None
    """An ensemble's parts of the view (its strip, changes and trend pane), None for a
    GraphFrame or Thicket (``ensemble_parts.py``)."""
    _store_version: int | None = None
    """The version of the ensemble's store that the drawn numbers were reduced from."""
    _table: NodeTable
    """Its node table, under the current reducers."""
    _derived: Derived
    """What the parts worked out from ``_table``."""
    _derivations: dict[str, derive.Definition] = {}  # noqa: RUF012 (replaced, never changed)
    """The derived metrics (``CCT.derive``, the ``derived`` trait) every table gets in ``_use``."""
    _lod: LevelOfDetail | None
    """Which nodes the browser has; None: all of them (the tree is within the budget)."""
    _budget: int | None
    """Nodes sent to the browser at first (None: all)."""
    _tree: str
    """Names the full tree in the payload: other data starts a new undo history in the view."""
    source: str | None
    """Where the data came from (a file, a run), recorded in exported figures."""

    def _use(self, data: Any, table: NodeTable) -> None:
        """Show ``data`` through ``table``: the one place the table changes. What the parts
        worked out from the table before is dropped here, so no part reads a stale one. The
        derived metrics (``derived``) are computed again from its values here."""
        table, left_out = derive.apply(table, self._derivations)
        self._data, self._table = data, table
        self._derived = Derived()
        if left_out:  # other data, or another reducer's companions: their inputs are gone
            kept = {k: d for k, d in self._derivations.items() if k not in left_out}
            self._derivations = kept
            self.set_trait("derived", {k: d.as_json() for k, d in kept.items()})
            units = self.units
            if any(k in units for k in left_out):  # their units go with them
                self.set_trait("units", {k: v for k, v in units.items() if k not in left_out})

    def _resolver(self) -> sel.Resolver:
        """Node ids of what ``select`` accepts, for the current table."""
        if self._derived.resolver is None:
            self._derived.resolver = sel.Resolver(self._table, self._data)
        return self._derived.resolver

    def _store_key(self, node: int) -> int:
        """An ensemble's tree: the store's key of node ``node`` (its call path's key)."""
        return int(self._store_keys()[node])

    def _store_keys(self) -> np.ndarray:
        """An ensemble's tree: the store's key of each node (matched by call path)."""
        if self._derived.store_keys is None:
            from ..ensemble.store.keys import table_keys

            self._derived.store_keys = table_keys(self._table)[0]
        return self._derived.store_keys

    def _profile_values(self, node: int, metric: str) -> Any:
        """An ensemble's tree: node ``node``'s values of ``metric`` over the profiles reduced
        (those passing ``where``), one per profile (a Series indexed by ``profile``), asked of
        the store's engine with the node's key."""
        stored = [str(m) for m in self._data.metrics.index]
        if metric not in stored:
            raise ValueError(
                f"{metric!r} is not a metric of the ensemble's store (cctviz derived it for the "
                f"tree); per-profile values exist for {', '.join(map(repr, stored))}"
            )
        values = self._data.distribution(self._store_key(node), metric)["value"]
        return values.rename(metric)

    def _named_profiles(self, values: Any) -> Any:
        """``values`` (indexed by profile id) with each profile named by its launch date (or
        run) instead: what a tooltip says of the profile holding the max."""
        from ..ensemble.analysis.trend import TIME_AXES, axis_text

        profiles = self._data.profiles
        axis = next((a for a in TIME_AXES if a in profiles.columns), None)
        if axis is None:
            return values
        at = profiles[axis].reindex(values.index)
        labels = [f"{axis} {axis_text(v)}" if pd.notna(v) else str(p) for p, v in at.items()]
        return values.set_axis(pd.Index(labels, name="profile"))

    def _default_metrics(self) -> tuple[str, str]:
        """The (colour, size) metrics a view of this data starts with."""
        reader = getattr(self._data, "default_metric", None)
        return defaults_with(self._table, lambda t: table_defaults(t, reader))

    @property
    def table(self) -> NodeTable:
        """The node table drawn by this widget (read-only)."""
        return self._table

    @property
    def metrics(self) -> list[str]:
        """Names of the metrics that ``color_by`` and ``size_by`` accept."""
        return list(self._table.metrics)

    @property
    def loaded(self) -> np.ndarray:
        """Ids of the nodes the browser has (all of them below the budget)."""
        if self._lod is None:
            return np.arange(self._table.size)
        return np.flatnonzero(self._lod.revealed)

    @property
    def view_state(self) -> dict[str, Any]:
        """The whole view state as a JSON-serialisable dict (nodes given by call path);
        ``cctviz.CCT(gf, state=w.view_state)`` restores it, also on another run's GraphFrame."""
        return view.to_json(self)

    def _apply_state(self, state: dict[str, Any]) -> None:
        if isinstance(state, dict) and "derived" in state:  # before the metrics naming them
            self.derived = derive.restorable(state["derived"], self._table)
            state = {k: v for k, v in state.items() if k != "derived"}
        values = view.from_json(state, self._table, self.metrics)
        if "reducer" in values:
            self.reducer = values.pop("reducer")
        # an Ensemble's strip and trend axes: skipped on a single profile, and each left out
        # where this ensemble does not offer it (its validator says why)
        axes = {name: values.pop(name) for name in view.ENSEMBLE_TRAITS if name in values}
        with self.hold_sync():
            for name, value in values.items():
                setattr(self, name, value)
            if getattr(self, "_ensemble", None) is None:
                return
            for name, value in axes.items():
                try:
                    setattr(self, name, value)
                except t.TraitError:
                    continue
