"""The reduced tree of an ensemble: one node per calling context held by a selected profile
(frames as stored), each measured metric reduced over the profiles, and ``profiles`` (how many
hold the node). ``reduced`` gives it as rows in the tree's pre-order, what ``cctviz.CCT(ens)``
builds its node table from (``cctviz.widget.ensemble.table``: the widget receives only this
reduced tree, so the bytes it is sent do not grow with the number of profiles);
``to_graphframe`` as a Hatchet GraphFrame, for scripting with Hatchet."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ...adapters.pinned import STORE_KEY
from ...core.extras import hatchet
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


@dataclass(frozen=True)
class Reduced:
    """An ensemble reduced per calling context: ``tree`` (rows of ``Ensemble.nodes`` held by a
    selected profile, in pre-order), per reducer each metric's values in the tree's order, how
    many profiles hold each node, the metrics as a reader lists them (exclusive, inclusive;
    ``profiles`` with the exclusive ones) and the ``metadata`` a GraphFrame of it carries."""

    tree: pd.DataFrame
    values: dict[str, dict[str, np.ndarray]]
    profiles: np.ndarray
    listed: tuple[list[str], list[str]]
    metadata: dict[str, str]

    def frame(self, reducer: str) -> pd.DataFrame:
        """One row per node (index ``node``: its position in ``tree``): ``name``, every metric
        reduced by ``reducer`` and ``profiles``."""
        columns: dict[str, Any] = {"name": self.tree["name"].to_numpy(object)}
        columns.update(self.values[reducer])
        columns[PROFILES] = self.profiles
        index = pd.RangeIndex(len(self.tree), name="node")
        return pd.DataFrame(columns, index=index)


def reduced(ens: Ensemble, reducers: tuple[str, ...]) -> Reduced:
    """``ens`` (an Ensemble or sub-ensemble) with every measured metric reduced by each of
    ``reducers`` (mean, sum, min, max, median, pNN, std, imbalance) over its profiles: one
    engine query per metric, all reducers at once."""
    wanted = tuple(dict.fromkeys(red.check(reducers)))
    kinds = ens.metrics
    names = measured(kinds)
    if not names:
        raise ValueError(f"the ensemble at {ens.path} has no profile yet: add some first")
    asked = tuple(dict.fromkeys((*wanted, "count")))
    got: dict[str, pd.DataFrame] = {m: ens.reduce(m, asked) for m in names}
    tree = ens.nodes
    held = np.concatenate([r.index.to_numpy() for r in got.values()])
    tree = tree[tree.index.isin(pd.Index(held))]
    values = {
        r: {m: got[m][r].reindex(tree.index).to_numpy(np.float64) for m in names} for r in wanted
    }
    counts = pd.concat([got[m]["count"] for m in names], axis=1).max(axis=1)
    profiles = counts.reindex(tree.index).fillna(0).to_numpy(np.float64)
    inc = [m for m in names if kinds.loc[m, "kind"] == "inclusive"]
    exc = [m for m in names if m not in inc]  # their kinds come with the metadata below
    metadata = {
        "cctviz.ensemble": str(ens.path),
        "cctviz.where": " and ".join(ens.filters),
        "cctviz.reducer": wanted[0],
        STORE_KEY: stored_kinds(kinds, names),
    }
    return Reduced(tree, values, profiles, ([*exc, PROFILES], inc), metadata)


def build_graph(tree: pd.DataFrame) -> tuple[Any, dict[int, Any]]:
    """A Hatchet graph of ``tree`` (rows of ``Ensemble.nodes``, parents first): the graph and
    its Node by key."""
    hatchet("showing an ensemble (cctviz.CCT(ens): its nodes are Hatchet nodes)")
    from hatchet.frame import Frame
    from hatchet.graph import Graph
    from hatchet.node import Node

    made: dict[int, Any] = {}
    roots = []
    # columns as lists, not rows: DataFrame.iterrows makes a Series a row (20k nodes: ~5 s)
    keys = tree.index.to_numpy(np.int64).tolist()
    parents = tree["parent"].to_numpy(np.int64).tolist()
    for key, parent_key, frame in zip(keys, parents, tree["frame"].tolist(), strict=True):
        parent = made.get(parent_key) if parent_key != ROOT else None
        node = Node(Frame(json.loads(frame)), parent)
        if parent is None:
            roots.append(node)
        else:
            parent.add_child(node)
        made[key] = node
    graph = Graph(roots)
    graph.enumerate_traverse()
    return graph, made


def to_graphframe(ens: Ensemble, reducer: str = "mean") -> Any:
    """A GraphFrame of ``ens`` (an Ensemble or sub-ensemble) with every measured metric reduced
    by ``reducer`` (mean, sum, min, max, median, pNN, std, imbalance) over its profiles."""
    ht = hatchet("ens.to_graphframe()")

    (reducer,) = red.check((reducer,))
    got = reduced(ens, (reducer,))
    graph, made = build_graph(got.tree)
    df = got.frame(reducer)
    df.index = pd.Index([made[int(k)] for k in got.tree.index], name="node")
    exc, inc = got.listed
    gf = ht.GraphFrame(graph, df, exc, inc)  # PROFILES: declared "max" by CCT
    gf.metadata = dict(got.metadata)
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
