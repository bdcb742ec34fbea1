"""``cctviz.read``: a profile file into a Hatchet GraphFrame, whatever format wrote it, each
metric's kind, partner and unit as the format means them.

Every format is a module of :mod:`cctviz.adapters.formats` holding ``NAME`` (the ``format=``
value), ``SUFFIXES`` (a folder format has none, and says in ``FOLDER`` what its folder holds),
``sniff(head, path)`` (does the file's first 64 KiB, gzip undone, look like this format: content
first, the suffix only breaks ties) and ``read(path, **options)`` (a GraphFrame; raises
:class:`~cctviz.adapters.formats.source.FormatError`). :data:`FORMATS` lists them in the order
they are tried: the most particular first. A file no ``sniff`` takes is read by the format its
suffix names, if one does (``x.folded``, ``x.pb.gz``: that reader says what is wrong in it).
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import os
from pathlib import Path
from types import ModuleType
from typing import Any

from .source import FormatError, head

#: The format modules, tried in this order (module names in ``cctviz.adapters.formats``).
FORMATS: tuple[str, ...] = (
    "hpctoolkit_db",
    "tau",
    "nsys",
    "cube",
    "pprof",
    "speedscope",
    "cpuprofile",
    "trace_events",
    "callgrind",
    "perf",
    "folded",
)

#: Suffixes other files have as often as a profile does: they break a tie between formats whose
#: ``sniff`` takes a file, but do not name a file's format on their own.
VAGUE = frozenset((".txt", ".out", ".db", ".sqlite", ".sqlite3", ".json"))

HATCHET = (
    "Hatchet's own readers take HPCToolkit, Caliper, TAU, cProfile, gprof, Score-P, Timemory, "
    "pyinstrument…: gf = hatchet.GraphFrame.from_hpctoolkit(path) (from_caliperreader, "
    "from_tau, from_cprofile, from_gprof_dot, …), then cctviz.CCT(gf)"
)


class UnknownFormatError(FormatError):
    """No format's ``sniff`` took the file: the message names the file and every format tried."""


def modules() -> list[ModuleType]:
    """The format modules, in the order they are tried."""
    return [importlib.import_module(f"{__package__}.{name}") for name in FORMATS]


def names() -> list[str]:
    """The ``format=`` values."""
    return [m.NAME for m in modules()]


def _ends(name: str, suffix: str) -> bool:
    """Whether the (lower-case) file ``name`` ends with ``suffix``, gzipped or not."""
    suffix = suffix.lower()
    return name.endswith(suffix) or name.endswith(suffix + ".gz")


def owner(path: Path) -> ModuleType | None:
    """The format module ``path``'s name says on its own, or None: the longest of the formats'
    suffixes the name ends with (gzipped or not; not one of :data:`VAGUE`), and valgrind's
    ``callgrind.out.<pid>``. No file is opened."""
    name = path.name.lower()
    if "callgrind.out" in name:  # valgrind's callgrind.out.<pid>, and names around it
        return importlib.import_module(f"{__package__}.callgrind")
    said = [
        (len(suffix), module)
        for module in modules()
        for suffix in module.SUFFIXES
        if suffix.lower() not in VAGUE and _ends(name, suffix)
    ]
    return max(said, key=lambda pair: pair[0])[1] if said else None


def _recognised_by(module: ModuleType) -> str:
    """What makes a file (or a folder) one of ``module``'s, for a message."""
    return ", ".join(module.SUFFIXES) or str(module.FOLDER)


def detect(path: Path) -> ModuleType:
    """The format module whose ``sniff`` takes ``path``'s head (ties: the one whose suffixes
    end the file's name, else the first). When none does, the module :func:`owner` finds in a
    file's name: reading the file, it says what in it is not that format."""
    first = b"" if path.is_dir() else head(path)  # a folder (TAU, HPCToolkit): looked into
    found = [m for m in modules() if m.sniff(first, path)]
    if found:
        name = path.name.lower()
        return next((m for m in found if any(_ends(name, s) for s in m.SUFFIXES)), found[0])
    said = None if path.is_dir() else owner(path)
    if said is not None:
        return said
    tried = ", ".join(f"{m.NAME} ({_recognised_by(m)})" for m in modules())
    raise UnknownFormatError(
        f"{path}: cctviz.read does not know this file's format; it tried {tried}, each from "
        f"the file's content. Name one with format= if it is one of them. {HATCHET}"
    )


def read(path: str | os.PathLike[str], format: str | None = None, **options: Any) -> Any:
    """Read a profile file into a Hatchet GraphFrame.

    Parameters
    ----------
    path
        The file (plain or gzip-compressed).
    format
        The format's name (``"folded"``, ``"perf"``, ``"callgrind"``…; see
        ``docs/formats.md``); ``None``: detected from the file's content.
    **options
        The format's own options (e.g. ``metric="time", unit="us"`` for folded stacks whose
        counts are microseconds).

    Notes
    -----
    Each metric's kind, partner and unit are pinned in ``gf.metadata["cctviz.format_metrics"]``
    (``cctviz.CCT(gf)`` reads them: rule ``format``); what was repaired in the file, and how
    many times, in ``gf.metadata["cctviz.repairs"]``.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(
            f"cctviz.read takes a path (str or pathlib.Path), not {type(path).__name__}"
        )
    file = Path(path)
    if not file.exists():
        raise FileNotFoundError(f"no such profile file: {str(file)!r}")
    if format is None:
        module = detect(file)
    else:
        by_name = {m.NAME: m for m in modules()}
        if format not in by_name:
            raise ValueError(
                f"unknown format {format!r}; cctviz.read knows {', '.join(map(repr, by_name))}"
            )
        module = by_name[format]
    parameters = list(inspect.signature(module.read).parameters.values())[1:]  # after path
    accepted = [p.name for p in parameters if p.kind is not inspect.Parameter.VAR_KEYWORD]
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)
    unknown = [] if takes_any else sorted(set(options) - set(accepted))  # **options: its own
    if unknown:
        close = difflib.get_close_matches(unknown[0], accepted, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise TypeError(
            f"cctviz.read(format={module.NAME!r}) got unknown option(s) "
            f"{', '.join(map(repr, unknown))}{hint}; it accepts "
            f"{', '.join(map(repr, accepted)) or 'none'}"
        )
    gf = module.read(file, **options)
    said = {"cctviz.format": module.NAME, "cctviz.source": str(file)}
    gf.metadata = {**said, **(gf.metadata or {})}  # (a reader may say more of its own)
    return gf


__all__ = [
    "FORMATS",
    "VAGUE",
    "FormatError",
    "UnknownFormatError",
    "detect",
    "names",
    "owner",
    "read",
]
