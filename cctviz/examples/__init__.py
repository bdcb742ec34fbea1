"""Small real profiles shipped with cctviz, for examples and first steps.

>>> gf = cctviz.examples.load("hpctoolkit-cpi")    # a Hatchet GraphFrame

The files come from the Hatchet project's test data (MIT licence); see ``data/README.md``.
"""

from __future__ import annotations

import pathlib
from typing import Any

from ..adapters.serial import serial_readers
from ..core.extras import hatchet as needs_hatchet

DATA = pathlib.Path(__file__).parent / "data"
READ = "cctviz.read"  # an example read by cctviz's own readers, not by Hatchet's

# name -> (path inside data/, Hatchet reader)
EXAMPLES: dict[str, tuple[str, str]] = {
    "hpctoolkit-cpi": ("hpctoolkit-cpi", "from_hpctoolkit"),
    "caliper-sw4-cuda": (
        "caliper-sw4-cuda/caliper_cuda_activity_profile_summary_v2.cali",
        "from_caliperreader",
    ),
    "cprofile-cycle": ("cprofile-cycle/cprofile-cycle.pstats", "from_cprofile"),
    # formats Hatchet does not read (or reads slowly): read with cctviz.read
    "nsys-cloverleaf": ("formats/nsys-cloverleaf-cuda.sqlite", READ),
    "pyspy-folded": ("formats/pyspy-threads.folded", READ),
    "go-pprof": ("formats/go-cpu.pb.gz", READ),
    "tau-cpi": ("formats/tau-cpi-mpi", READ),
}


def synthetic(n: int, max_depth: int = 40, seed: int = 0) -> Any:
    """A synthetic Hatchet GraphFrame of ``n`` nodes with a realistic shape (call paths up to
    ``max_depth`` deep, heavy-tailed fan-out) and exclusive ``time`` and inclusive
    ``time (inc)``: for trying cctviz on trees far bigger than the shipped profiles."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n is a number of nodes, at least 1; got {n!r}")
    from ._synthetic import graphframe

    return graphframe(n, max_depth=max_depth, seed=seed)


# name -> (folder inside data/, Hatchet reader, file pattern): several runs of one program
RUNS: dict[str, tuple[str, str, str]] = {
    "lulesh-mpi-scaling": ("lulesh-mpi-scaling", "from_caliperreader", "*_cores.cali"),
}


def runs(name: str = "lulesh-mpi-scaling") -> dict[int, Any]:
    """Several runs of one program, read with Hatchet: ``{process count: GraphFrame}`` in
    increasing order. ``"lulesh-mpi-scaling"``: LULESH under Caliper on 27 to 343 MPI processes
    (from the Thicket project's test data), for ``cctviz.compare(list(r.values()),
    labels=list(r))``."""
    if name not in RUNS:
        raise KeyError(f"no example runs {name!r}; available: {', '.join(RUNS)}")
    folder, reader_name, pattern = RUNS[name]
    hatchet = needs_hatchet(f"reading the example runs {name!r}")

    reader = getattr(hatchet.GraphFrame, reader_name)
    files = sorted(DATA.joinpath(folder).glob(pattern), key=lambda p: int(p.name.split("_")[0]))
    return {int(p.name.split("_")[0]): reader(str(p)) for p in files}


def ensemble(path: Any, n_profiles: int = 100, n_nodes: int = 200, **kwargs: Any) -> Any:
    """A synthetic ensemble written into a new store at ``path`` (see
    ``cctviz.ensemble.synthetic.ensemble``: launch dates, job sizes, compilers, noise, and
    ``changes=`` injected at known runs and nodes); needs the ``ensemble`` extra."""
    from ..ensemble.synthetic import ensemble as write

    return write(path, n_profiles, n_nodes, **kwargs)


def names() -> list[str]:
    """The names of the shipped example profiles."""
    return list(EXAMPLES)


def path(name: str) -> pathlib.Path:
    """Where example ``name`` is on disk (a file, or a folder for HPCToolkit databases)."""
    if name not in EXAMPLES:
        raise KeyError(f"no example profile {name!r}; available: {', '.join(EXAMPLES)}")
    return DATA / EXAMPLES[name][0]


def load(name: str) -> Any:
    """Read example ``name`` with Hatchet (whichever distribution is installed), or with
    ``cctviz.read`` for the formats Hatchet does not read (``nsys-cloverleaf``, ``pyspy-folded``,
    ``go-pprof``, ``tau-cpi``): a Hatchet GraphFrame either way."""
    where = path(name)
    if EXAMPLES[name][1] == READ:
        from ..adapters.formats.read import read

        return read(where)
    hatchet = needs_hatchet(f"reading the example profile {name!r}")
    reader = getattr(hatchet.GraphFrame, EXAMPLES[name][1])
    with serial_readers():  # no forked pool: it can hang a kernel (see cctviz/adapters/serial.py)
        return reader(str(where))
