"""A path given where a GraphFrame belongs (``cctviz.CCT("run.cali")``): which Hatchet reader
reads it, told by its name and, for a folder, by what it holds."""

from __future__ import annotations

import os
import pathlib

READERS = {
    ".cali": "from_caliperreader",
    ".pstats": "from_cprofile",
    ".prof": "from_cprofile",
    ".dot": "from_gprof_dot",
    ".cubex": "from_scorep",
    ".hdf": "from_hdf",
    ".h5": "from_hdf",
}
"""Hatchet's reader of a file, by its extension."""


def path_hint(obj: object) -> str | None:
    """What to tell someone who passed ``obj``, a path (None: not a path)."""
    if not isinstance(obj, (str, os.PathLike)):
        return None
    path = pathlib.Path(obj)
    name = repr(str(path))
    reader = _reader(path)
    if reader is not None:
        read = f"gf = hatchet.GraphFrame.{reader}({name})"
        if reader == "from_caliperreader":
            read += " (many .cali files: thicket.Thicket.from_caliperreader or cctviz.Ensemble)"
    elif path.suffix.lower() == ".json":
        read = (
            f"gf = hatchet.GraphFrame.from_caliper({name}) if it is Caliper's JSON "
            "(from_pyinstrument, from_timemory: theirs)"
        )
    else:
        read = "the hatchet.GraphFrame reader of its format (from_caliperreader, "
        read += "from_hpctoolkit, from_tau, from_cprofile, ...)"
    return f"the path {name}: read it with Hatchet first, {read}, then cctviz.CCT(gf)"


def _reader(path: pathlib.Path) -> str | None:
    """Hatchet's reader of ``path`` if its name or contents say which; None if not."""
    if path.is_dir():
        names = {p.name for p in path.iterdir()}
        if names & {"experiment.xml", "experiment.db"}:
            return "from_hpctoolkit"
        if any(n.startswith("profile.") for n in names):
            return "from_tau"
        return None
    if "database" in path.name:
        return "from_hpctoolkit"
    return READERS.get(path.suffix.lower())
