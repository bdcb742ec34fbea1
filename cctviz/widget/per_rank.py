"""Per-rank values in the view: ``w.ranks_of(id)`` (a node's rows of the colour metric, rank and
thread as columns), ``w.rank`` checked against the data (the table of one rank's rows is built
by ``reducers.py``), and the Ranks tab's request (``ranks``: the selected node's value per rank
for the rank strip, its outliers marked)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import traitlets as t

from ..analysis.ranks import RANK, check_rank, levels_beyond_node, ranks_of
from .owned import OwnedPart
from .pane_rows import as_json
from .part import Message, handles, node_of

if TYPE_CHECKING:
    import pandas as pd

MAX_RANKS = 20_000
"""At most this many ranks go to the rank strip (the first ones; the reply says how many)."""


class PerRank(OwnedPart):
    """The per-rank part of a view: ``ranks_of``, the check of ``rank``, the rank strip."""

    def ranks_of(self, node: Any, metric: str | None = None) -> pd.DataFrame:
        """See ``CCT.ranks_of``."""
        view = self.view
        if view._ensemble is not None:
            raise ValueError(
                "ranks_of is for a GraphFrame or Thicket: an Ensemble's rows are profiles "
                "(w.distribution(node) gives one value per profile)"
            )
        plain = hasattr(node, "__index__") and not isinstance(node, bool)
        ids = [int(node.__index__())] if plain else view._resolver().ids(node)
        if len(ids) != 1:
            raise ValueError(f"ranks_of needs exactly one node; {node!r} gives {len(ids)}")
        name = view.color_by if metric is None else metric
        view._table.metric(name)  # an unknown name is a clear error listing the metrics
        return ranks_of(view._table, view._data, int(ids[0]), name)

    @t.validate("rank")
    def _valid_rank(self, proposal: t.Bunch) -> int | None:
        value = proposal["value"]
        if value is None:
            return None
        if self.view._ensemble is not None:
            raise t.TraitError(
                "rank: an Ensemble's tree is reduced over its profiles, not ranks; use `where` "
                "to choose profiles"
            )
        try:
            return check_rank(self.view._data, value)
        except ValueError as error:
            raise t.TraitError(str(error)) from None

    def strip_metric(self) -> str:
        """The metric the rank strip shows: the colour metric where the dataframe has its rows,
        else the first of the size metric and the table's columns that has them (a derived
        metric, computed per node, has no value per rank); the colour metric (whose error says
        which metrics have rows) where none has."""
        view = self.view
        columns = view._data.dataframe.columns
        wanted = [view.color_by, view.size_by, *view.table_columns]
        return next((m for m in wanted if m in columns), view.color_by)

    @handles("ranks")
    def _ranks_request(self, content: Message) -> dict[str, Any]:
        """The rank strip of one node: its value per rank (threads added up)."""
        node = node_of(content)
        metric = self.strip_metric()
        frame = self.ranks_of(node, metric)
        if RANK not in frame.columns:
            levels = ", ".join(levels_beyond_node(self.view._data))
            raise ValueError(f"this profile has no ranks; its rows are per {levels}")
        threads = len(frame.columns) > 2
        per_rank = frame.groupby(RANK, sort=True)[metric].sum(min_count=1)
        values = per_rank.to_numpy(dtype=np.float64, na_value=np.nan)
        return {
            "ranks": {
                "metric": metric,
                "over": "rank (threads added up)" if threads else "rank",
                "rank": [int(r) for r in per_rank.index[:MAX_RANKS]],
                "values": as_json(values[:MAX_RANKS]),
                "outliers": [int(r) for r in per_rank.index[outliers(values)]][:MAX_RANKS],
                "count": int(values.shape[0]),
                "selected": self.view.rank,
            }
        }


def outliers(values: np.ndarray) -> np.ndarray:
    """Positions of the values beyond the quartiles ± 1.5 × the interquartile range (Tukey's
    fences; NaN is never one)."""
    finite = values[np.isfinite(values)]
    if finite.size < 4:
        return np.empty(0, dtype=np.int64)
    low, high = np.quantile(finite, [0.25, 0.75])
    spread = high - low
    with np.errstate(invalid="ignore"):
        out = (values < low - 1.5 * spread) | (values > high + 1.5 * spread)
    return np.flatnonzero(out & np.isfinite(values))
