"""The imbalance a view's summary tells (``w.describe()``): per node, the colour metric's max ÷
mean over the rows the view combined (ranks and threads of a GraphFrame, profiles of a Thicket)
or over an ensemble's profiles (asked of its engine), by the same reducer as ``reducer=
"imbalance"``. None where there is nothing to tell: one row per node, or a view whose colour is
the imbalance already."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..adapters.graphframe import from_graphframe


def of_view(w: Any, ensemble: bool) -> tuple[str, np.ndarray] | None:
    """(what the values are over, max ÷ mean per node of the view's table) or None."""
    table, metric = w._table, w.color_by
    if table.reducer == "imbalance":
        return None
    if ensemble:
        ens = w._data
        if metric not in {str(m) for m in ens.metrics.index} or len(ens) < 2:
            return None
        reduced = ens.reduce(metric, ("imbalance",))
        return "profiles", reduced["imbalance"].reindex(w._store_keys()).to_numpy(np.float64)
    df = getattr(w._data, "dataframe", None)
    levels = [str(n) for n in getattr(getattr(df, "index", None), "names", []) if n != "node"]
    if not levels or metric not in getattr(df, "columns", ()):
        return None
    ratio = from_graphframe(w._data, reducer="imbalance", metric_kinds=w._metric_kinds)
    if ratio.size != table.size:  # another tree than the view's: nothing to match
        return None
    return " and ".join(f"{level}s" for level in levels), ratio.metrics[metric].values
