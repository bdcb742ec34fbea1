"""Caliper ``.cali`` files read for the store without Hatchet's per-node pandas work.

``GraphFrame.from_caliperreader`` spends nine tenths of its time in pandas, not in reading the
file: a ``groupby`` with Python functions per column (LLNL's reader) and a boolean lookup per node
to find nodes without records (both readers). On the common file (a region profile: one record per
call path, no per-rank, GPU-activity, sampling or time-series records) those steps change nothing
but types, so this module builds the very GraphFrame the installed Hatchet would (same graph,
node ids, dataframe, dtypes, metric lists and metadata), with the reader's own graph
construction and plain vectorised steps for the rest: about 6× faster per file.

Any other shape of file, or a Hatchet whose reader this module was not checked against, returns
None and is read by Hatchet itself. ``tests/test_ensemble_caliper.py`` checks, on every ``.cali``
file of ``../shared/data`` and under both Hatchet distributions, that the GraphFrame and the store
rows are equal to those Hatchet's reader gives. The store goes further from the same parse
(``read_simple``): ``cctviz.ensemble.store.caliper_rows`` builds its rows without a GraphFrame.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

# the Hatchet readers this module mirrors (checked equal file by file); others: Hatchet reads
CHECKED = {"hatchet": ("1.4.1",), "llnl-hatchet": ("2026.2.0",)}
CTX = "path"
SPECIAL = ("cupti.activity.kind", "rocm.activity", "module#cali.sampler.pc", "mpi.rank")
OLD_TO_NEW = {
    "mpi.rank": "rank",
    "module#cali.sampler.pc": "module",
    "sum#time.duration": "time",
    "sum#avg#sum#time.duration": "time",
    "inclusive#sum#time.duration": "time (inc)",
    "sum#avg#inclusive#sum#time.duration": "time (inc)",
}
LLNL_TYPES: dict[str, Any] = {
    "int": np.int64,
    "uint": np.uint64,
    "string": str,
    "addr": np.uint64,
    "double": np.float64,
    "bool": bool,
}


def _flavour() -> str | None:
    """``"llnl"`` or ``"umd"``: which of the checked readers is installed (None: neither).
    ``"own"``: no Hatchet at all but caliper-reader (the ``ensemble`` extra alone): the store
    reads region profiles itself (``caliper_rows``: no GraphFrame), names as UMD's reader gives
    them, call paths whose ancestors have no record of their own as LLNL's reader takes them
    (caliper-reader 0.4 gives every call path so)."""
    hatchet_found = False
    for dist, versions in CHECKED.items():
        try:
            installed = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
        try:
            from hatchet.readers.caliper_native_reader import CaliperNativeReader
        except ImportError:
            continue  # installed but not importable: as if absent
        hatchet_found = True
        if installed in versions:
            llnl = "native" in inspect.signature(CaliperNativeReader.__init__).parameters
            return "llnl" if llnl else "umd"
    if hatchet_found:
        return None  # a Hatchet this module was not checked against: it reads every file
    try:
        import caliperreader  # noqa: F401
    except ImportError:
        return None
    return "own"


FLAVOUR = _flavour()


@dataclass(frozen=True)
class Simple:
    """A region profile as caliper-reader parsed it: the reader, its records with a call path,
    and whether the installed Hatchet is LLNL's."""

    reader: Any
    records: list[dict[str, Any]]
    llnl: bool


def read_simple(path: Path) -> Simple | None:
    """caliper-reader's parse of ``path`` when it is a region profile this module mirrors the
    installed Hatchet's reading of (None: Hatchet reads it itself)."""
    if FLAVOUR is None or path.suffix != ".cali":
        return None
    import caliperreader as cr

    reader = cr.CaliperReader()
    reader.read(str(path))
    records = [r for r in reader.records if CTX in r]
    if not records or not _simple(records):
        return None
    return Simple(reader, records, FLAVOUR == "llnl")


def quick_graphframe(path: Path) -> Any | None:
    """The GraphFrame ``GraphFrame.from_caliperreader(path)`` gives, or None when the file (or
    the installed Hatchet) is not one this module mirrors."""
    simple = read_simple(path)
    return None if simple is None else graphframe(simple)


def graphframe(simple: Simple) -> Any | None:
    """The GraphFrame Hatchet's reader gives for a parsed region profile (None: a record's
    value Hatchet's reader refuses or warns about; Hatchet reads the file and says so)."""
    return _graphframe(simple.reader, simple.records, simple.llnl)


def _simple(records: list[dict[str, Any]]) -> bool:
    """One region-profile record per call path, and none of the kinds the readers treat apart."""
    seen = set()
    for r in records:
        if (
            any(k in r for k in SPECIAL)
            or r.get("spot.channel", "regionprofile") != "regionprofile"
        ):
            return False
        where = r[CTX]
        if isinstance(where, list):
            if not where:
                return False
            where = tuple(where)
        elif not isinstance(where, str):
            return False
        else:
            where = (where,)
        if where in seen:
            return False
        seen.add(where)
    return True


