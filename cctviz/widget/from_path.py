"""``cctviz.CCT(path)``: a profile file is read with ``cctviz.read`` (folded stacks, perf script,
callgrind…; ``docs/formats.md``); a folder or a file only Hatchet reads (``.cali``, ``.pstats``,
HPCToolkit databases…) gets the error naming the Hatchet reader to use."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..adapters.formats import read as formats
from ..adapters.graphframe import ACCEPTED
from ..adapters.paths import READERS, path_hint


def read_path(data: Any) -> tuple[Any, str | None]:
    """``data`` as a GraphFrame and the file it was read from (``data`` itself and None when it
    is not a path)."""
    if not isinstance(data, (str, os.PathLike)):
        return data, None
    path = Path(data)
    modules = formats.modules()
    claimed = {s for m in modules for s in m.SUFFIXES}
    names = ", ".join(m.NAME for m in modules)
    accepted = f"cctviz draws {ACCEPTED}, or a profile file cctviz.read knows ({names})"
    if path.is_dir() or (path.suffix.lower() in READERS and path.suffix.lower() not in claimed):
        raise TypeError(f"{accepted}; got {path_hint(data)}")
    try:
        return formats.read(path), str(path)
    except formats.UnknownFormatError:
        raise TypeError(
            f"{accepted}; cctviz.read found none of them in the file; got {path_hint(data)}"
        ) from None


__all__ = ["read_path"]
