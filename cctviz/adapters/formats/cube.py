"""Score-P's CUBE4 profile (``.cubex``, also written by Scalasca and CubeLib): a tar archive
whose ``anchor.xml`` declares the metrics, regions, call tree (cnodes) and system tree
(processes and their threads), with one ``<metric id>.index``/``.data`` pair of values per
metric, cnode and location, read with pycubexr.

Metrics keep Cube's own kind and unit: an ``EXCLUSIVE`` metric (``visits``, ``bytes_sent``…)
gives its values to the cnode alone (inclusive is derived as subtree sums), an ``INCLUSIVE``
one (``time``) to the cnode with everything it called (exclusive is derived as the value minus
the children's); units as the metric says them (``sec``, ``occ``, ``bytes``). Only metrics whose
values add up are read (integers and ``DOUBLE``); others (``MINDOUBLE``, ``MAXDOUBLE``,
histograms…) and metrics the file holds no values for are listed with the reason under
``metadata["cctviz.skipped_metrics"]``; ``metrics=[names]`` reads only those. A location's
process rank is its rank (the location group's ``rank``) and its thread the location's own
``rank``. Frames are regions: name, file (Score-P writes it in ``mod``, else ``url``) and first
line (a ``mod`` that is no path, such as ``MPI``, is the frame's module); cnodes of the same
region under the same parent merge, as Hatchet's Score-P reader does.

Repairs (counted under ``metadata["cctviz.repairs"]``): names longer than 4096 characters cut,
locations sharing a rank and thread numbered apart. Refused with a :class:`FormatError`: a file
that is no tar or has no ``anchor.xml``, members that together hold more than ``limit`` bytes,
and anything pycubexr cannot read (cut short, malformed XML, values of the wrong size).
"""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any

import numpy as np

from cctviz.adapters.formats.calltree import ROOT, CallTree, Column, Site
from cctviz.adapters.formats.source import INFLATE_LIMIT, FormatError
from cctviz.adapters.formats.untrusted import Repairs, options, shown

NAME = "cube"
SUFFIXES = (".cubex",)
WHAT = "a CUBE4 .cubex archive (a tar holding anchor.xml and <metric>.index/.data)"
INSTALL = "pip install 'cctviz[formats]'"
SKIPPED = "cctviz.skipped_metrics"
#: Cube's value types that add up across cnodes and locations
ADDITIVE = {"DOUBLE", "INTEGER", "UINT8", "INT8", "UINT16", "INT16", "UINT32", "INT32",
            "UINT64", "INT64"}  # fmt: skip
_MEMBERS = ("anchor.xml", "remapping.spec")


def sniff(head: bytes, path: Path) -> bool:
    """A tar header (``ustar`` at byte 257) whose first member is one Cube writes."""
    if len(head) < 512 or head[257:262] != b"ustar":
        return False
    name = head[:100].split(b"\0", 1)[0].decode("latin-1")
    stem, _, ext = name.rpartition(".")
    return name in _MEMBERS or (stem.isdigit() and ext in ("index", "data"))


def _parser() -> Any:
    try:
        from pycubexr import CubexParser
    except ImportError as error:
        raise ImportError(f"reading Cube profiles needs pycubexr ({error}): {INSTALL}") from None
    return CubexParser


def _check_archive(path: Path, limit: int) -> None:
    try:
        with tarfile.open(path) as archive:
            members = archive.getmembers()
    except (tarfile.TarError, EOFError, OSError) as error:
        raise FormatError(
            f"{path}: not a readable tar archive ({error}); {WHAT} is needed"
        ) from None
    if "anchor.xml" not in {m.name for m in members}:
        raise FormatError(f"{path}: the archive holds no anchor.xml; {WHAT} is needed")
    size = sum(m.size for m in members)
    if size > limit:
        raise FormatError(
            f"{path}: its members hold {size:,} bytes, more than the limit of {limit:,}: "
            "pass limit= (bytes) to read it anyway"
        )


