"""The reduced tree of an ensemble as a Hatchet GraphFrame: one node per calling context held by
a selected profile (frames as stored), one row per node with each measured metric reduced over
the profiles, and ``profiles`` (how many hold the node). ``cctviz.CCT(ens)`` draws it: the
widget receives only this reduced tree, through the same node table as a single profile, so the
bytes it is sent do not grow with the number of profiles."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ...adapters.pinned import STORE_KEY
from ..engine import reducers as red
from ..store.keys import ROOT

if TYPE_CHECKING:
    from ..ensemble import Ensemble

# cctviz's derived inclusive metrics: derived again from the reduced tree
DERIVED = "(derived)"
PROFILES = "profiles"  # the column of how many profiles hold a node


def measured(metrics: pd.DataFrame) -> list[str]:
    """The metrics a reader gave (not those cctviz derived at ingest)."""
    return [m for m in metrics.index if DERIVED not in str(m)]


def build_graph(tree: pd.DataFrame) -> tuple[Any, dict[int, Any]]:
    """A Hatchet graph of ``tree`` (rows of ``Ensemble.nodes``, parents first): the graph and
    its Node by key."""
    from hatchet.frame import Frame
    from hatchet.graph import Graph
    from hatchet.node import Node

    made: dict[int, Any] = {}
    roots = []
    for key, row in tree.iterrows():
        parent = made.get(int(row["parent"])) if row["parent"] != ROOT else None
        node = Node(Frame(json.loads(row["frame"])), parent)
        if parent is None:
            roots.append(node)
        else:
            parent.add_child(node)
        made[int(key)] = node
    graph = Graph(roots)
    graph.enumerate_traverse()
    return graph, made


def to_graphframe(ens: Ensemble, reducer: str = "mean") -> Any:
    """A GraphFrame of ``ens`` (an Ensemble or sub-ensemble) with every measured metric reduced
    by ``reducer`` (mean, sum, min, max, median, pNN, std, imbalance) over its profiles."""
    import hatchet as ht

    (reducer,) = red.check((reducer,))
    kinds = ens.metrics
    names = measured(kinds)
    if not names:
        raise ValueError(f"the ensemble at {ens.path} has no profile yet: add some first")
    columns: dict[str, pd.Series] = {}
    held: pd.Series | None = None
    for metric in names:
        reduced = ens.reduce(metric, (reducer, "count"))
        columns[metric] = reduced[reducer]
        held = reduced["count"] if held is None else held.combine(reduced["count"], max, 0)
    tree = ens.nodes
    keep = tree.index.isin(pd.Index(np.concatenate([c.index.to_numpy() for c in columns.values()])))
    tree = tree[keep]
    graph, made = build_graph(tree)
    nodes = [made[int(k)] for k in tree.index]
    df = pd.DataFrame({"node": nodes, "name": tree["name"].tolist()})
    for metric, values in columns.items():
        df[metric] = values.reindex(tree.index).to_numpy(np.float64)
    counts = held if held is not None else pd.Series(dtype=float)
    df[PROFILES] = counts.reindex(tree.index).fillna(0).to_numpy(np.float64)
    df = df.set_index("node")
    inc = [m for m in names if kinds.loc[m, "kind"] == "inclusive"]
    exc = [m for m in names if m not in inc]  # their kinds come with the metadata below
    gf = ht.GraphFrame(graph, df, [*exc, PROFILES], inc)  # PROFILES: declared "max" by CCT
    gf.metadata = {
        "cctviz.ensemble": str(ens.path),
        "cctviz.where": " and ".join(ens.filters),
        "cctviz.reducer": reducer,
        STORE_KEY: stored_kinds(kinds, names),
    }
    return gf


def stored_kinds(kinds: pd.DataFrame, names: list[str]) -> str:
    """The store's kind and partner of each of ``names`` as JSON (cctviz.adapters.pinned: the
    view pairs an exclusive metric with its measured inclusive partner as one profile's view
    does; the reduced tree has no metadata of the profiles' to pair them by)."""
    out = {}
    for m in names:
        partner = kinds.loc[m, "partner"] if "partner" in kinds.columns else None
        out[m] = [str(kinds.loc[m, "kind"]), partner if isinstance(partner, str) else None]
    return json.dumps(out)
