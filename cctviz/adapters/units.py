"""Units the data states: each metric's unit read from where its format says it, in the
grammar's own spelling (``cctviz.core.units.canonical``: ``usec`` → ``µs``).

- Caliper (``.cali``): each attribute's ``attribute.unit`` metadata (``sec`` on the spot channel's
  inclusive times), read with caliper-reader from the files a Thicket lists or the path given;
  where no file is at hand or an attribute has none, Caliper's documented units by attribute name
  (``time.duration``, ``time.inclusive.duration``: seconds; ``time.duration.ns``: nanoseconds;
  the spot channel's aliases ``Avg time/rank``, ``Total time``… of ``time.duration``: seconds).
  Hatchet names the columns by attribute (UMD ``hatchet``) or by alias (LLNL ``llnl-hatchet``):
  both are looked up.
- HPCToolkit: the unit in each metric's name (``CPUTIME (usec)`` in ``experiment.xml``'s
  ``<MetricDB>``/``<Metric>``, ``CPUTIME (sec)`` in a v4 ``meta.db``), for the column Hatchet
  makes of it (``time``, ``time (inc)``); from the database folder given, or the ``file_path``
  LLNL's v4 reader keeps in the metadata. Without either (a GraphFrame from Hatchet's
  ``from_hpctoolkit`` passed alone), only what Hatchet's own names state: UMD Hatchet's v4
  reader names ``time``/``time (inc)`` only ``CPUTIME (sec)`` (seconds); a metric Hatchet keeps
  under HPCToolkit's name (``REALTIME (usec) (E)`` from XML, ``GPUOPS (sec) (inc)`` from v4)
  has the SI unit in it. The XML readers' ``time`` is ``CPUTIME (usec)`` or ``CPUTIME (sec)``
  alike: it has none.
- cProfile and pyinstrument: seconds (the times ``pstats`` and pyinstrument write), known by the
  columns Hatchet's readers add (``numcalls``/``nativecalls``; ``is_application_code``).
- TAU: microseconds (TAU's profile files), known by Hatchet's ``Calls``/``Subrs`` columns.

Nothing is guessed: a metric whose format says no unit has none here (``units=`` gives it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.units import UnitError, canonical, parse

#: Caliper attributes whose unit its documentation gives (the last part of an aggregated name)
CALIPER_SECONDS = ("time.duration", "time.inclusive.duration", "time.exclusive.duration")
#: the spot channel's aliases of ``time.duration`` aggregates
SPOT_ALIASES = ("Min time/rank", "Max time/rank", "Avg time/rank", "Total time")
HATCHET_SUFFIXES = (" (inc)", " (exc)")
CALI_FILES_READ = 4  # an ensemble's files carry the same attributes: a few say their units
XML_HEAD = 1 << 20  # experiment.xml lists its metrics before the calling context tree
_XML_METRIC = re.compile(r'<(?:MetricDB|Metric)\s[^>]*?\bn="([^"]{1,200})"')
_HPCTK_NAME = re.compile(r"(?P<base>.+?) \((?P<unit>[^()]+)\)(?::\w+)? \((?P<ie>[IE])\)")
_HPCTK_TIMES = ("CPUTIME",)  # what Hatchet's XML readers rename to time / time (inc)
#: columns only Hatchet's HPCToolkit readers make: XML (both Hatchets), v4 (UMD ``hatchet``)
HPCTK_XML_COLUMNS = frozenset({"nid", "type", "file", "line", "module"})
HPCTK_V4_COLUMNS = frozenset({"relation", "instruction"})
# a metric under HPCToolkit's own name: XML's "REALTIME (usec):Sum (E)", v4's "GPUOPS (sec) (inc)"
_HPCTK_XML_COLUMN = re.compile(r"(?P<base>[^()]+?) \((?P<unit>[^()]+)\)(?::\w+)? \([IE]\)")
_HPCTK_V4_COLUMN = re.compile(r"(?P<base>[^()]+?) \((?P<unit>[^()]+)\)(?: \(inc\))?")


def discover(data: Any, path: str | Path | None = None) -> dict[str, str]:
    """``{metric column: unit}`` that ``data`` (a Hatchet GraphFrame or a Thicket) and the file
    or database folder it was read from (``path``; a Thicket's files and LLNL's v4 reader's
    ``file_path`` are found without it) state. Metrics whose unit is stated nowhere are left out."""
    frame = getattr(data, "dataframe", None)
    columns = [str(c) for c in frame.columns] if isinstance(frame, pd.DataFrame) else []
    metadata = _metadata(data)
    found: dict[str, str] = {}
    if "cali.caliper.version" in metadata:
        found.update(_caliper_names(columns, str(metadata.get("spot.metrics", ""))))
    found.update(_signatures(set(columns)))
    found.update(_hpctoolkit_columns(columns))
    for p in _paths(data, path, metadata):
        found.update(_from_path(p))
    out: dict[str, str] = {}
    for column, unit in found.items():
        if column in columns:
            try:
                out[column] = canonical(unit)
            except UnitError:
                continue  # a file's unit text cctviz cannot read: said by none
    return out


def _metadata(data: Any) -> dict[str, Any]:
    md = getattr(data, "metadata", None)
    if isinstance(md, Mapping):
        return dict(md)
    if isinstance(md, pd.DataFrame) and len(md):
        return {str(c): md[c].iloc[0] for c in md.columns}
    return {}


def _paths(data: Any, path: str | Path | None, metadata: Mapping[str, Any]) -> list[Path]:
    given: list[Any] = [path] if path is not None else []
    mapping = getattr(data, "profile_mapping", None)
    if isinstance(mapping, Mapping):
        given += list(mapping.values())[:CALI_FILES_READ]
    if isinstance(metadata.get("file_path"), str):
        given.append(metadata["file_path"])
    out = []
    for p in given:
        try:
            if isinstance(p, str | Path) and Path(p).exists():
                out.append(Path(p))
        except (OSError, ValueError):  # too long, a NUL: not a path
            continue
    return out


def _caliper_names(columns: Iterable[str], spot_metrics: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for column in columns:
        name = next((column[: -len(s)] for s in HATCHET_SUFFIXES if column.endswith(s)), column)
        last = name.rsplit("#", 1)[-1]
        if last in CALIPER_SECONDS:
            out[column] = "s"
        elif last.startswith("time.") and last.endswith(".ns"):
            out[column] = "ns"
        elif name in SPOT_ALIASES and "time.duration" in spot_metrics:
            out[column] = "s"
    return out


def _signatures(columns: set[str]) -> dict[str, str]:
    times = {"time": "", "time (inc)": ""}
    if {"numcalls", "nativecalls"} <= columns or "is_application_code" in columns:
        return dict.fromkeys(times, "s")
    if {"Calls", "Subrs"} <= columns:
        return dict.fromkeys(times, "µs")
    return {}


def _hpctoolkit_columns(columns: list[str]) -> dict[str, str]:
    """Units a GraphFrame of Hatchet's HPCToolkit readers states in its own column names (no
    database at hand). Only SI units (``usec``, ``sec``, ``B``): a label in parentheses may be
    anything (``(inst)``, ``(mean)``), and no unit beats a wrong one."""
    have = set(columns)
    out: dict[str, str] = {}
    if have >= HPCTK_V4_COLUMNS:
        pattern = _HPCTK_V4_COLUMN
        # UMD Hatchet's v4 reader renames exactly "CPUTIME (sec)" to time, time (inc)
        out.update({c: "s" for c in ("time", "time (inc)") if c in have})
    elif have >= HPCTK_XML_COLUMNS:
        pattern = _HPCTK_XML_COLUMN
    else:
        return {}
    for column in columns:
        found = pattern.fullmatch(column)
        if found is None:
            continue
        try:
            si = parse(found["unit"]).si
        except UnitError:
            continue
        if si:
            out[column] = found["unit"]
    return out


def _from_path(path: Path) -> dict[str, str]:
    if path.is_file() and path.suffix == ".cali":
        return _cali_units(path)
    folder = path if path.is_dir() else path.parent
    if (folder / "experiment.xml").is_file():
        with open(folder / "experiment.xml", encoding="utf-8", errors="replace") as f:
            return _hpctoolkit_names(_XML_METRIC.findall(f.read(XML_HEAD)))
    if (folder / "meta.db").is_file():
        from .formats.hpctoolkit_db import metric_units
        from .formats.untrusted import FormatError

        try:
            return metric_units(folder)
        except FormatError:
            return {}
    return {}


def _hpctoolkit_names(names: Iterable[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in names:
        found = _HPCTK_NAME.fullmatch(name)
        if found is None:
            continue
        unit, inclusive = found["unit"], found["ie"] == "I"
        if found["base"] in _HPCTK_TIMES:
            out["time (inc)" if inclusive else "time"] = unit
        out[name] = unit
    return out


def _cali_units(path: Path) -> dict[str, str]:
    """``attribute.unit`` of each attribute of a ``.cali`` file, by name and by alias."""
    try:
        import caliperreader
    except ImportError:  # Hatchet read it with its own reader: the names say what they can
        return {}
    reader = caliperreader.CaliperReader()
    try:
        reader.read(str(path))
    except Exception:  # a file Hatchet read but caliper-reader cannot: no units from it
        return {}
    out: dict[str, str] = {}
    for name in reader.attributes():
        metadata = reader.attribute(name).metadata()
        unit = metadata.get("attribute.unit")
        if isinstance(unit, str) and unit:
            out[str(name)] = unit
            alias = metadata.get("attribute.alias")
            if isinstance(alias, str) and alias:
                out[alias] = unit
    return out


def spread(units: Mapping[str, str], names: Iterable[str]) -> dict[str, str]:
    """``units`` and, for each metric of ``names`` (those cctviz derived) named after one of them
    with a suffix in parentheses (a derived partner ``time (inc, derived)``, a companion
    ``time (inc) (mean)``), the unit of the longest such name."""
    out = dict(units)
    for name in names:
        if name in out or not name.endswith(")"):
            continue
        stem = max((m for m in units if name.startswith(f"{m} (")), key=len, default=None)
        if stem is not None:
            out[name] = units[stem]
    return out


def effective(
    data: Any,
    names: Iterable[str],
    *,
    path: str | Path | None = None,
    pinned: Mapping[str, str] | None = None,
    given: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """A view's units: what the data states (:func:`discover`), then what ``cctviz.read``
    pinned, then what the user gave (each wins over the ones before), spread to the metrics of
    ``names`` (those cctviz derived) named after them (:func:`spread`)."""
    return spread({**discover(data, path), **_readable(pinned or {}), **(given or {})}, names)


def _readable(units: Mapping[str, str]) -> dict[str, str]:
    """The units a format states that cctviz can read (Cube's ``#`` for a count is none: its
    metric is shown without a unit rather than refused; a unit the user gives is checked)."""
    out = {}
    for metric, unit in units.items():
        try:
            out[metric] = canonical(unit)
        except UnitError:
            continue
    return out
