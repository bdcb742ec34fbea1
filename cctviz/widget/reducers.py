"""How the rows of one node make its value in the view: ``reducer`` (colour), ``size_reducer``
(size, when it differs: ``size_reducer.py``) and what the user says metrics are
(``metric_kinds``). Changing a reducer builds the table again, keeps the nodes the browser has
and sends it in one message."""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any

import numpy as np
import pandas as pd
import traitlets as t

from ..adapters import semantics
from ..adapters.graphframe import STAGES as READ_STAGES
from ..adapters.graphframe import from_graphframe
from ..analysis.ranks import of_rank
from ..core import progress
from ..core.contract import REDUCERS
from ..core.table import NodeTable
from .lod_bridge import LevelOfDetailBridge
from .size_reducer import SIZE_REDUCERS, effective, sized_by, unreduced

STAGES = (*READ_STAGES, "choosing what to draw", "sending to the view")
"""What building a view's table and payload reports doing (``cctviz.core.progress``), in order."""


def is_ensemble(data: Any) -> bool:
    """Whether ``data`` is a ``cctviz.Ensemble`` (without importing DuckDB)."""
    return type(data).__module__ == "cctviz.ensemble.ensemble"


class Reducers(LevelOfDetailBridge):
    """The reducers' part of ``CCT``: the table of the data under the current reducers (and
    level of detail: a new table keeps what the browser had)."""

    _reduced_with: tuple[str, str]
    """The (reducer, size_reducer) the table was built with."""
    _metric_kinds: dict[str, str]
    """What the user says metrics are (see ``from_graphframe``), kept for every new table."""
    _rank_of_table: int | None = None
    """The rank the table was built from (``rank``; None: every rank's rows)."""

    def _first_table(
        self, data: Any, reducer: str, size_reducer: str, metric_kinds: dict[str, str] | None
    ) -> None:
        """Build the table of ``data`` before the traits exist (their checks read it)."""
        if reducer not in REDUCERS:
            raise ValueError(
                f"unknown reducer {reducer!r}; accepted: {', '.join(map(repr, REDUCERS))}"
            )
        if size_reducer not in SIZE_REDUCERS:
            raise ValueError(
                f"unknown size_reducer {size_reducer!r}; accepted: "
                + ", ".join(map(repr, SIZE_REDUCERS))
            )
        self._reduced_with = (reducer, size_reducer)
        self._metric_kinds = dict(metric_kinds or {})
        self._use(data, self._make_table(data))

    def _make_table(self, data: Any) -> NodeTable:
        """The node table of ``data`` under the reducers (a subclass adds to it: the compare
        view's presence). An ensemble is reduced over its profiles with ``reducer`` by its
        engine first."""
        reducer, size_reducer = self._reduced_with
        kinds = self._metric_kinds
        if is_ensemble(data):
            from ..ensemble.analysis.graphframe import PROFILES
            from .ensemble.table import ensemble_table

            # reduced by the engine; the tooltip says so and asks for a node's spread
            kinds = {PROFILES: "max", **(kinds or {})}
            # the store's version the numbers come from: figures and describe() record it
            self._store_version = data.version
            table = ensemble_table(data, reducer, effective(size_reducer, reducer), kinds)
            ens = self._ens
            # the changes already found for these profiles stay drawn
            return ens.changes.keep_found(data, table) if ens is not None else table
        size = effective(size_reducer, reducer)
        if self._rank_of_table is not None:  # one rank's rows (per_rank.py), the same nodes
            one, rows = of_rank(data, self._rank_of_table)
            table = from_graphframe(one, reducer=reducer, metric_kinds=kinds, size_reducer=size)
            # rows of the full dataframe, where the view reads files, modules and spreads
            first = np.where(table.first_row >= 0, rows[np.maximum(table.first_row, 0)], -1)
            return dataclasses.replace(table, first_row=first)
        return from_graphframe(data, reducer=reducer, metric_kinds=kinds, size_reducer=size)

    def _swap(self, data: Any) -> None:
        """Show ``data`` (a GraphFrame, Thicket or Ensemble) in place of what is shown, keeping
        the view state that still applies (metrics it has, nodes with the same call paths)."""
        saved = self.view_state
        # coloured by the old change metric, the view goes back to the usual palette (the new
        # profiles' changes come when the view asks for them)
        old = self._table.change_metric
        by_change = old is not None and self.color_by == old
        self._rank_of_table = None  # other data: every rank (its ranks may differ)
        table = self._make_table(data)
        with self.hold_trait_notifications():
            self.rank = None
            # empty the node-id traits first: they are validated against the new table
            for name in ("selection", "collapsed", "highlighted"):
                setattr(self, name, ())
            self.focused = None
            self.set_trait("visible_roots", None)
            self._use(data, table)
            self._tree = uuid.uuid4().hex  # other data: the front end starts a new undo history
            progress.stage("choosing what to draw")
            self._lod = self._level_of_detail(table)
            colour, size = self._default_metrics()
            if self.color_by not in table.metrics:
                self.color_by = colour
            if self.size_by not in table.metrics:
                self.size_by = size
            progress.stage("sending to the view")
            self._payload = self._encode()
        self._apply_state(saved)
        if by_change and self.color_by != self._table.change_metric and self.palette == "rdbu":
            self.palette = "auto"

    @property
    def metric_kinds(self) -> pd.DataFrame:
        """Each metric's kind (exclusive, inclusive, ratio, max, other), partner, and the rule
        that decided it (Caliper name, spot.metrics alias, name pair, tree check, reader…);
        ``CCT(gf, metric_kinds={...})`` overrides it."""
        return semantics.kinds_frame(self._table.metrics)

    def _reduced_table(self) -> NodeTable:
        """The data's table under the reducers and rank now; interrupted, the view keeps its
        table and says the reducers it was built with."""
        previous, self._reduced_with = self._reduced_with, (self.reducer, self.size_reducer)
        previous_rank, self._rank_of_table = self._rank_of_table, self.rank
        try:
            with progress.work(f"combining rows by {self.reducer}", STAGES):
                return self._make_table(self._data)
        except BaseException:
            self._reduced_with, self._rank_of_table = previous, previous_rank
            with self.hold_trait_notifications():
                self.reducer, self.size_reducer = previous
                self.rank = previous_rank
            raise

    @t.observe("reducer", "size_reducer", "rank")
    def _reduce_again(self, _change: t.Bunch) -> None:
        defaults = (self.color_by, self.size_by) == self._default_metrics()
        held = (self._reduced_with, self._rank_of_table)
        now = ((self.reducer, self.size_reducer), self.rank)
        # unchanged: the first assignment, in __init__ (the table is built with it already)
        if not self._values_again(held, now, self._reduced_table):
            return
        # one message: the front end draws the new table with the metrics that name its columns
        with self.hold_sync(), self.hold_trait_notifications():
            colour, size = self._default_metrics()
            if defaults:  # the defaults stay the defaults: under imbalance, its own pair
                self.color_by, self.size_by = colour, size
            else:  # what the user chose: size follows to the companion of its metric
                self.size_by = sized_by(self._table, self.size_by) or size
                self.color_by = unreduced(self._table, self.color_by) or colour
            self._payload = self._encode()