def read(path: Path, **given: Any) -> Any:
    """A GraphFrame of the Cube profile at ``path`` (options: ``metrics``, ``limit``)."""
    opts = options(NAME, given, {"metrics": None, "limit": INFLATE_LIMIT})
    wanted = opts["metrics"]
    if wanted is not None and (
        isinstance(wanted, str) or not all(isinstance(w, str) for w in wanted)
    ):
        raise TypeError(f"metrics= takes a list of metric names, got {shown(wanted)}")
    parser = _parser()
    path = Path(path)
    _check_archive(path, opts["limit"])
    try:
        with parser(path) as cube:
            return _read(cube, path, wanted)
    except FormatError:
        raise
    except Exception as error:  # pycubexr on untrusted input: asserts, KeyError, XML errors…
        raise FormatError(
            f"{path}: pycubexr could not read it ({type(error).__name__}: {shown(str(error), 200)})"
            f"; {WHAT} is needed"
        ) from None


def _chosen(cube: Any, wanted: Any, path: Path) -> tuple[list[Any], dict[str, str]]:
    """The metrics to read and, for the others, why not."""
    from pycubexr.utils.exceptions import MissingMetricError

    every = cube.all_metrics()
    names = [m.name for m in every]
    if wanted is not None:
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            raise FormatError(f"{path}: no metric(s) {unknown}; the file has {names}")
    chosen: list[Any] = []
    skipped: dict[str, str] = {}
    for metric in every:
        if wanted is not None and metric.name not in wanted:
            continue
        if metric.data_type not in ADDITIVE:
            skipped[metric.name] = f"{metric.data_type} values do not add up"
            continue
        try:
            cube.get_metric_values(metric)
        except MissingMetricError:
            skipped[metric.name] = "the file holds no values for it"
            continue
        chosen.append(metric)
    if not chosen:
        raise FormatError(f"{path}: none of the metrics {names} can be read ({skipped})")
    return chosen, skipped


def _locations(cube: Any, repairs: Repairs, path: Path) -> list[tuple[int, int]]:
    """(rank, thread) of each location, by its id (the column of its values)."""
    count = len(cube.get_locations())
    out: dict[int, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()
    system = cube._anchor_result.system_tree_nodes[0]
    for g, group in enumerate(system.all_location_groups()):
        rank = _number(group.rank, g)
        for t, location in enumerate(group.all_locations()):
            if not 0 <= location.id < count or location.id in out:
                raise FormatError(f"{path}: location id {location.id} is out of range or repeated")
            at = (rank, _number(location.rank, t))
            while at in taken:
                at = (rank, at[1] + 1)
                repairs.add("locations sharing a rank and thread numbered apart")
            taken.add(at)
            out[location.id] = at
    return [out[i] for i in range(count)]


def _number(text: Any, fallback: int) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        return fallback


def _read(cube: Any, path: Path, wanted: Any) -> Any:
    repairs = Repairs()
    metrics, skipped = _chosen(cube, wanted, path)
    kinds = {"EXCLUSIVE": "exclusive", "INCLUSIVE": "inclusive"}
    tree = CallTree([Column(m.name, kinds[m.metric_type], m.units or None) for m in metrics])  # type: ignore[arg-type]
    at = _locations(cube, repairs, path)
    names = [m.name for m in metrics]
    values = [cube.get_metric_values(m) for m in metrics]
    todo = [(root, ROOT) for root in reversed(cube.get_root_cnodes())]
    while todo:
        cnode, up = todo.pop()
        region = cnode.region
        mod = repairs.name(region.mod, "") or None
        filed = mod is not None and ("/" in mod or "." in mod)  # a file, not a paradigm ("MPI")
        site = Site(
            repairs.name(region.name, "(unnamed region)"),
            mod if filed else (repairs.name(region.url, "") or None),
            region.begin if isinstance(region.begin, int) and region.begin > 0 else None,
            None if filed else mod,
        )
        node = tree.child(up, site)
        block = np.stack([np.asarray(v.cnode_values(cnode), np.float64) for v in values])
        # a location's all-zero values are not added (they change no sum), except at a root,
        # so that every rank and thread has its rows
        held = range(len(at)) if up == ROOT else np.flatnonzero(np.any(block != 0, axis=0))
        for k in held:
            rank, thread = at[k]
            tree.add(node, dict(zip(names, block[:, k].tolist(), strict=True)), rank, thread)
        todo.extend((kid, node) for kid in reversed(cnode.get_children()))
    meta = {"cctviz.format": NAME, SKIPPED: skipped, **repairs.metadata()}
    return tree.graphframe(meta)


__all__ = ["NAME", "SUFFIXES", "read", "sniff"]
