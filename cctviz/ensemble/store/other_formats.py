"""The files an ``add`` reads with cctviz's own format readers (``cctviz.read``: folded stacks,
perf, callgrind, speedscope, trace events, .cpuprofile, pprof, Cube, TAU…) rather than with one of
Hatchet's: a path named alone is taken when a reader's ``sniff`` takes its content (or its suffix
names a format); a folder walk takes the files whose names say a format, without opening every
file under it.

A ``.json`` is Caliper's (Hatchet's ``from_caliper``) unless a JSON format's sniff takes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

READER = "cctviz.read"  # the reader name ``sources`` gives these files


def named(path: Path) -> bool:
    """Whether ``path``'s name says one of the formats (a folder walk's test: no file opened)."""
    from ...adapters.formats.read import owner

    return owner(path) is not None


def format_of(path: Path) -> str | None:
    """The format ``cctviz.read`` finds for ``path`` (a file or folder named alone; a file's
    head is read), or None when it finds none."""
    from ...adapters.formats.read import detect
    from ...adapters.formats.source import FormatError

    try:
        return str(detect(path).NAME)
    except (FormatError, OSError, ValueError):
        return None


def read(path: Path, format: str | None = None) -> Any:
    """The GraphFrame of ``path`` as ``cctviz.read`` gives it (``format``: as :func:`format_of`
    found it, so the file's head is not read again; None: found now)."""
    from ...adapters.formats.read import read as read_format

    return read_format(path, format=format)
