"""Folded stacks, the flame graph's input: one line per stack, frames outermost first joined by
``;``, then a space and a count (``main;solve;dot 42``). Written by Brendan Gregg's
stackcollapse scripts (``perf script | stackcollapse-perf.pl``), ``py-spy record --format raw``,
async-profiler's ``collapsed`` output and many more.

The count is a number of samples (or a weight, such as microseconds off CPU: ``metric=`` and
``unit=`` name it) that belongs to the innermost frame alone: an exclusive metric, with its
inclusive partner derived as subtree sums. A stack on many lines (files put together) adds up.

py-spy's frames are ``function (file:line)``: the name, file and line come through (a frame is
the function at that line, as py-spy writes it; ``py-spy record --function`` writes each
function's first line, one node per function). With ``--threads`` py-spy starts each stack with
a ``thread (tid): name`` frame, with ``--subprocesses`` with ``process pid:"command"`` frames:
they stay the outermost frames (roots), typed ``thread`` and ``process``. Other tools' frames
are names as written (stackcollapse's ``_[k]``, ``_[j]`` annotations included).

Read streaming: memory grows with the distinct stacks, not the lines. Repairs (counted in
``gf.metadata["cctviz.repairs"]``): names that are not UTF-8 (kept as ``\\xNN``), empty frames
(named ``[empty]``). Errors: a line without a count, a count that is negative or not a number,
a last line cut off (no line end; ``truncated="drop"`` drops it, counted as a repair).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from .calltree import Column, Site
from .source import FormatError, opened
from .stacks import FORMAT, REPAIRS, SOURCE, Repairs, Stacks, decoded
from .treeframe import gc_paused

NAME = "folded"
SUFFIXES: tuple[str, ...] = (".folded", ".collapsed", ".txt", ".stacks")

_LINE = re.compile(rb"^[^\s;][^\n]*? [0-9]+(\.[0-9]+)?$")
_PYSPY = re.compile(r"^(?P<name>.+) \((?P<file>[^()]*?):(?P<line>[0-9]+)\)$")
_THREAD = re.compile(r"^thread \(\w+\)")
_PROCESS = re.compile(r"^process [0-9]+:")
EMPTY = "[empty]"
#: Stacks not seen before interned together (bounds the frames split at once).
BATCH = 20_000


def sniff(head: bytes, path: Path) -> bool:
    """The first line and most of the first 50 are ``frames count`` (a last line cut by the
    head's size is not looked at; a bad line among good ones is for ``read`` to name)."""
    lines = head.split(b"\n")
    if len(head) >= 65536:
        lines = lines[:-1]
    lines = [line.rstrip(b"\r") for line in lines[:50] if line.strip()]
    good = sum(1 for line in lines if _LINE.match(line))
    return bool(lines) and bool(_LINE.match(lines[0])) and 2 * good > len(lines)


def site(text: bytes, repairs: Repairs) -> Site:
    """A frame as py-spy (``name (file:line)``) or any other tool writes it."""
    name = decoded(text, repairs)
    if not name:
        repairs.note(f"empty frame names (between two ';'), named {EMPTY!r}")
        return Site(EMPTY)
    if _THREAD.match(name):
        return Site(name, type="thread")
    if _PROCESS.match(name):
        return Site(name, type="process")
    m = _PYSPY.match(name)
    if m is not None:
        return Site(m["name"], m["file"], int(m["line"]))
    return Site(name)


def read(
    path: Path,
    *,
    metric: str = "samples",
    unit: str | None = "samples",
    truncated: str = "error",
    limit: int | None = None,
) -> Any:
    """The GraphFrame of a folded-stacks file (see the module's text)."""
    if truncated not in ("error", "drop"):
        raise ValueError(f"truncated= is 'error' or 'drop', not {truncated!r}")
    repairs = Repairs()
    stacks = Stacks(1, lambda text: site(text, repairs))
    values: dict[int, float] = {}  # node → summed count (one column, no ranks)
    pending: list[bytes] = []  # stacks not seen before, interned together (Stacks.texts)
    counts: list[float] = []

    def flush() -> None:
        for node, value in zip(stacks.texts(pending, b";"), counts, strict=True):
            values[node] = values.get(node, 0.0) + value
        pending.clear()
        counts.clear()

    with gc_paused(), opened(path, **({} if limit is None else {"limit": limit})) as stream:
        for number, raw in enumerate(stream, 1):
            line = raw.rstrip(b"\r\n")
            if not line.strip():
                continue
            stack, _, count = line.rpartition(b" ")
            if not raw.endswith(b"\n"):
                # a line that is no 'stack count' at all (not folded stacks) says that first
                _count(count, stack, line, path, number)
                if truncated == "drop":
                    repairs.note("a last line without a line end (a file cut off), dropped")
                    break
                raise FormatError(
                    f"{path}, line {number}: the last line has no line end, so the file looks "
                    f"cut off (its count may be cut too): {_show(line)}; pass "
                    "truncated='drop' to read it without that line"
                )
            if count.isdigit() and len(count) < 16 and stack.strip():  # the common case
                value = float(int(count))
            else:
                value = _count(count, stack, line, path, number)
            node = stacks.known(stack)
            if node is not None:
                values[node] = values.get(node, 0.0) + value
            else:
                pending.append(stack)
                counts.append(value)
                if len(pending) >= BATCH:
                    flush()
    flush()
    if not values:
        raise FormatError(f"{path}: no stack with a count (a folded file has 'a;b;c 42' lines)")
    stacks.add_many(np.fromiter(values, np.int64, len(values)), np.fromiter(values.values(), float))
    gf = stacks.tree([Column(metric, "exclusive", unit)]).graphframe(
        {FORMAT: NAME, SOURCE: str(path), REPAIRS: repairs.counts}
    )
    return gf


def _count(count: bytes, stack: bytes, line: bytes, path: Path, number: int) -> float:
    if not stack.strip():
        raise FormatError(
            f"{path}, line {number}: {_show(line)} has no count: a folded line is the frames "
            "joined by ';', a space and a count (e.g. 'main;solve 42')"
        )
    try:
        value = float(count) if b"." in count or b"e" in count.lower() else int(count)
    except ValueError:
        raise FormatError(
            f"{path}, line {number}: the count {_show(count)} is not a number (in {_show(line)}); "
            "a folded line ends with a space and a count of samples (or a weight)"
        ) from None
    try:
        value = float(value)
    except OverflowError:  # an integer beyond any float
        value = float("inf")
    if not value >= 0 or value == float("inf"):
        raise FormatError(
            f"{path}, line {number}: the count {_show(count)} is negative or not finite; counts "
            "of samples (or weights) are zero or more"
        )
    return value


def _show(text: bytes) -> str:
    shown = text.decode("utf-8", "backslashreplace")
    return repr(shown if len(shown) <= 80 else shown[:77] + "...")


__all__ = ["NAME", "SUFFIXES", "read", "sniff"]