def _graphframe(reader: Any, records: list[dict[str, Any]], llnl: bool) -> Any | None:
    import hatchet
    from hatchet.graph import Graph
    from hatchet.readers.caliper_native_reader import CaliperNativeReader

    native = CaliperNativeReader(reader, False, [], True) if llnl else CaliperNativeReader(reader)
    roots = native.create_graph()
    nodes = pd.DataFrame(data=list(native.idx_to_node.values()))
    graph = Graph(roots, node_ordering=native.node_ordering) if llnl else Graph(roots)
    graph.enumerate_traverse()
    rows, data_cols = record_rows(reader, records, native.callpath_to_idx, llnl)
    if rows is None:
        return None
    metric_cols = [c for c in data_cols if reader.attribute(c).is_value()]
    df = pd.DataFrame.from_dict(data=rows)
    if llnl:  # the reader's groupby of one record per node: numbers kept, the rest as 1-tuples
        df = df.sort_values("nid", kind="stable")
        df = df[["nid", *(c for c in df.columns if c != "nid")]].reset_index(drop=True)
        for c in df.columns[1:]:
            if not np.issubdtype(df[c].dtype, np.number):
                df[c] = [tuple({v}) for v in df[c]]
    missing = int((~nodes["nid"].isin(df["nid"])).sum())
    if missing:  # rows the readers add for nodes without a record (dropped by the merge below)
        default: dict[str, Any] = {
            c: 0 if reader.attribute(c).is_value() else None for c in data_cols
        }
        if llnl:
            default["nid"] = np.nan
        df = pd.concat([df, pd.DataFrame.from_dict(data=[dict(default)] * missing)], sort=False)
    if llnl:  # user-readable names (aliases), as the reader gives them by default
        aliases = {c: aliased(reader, c, llnl) for c in df.columns[1:]}
        df.columns = [aliases.get(c, c) for c in df.columns]
        metric_cols = [aliases.get(m, m) for m in metric_cols]
    df.columns = [OLD_TO_NEW.get(c, c) for c in df.columns]
    exc, inc = metric_lists(metric_cols, llnl)
    frame = pd.merge(df, nodes, on="nid")
    if llnl:
        frame["nid"] = frame["nid"].astype(np.float64)
    frame = frame.set_index(["node"]).sort_index()
    default_metric = _default_metric(frame, inc, exc)
    meta = reader.globals
    if llnl:
        meta = native._parse_metadata(meta)
        frame = frame.drop(columns=[c for c in ("Node order", "aggregate.slot") if c in frame])
    return hatchet.graphframe.GraphFrame(graph, frame, exc, inc, default_metric, metadata=meta)


def record_rows(
    reader: Any, records: list[dict[str, Any]], index: dict[tuple[str, ...], int], llnl: bool
) -> tuple[list[dict[str, Any]] | None, list[str]]:
    """The reader's per-record dicts (``nid`` and the attributes it keeps, converted as it
    converts them) and the attributes in the order first met."""
    types: dict[str, str] = {}
    data_cols: dict[str, None] = {}
    rows = []
    for r in records:
        where = r[CTX]
        row: dict[str, Any] = {}
        if llnl and "spot.channel" in r:
            row["spot.channel"] = r["spot.channel"]
        row["nid"] = index.get(tuple(where) if isinstance(where, list) else (where,))
        for item, value in r.items():
            if item == CTX:
                continue
            kind = types.get(item)
            if kind is None:
                kind = types[item] = reader.attribute(item).attribute_type()
            if llnl:
                if kind not in LLNL_TYPES:
                    return None, []  # types the reader refuses or warns about: it says so
                if kind == "string":
                    continue
                try:
                    row[item] = LLNL_TYPES[kind](value)
                except ValueError:
                    return None, []
            elif kind == "double":
                row[item] = float(value)
            elif kind == "int":
                row[item] = int(value)
            elif item == "function":
                row[item] = value[-1] if isinstance(value, list) else value
            else:
                row[item] = value
            data_cols[item] = None
        rows.append(row)
    return rows, list(data_cols)


def aliased(reader: Any, column: str, llnl: bool) -> str:
    """A record attribute's column name before ``OLD_TO_NEW``: LLNL's reader gives the
    attribute's alias (``Avg time/rank``), UMD's the attribute's own name."""
    alias = reader.attribute(column).get("attribute.alias") if llnl else None
    return alias or column


def metric_lists(metric_cols: list[str], llnl: bool) -> tuple[list[str], list[str]]:
    """The reader's ``exc_metrics`` and ``inc_metrics`` of its metric columns (named as
    :func:`aliased` names them): ``(inc)`` or ``inclusive`` in the name says inclusive."""
    ignored = ("mpi.rank", "aggregate.slot", "Node order", "loop.start_iteration")
    exc: list[str] = []
    inc: list[str] = []
    for column in metric_cols:
        if column in (ignored if llnl else ("mpi.rank",)):
            continue
        kind = inc if "(inc)" in column or "inclusive" in column else exc
        kind.append(OLD_TO_NEW.get(column, column))
    return exc, inc


def _default_metric(frame: pd.DataFrame, inc: list[str], exc: list[str]) -> str | None:
    if "time (inc)" in frame.columns:
        return "time"
    if "avg#inclusive#sum#time.duration" in frame.columns:
        return "avg#inclusive#sum#time.duration"
    if inc:
        return inc[0]
    return exc[0] if exc else None
