"""A Thicket of a (small) sub-ensemble, so that Thicket's statistics, query language and
plots work on a brushed subset: one union graph of the nodes the profiles hold, a dataframe
indexed by (node, profile) with the measured metrics, the profiles' metadata."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from .graphframe import build_graph, measured

if TYPE_CHECKING:
    from ..ensemble import Ensemble

MAX_ROWS = 5_000_000
"""Value rows (node × profile) a Thicket is made of at most: Thicket holds them all in memory,
with a pandas index of node objects (~1 GB at this size)."""


def to_thicket(ens: Ensemble) -> Any:
    """The profiles of ``ens`` (an Ensemble or sub-ensemble) as a Thicket (llnl-thicket)."""
    try:
        import thicket as th
    except ImportError as error:
        raise ImportError(
            "Ensemble.to_thicket needs LLNL's Thicket: pip install llnl-thicket"
        ) from error
    profiles = ens.profiles
    if profiles.empty:
        raise ValueError(f"no profile is selected in {ens!r}: nothing to make a Thicket of")
    rows = int(pd.to_numeric(profiles["nodes"], errors="coerce").fillna(0).sum())
    if rows > MAX_ROWS:
        raise ValueError(
            f"a Thicket of {ens!r} would hold {rows:,} node values in memory (at most "
            f"{MAX_ROWS:,}): choose fewer profiles with ens.where(...) or ens.select(ids); "
            "reduce, distribution and trend work on the whole store"
        )
    kinds = ens.metrics
    names = measured(kinds)
    values = ens._engine().values(ens._where)
    tree = ens.nodes
    tree = tree[tree.index.isin(values["key"].unique())]
    graph, made = build_graph(tree)
    values = values[values["key"].isin(tree.index)]
    # Thicket's stats average every column but the node: its profile ids are numbers (as its own
    # readers make them); the store's id stays in the metadata as `cctviz_profile`
    number = {p: int(p[:15], 16) for p in profiles.index}
    df = values[["key", "profile", *names]].copy()
    df["profile"] = df["profile"].map(number)
    df.insert(0, "node", [made[int(k)] for k in df["key"]])
    df["name"] = tree.loc[df["key"], "name"].to_numpy()
    df = (
        df.drop(columns="key")
        .set_index(["node", "profile"])
        .sort_index(level=0, sort_remaining=False)
    )
    exc = [m for m in names if kinds.loc[m, "kind"] == "exclusive"]
    inc = [m for m in names if kinds.loc[m, "kind"] == "inclusive"]
    meta = profiles.copy()
    meta["cctviz_profile"] = meta.index
    meta.index = pd.Index([number[p] for p in meta.index], name="profile")
    return th.Thicket(
        graph,
        df,
        exc_metrics=exc,
        inc_metrics=inc,
        metadata=meta,
        profile=list(meta.index),
        profile_mapping={p: str(s) for p, s in meta["source"].items()},
    )
