"""The files an ``add`` reads with cctviz's own format readers (``cctviz.read``: folded stacks,
perf, callgrind, speedscope, trace events, .cpuprofile, pprof, Cube, TAU…) rather than with one of
Hatchet's: a path named alone is taken when a reader's ``sniff`` takes its content; a folder walk
takes the files whose names say a format (its suffixes), without opening every file under it.

A ``.json`` is Caliper's (Hatchet's ``from_caliper``) unless a JSON format's sniff takes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

READER = "cctviz.read"  # the reader name ``sources`` gives these files
# suffixes other files have as often as a profile does: a folder walk does not take them by name
_VAGUE = frozenset((".txt", ".out", ".db", ".sqlite", ".json"))


def _modules() -> list[Any]:
    from ...adapters.formats.read import modules

    return modules()


def named(path: Path) -> bool:
    """Whether ``path``'s name says one of the formats (a folder walk's test)."""
    name = path.name.lower()
    if "callgrind.out" in name:  # valgrind's callgrind.out.<pid>, and names around it
        return True
    for module in _modules():
        if any(name.endswith(s.lower()) for s in module.SUFFIXES if s.lower() not in _VAGUE):
            return True
    return False


def claims(path: Path) -> bool:
    """Whether a format reader takes ``path`` (a file or folder named alone) by its content."""
    from ...adapters.formats.read import detect
    from ...adapters.formats.source import FormatError

    try:
        detect(path)
    except (FormatError, OSError, ValueError):
        return False
    return True


def read(path: Path) -> Any:
    """The GraphFrame of ``path`` as ``cctviz.read`` gives it."""
    from ...adapters.formats.read import read as read_format

    return read_format(path)
