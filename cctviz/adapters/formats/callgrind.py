"""Callgrind's profile format (``valgrind --tool=callgrind``, also written by other tools: the
format is callgrind's): a header (``events: Ir …``, ``positions: line``, ``summary:``), then
per function (``ob=`` object, ``fl=`` file, ``fn=`` function) cost lines ``position costs…``
(its self cost) and calls (``cfn=`` callee, ``calls=count target`` then the cost line of the
call: its inclusive cost), ending with ``totals:``. Names are compressed: ``(id) name`` defines
an id, ``(id)`` refers to it; positions may be relative (``+3``, ``-2``, ``*``).

Each event (``Ir``, ``Dr``, ``I1mr``…) is an exclusive metric (the self cost) with its inclusive
partner derived. The call graph becomes a calling context tree as
:mod:`cctviz.adapters.formats.callgraph` says (a function called from several places gets a
share of its costs in each). A node is a function: its name, object (``module``), file and the
first line it has costs at; costs per line within it are added up. ``thread:`` (a file of
``--separate-threads=yes``) becomes the ``thread`` index level.

Checks: the self costs must add up to the file's ``totals:`` (else ``summary:``) line; a file cut
off or damaged is said, never read with a wrong total. A reference to a compressed name never
defined (``fn=(12)`` without a ``(12) name`` before it) is an error naming the line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from .callgraph import CallGraph
from .calltree import CallTree, Column, Site
from .source import FormatError, opened
from .stacks import FORMAT, REPAIRS, SOURCE, Repairs, decoded

NAME = "callgrind"
SUFFIXES: tuple[str, ...] = (".callgrind", ".out")

_COMPRESSED = re.compile(rb"^\((\d+)\)(?: (.*))?$")
_UNITS = {"Ir": "instructions", "Dr": "reads", "Dw": "writes", "Bc": "branches", "Bi": "branches"}
# name kinds: which id space each key's compressed names live in
_SPACE = {
    b"ob": b"ob",
    b"cob": b"ob",
    b"fl": b"fl",
    b"fi": b"fl",
    b"fe": b"fl",
    b"cfi": b"fl",
    b"cfl": b"fl",
    b"fn": b"fn",
    b"cfn": b"fn",
}


def sniff(head: bytes, path: Path) -> bool:
    """``# callgrind format`` first, or ``events:``/``version:``/``creator:`` header lines."""
    if head.startswith(b"# callgrind format"):
        return True
    lines = head.split(b"\n")[:30]
    keys = {line.split(b":", 1)[0] for line in lines if b":" in line}
    return b"events" in keys and bool(keys & {b"version", b"creator", b"positions", b"cmd"})


def _unit(event: str) -> str:
    if event in _UNITS:
        return _UNITS[event]
    return "misses" if event.endswith(("mr", "mw", "m")) else "events"


class _Parser:
    def __init__(self, path: Path, repairs: Repairs) -> None:
        self.path, self.repairs = path, repairs
        self.names: dict[bytes, dict[bytes, str]] = {b"ob": {}, b"fl": {}, b"fn": {}}
        self.events: list[str] = []
        self.positions = [b"line"]
        self.graphs: dict[int, CallGraph] = {}
        self.functions: dict[tuple[int, str, str], int] = {}
        self.first_line: dict[tuple[int, int], int] = {}
        self.totals: np.ndarray | None = None
        self.summary: np.ndarray | None = None
        self.sums: np.ndarray | None = None
        self.thread = 0
        self.number = 0

    def fail(self, what: str) -> FormatError:
        return FormatError(f"{self.path}, line {self.number}: {what}")

    def name(self, key: bytes, value: bytes) -> str:
        m = _COMPRESSED.match(value)
        if m is None:
            return decoded(value, self.repairs)
        ids = self.names[_SPACE[key]]
        if m[2] is not None:
            ids[m[1]] = decoded(m[2], self.repairs)
        elif m[1] not in ids:
            raise self.fail(
                f"{key.decode()}=({m[1].decode()}) refers to a compressed name that no line "
                f"before defines (callgrind writes '({m[1].decode()}) name' the first time): the "
                "file is damaged or was cut and put together"
            )
        return ids[m[1]]

    def numbers(self, fields: list[bytes], what: str) -> np.ndarray:
        try:
            values = [int(f) for f in fields]
        except ValueError:
            raise self.fail(
                f"{what} {b' '.join(fields).decode(errors='replace')!r} are not whole numbers"
            ) from None
        if len(values) > len(self.events):
            raise self.fail(f"{what} have {len(values)} values for {len(self.events)} events")
        out = np.zeros(len(self.events))
        out[: len(values)] = values
        if np.any(out < 0):
            raise self.fail(f"{what} are negative; callgrind's costs are counts")
        return out


def read(path: Path, *, max_nodes: int = 2_000_000, limit: int | None = None) -> Any:
    """The GraphFrame of a callgrind file (see the module's text)."""
    p = _Parser(path, Repairs())
    with opened(path, **({} if limit is None else {"limit": limit})) as stream:
        _parse(p, stream)
    if p.sums is None:
        raise FormatError(f"{path}: no cost line (a callgrind file has 'events:' and costs)")
    file_total, said = (p.totals, "totals:") if p.totals is not None else (p.summary, "summary:")
    if file_total is None:
        p.repairs.note("no totals: or summary: line to check the costs against (not checked)")
    elif not np.array_equal(file_total[: len(p.sums)], p.sums):
        raise FormatError(
            f"{path}: the costs add up to {p.sums.astype(np.int64).tolist()} but the file's "
            f"{said} line says {file_total.astype(np.int64).tolist()} (events "
            f"{p.events}): the file is cut off or damaged"
        )
    columns = [Column(e, "exclusive", _unit(e)) for e in p.events]
    tree = CallTree(columns)
    recursive = sum(g.into(tree, columns, t, max_nodes) for t, g in sorted(p.graphs.items()))
    return tree.graphframe(
        {
            FORMAT: NAME,
            SOURCE: str(path),
            REPAIRS: p.repairs.counts,
            "callgrind.recursive_arcs": recursive,
            "callgrind.events": p.events,
        }
    )


def _parse(p: _Parser, stream: Any) -> None:  # one state machine, line by line
    ob = fl = fn_file = ""
    fn: int | None = None
    cob: str | None = None
    cfile: str | None = None
    callee: int | None = None
    after = b""  # b"calls": the next cost line is a call's; b"jump": a jump's source position
    last: list[int] = []
    info: dict[tuple[int, int], list[Any]] = {}  # (thread, function) → [name, file, ob, line]
    graph: CallGraph | None = None

    def function(name: str, obj: str, file: str) -> int:
        nonlocal graph
        if graph is None:
            graph = p.graphs.setdefault(p.thread, CallGraph(len(p.events)))
        key = (p.thread, obj, name)
        f = p.functions.get(key)
        if f is None:
            f = p.functions[key] = graph.function(Site(name))
            info[(p.thread, f)] = [name, file or None, obj or None, None]
        return f

    def known(text: str) -> str | None:
        return None if text in ("", "???") else text

    for p.number, raw in enumerate(stream, 1):
        line = raw.rstrip(b"\r\n")
        if not line or line.startswith(b"#"):
            continue
        head = line[:1]
        if head.isdigit() or head in (b"+", b"-", b"*"):
            if fn is None or graph is None:
                raise p.fail("a cost line before any fn= line names its function")
            fields = line.split()
            count = len(p.positions)
            if len(fields) < count:
                raise p.fail(
                    f"a cost line needs {count} position(s) ({p.positions}), got "
                    f"{line.decode(errors='replace')!r}"
                )
            at = _positions(p, fields[:count], last)
            if after == b"jump":
                after = b""
                continue
            cost = p.numbers(fields[count:], "the costs")
            if after == b"calls":
                assert callee is not None
                graph.arc(fn, callee, cost)
                after, cob, cfile = b"", None, None
                continue
            graph.self_cost[fn] += cost
            p.sums = cost if p.sums is None else p.sums + cost
            lineno = at.get(b"line")
            entry = info[(p.thread, fn)]
            if lineno and fl == fn_file and (entry[3] is None or lineno < entry[3]):
                entry[3] = lineno
            continue
        key, sep, value = line.partition(b"=")
        if sep and key in _SPACE:
            text = p.name(key, value)
            if key == b"ob":
                ob = text
            elif key == b"fl":
                fl = text
            elif key in (b"fi", b"fe"):
                pass  # inlined code: its costs are the function's (its file is the function's)
            elif key == b"fn":
                fn_file = fl
                fn = function(text, ob, fl)
                entry = info[(p.thread, fn)]
                entry[1] = entry[1] or fl or None  # first seen as a callee: its file is here
            elif key == b"cob":
                cob = text
            elif key in (b"cfi", b"cfl"):
                cfile = text
            else:  # cfn
                callee = function(text, cob if cob is not None else ob, cfile or "")
            continue
        if sep and key == b"calls":
            if callee is None or fn is None:
                raise p.fail("calls= without a cfn= (the called function) before it")
            after = b"calls"
            continue
        if sep and key in (b"jump", b"jcnd"):
            after = b"jump"
            continue
        _header(p, line)
    for (thread, f), (name, file, obj, lineno) in info.items():
        p.graphs[thread].sites[f] = Site(name, known(file or ""), lineno, known(obj or ""))


def _positions(p: _Parser, fields: list[bytes], last: list[int]) -> dict[bytes, int]:
    if len(last) != len(fields):
        last[:] = [0] * len(fields)
    for i, f in enumerate(fields):
        try:
            if f == b"*":
                continue
            if f[:1] in (b"+", b"-"):
                last[i] += int(f, 0)
            else:
                last[i] = int(f, 0)
        except ValueError:
            raise p.fail(f"the position {f.decode(errors='replace')!r} is not a number") from None
    return dict(zip(p.positions, last, strict=True))


def _header(p: _Parser, line: bytes) -> None:
    key, sep, value = line.partition(b":")
    if not sep:
        raise p.fail(
            f"{line[:60].decode(errors='replace')!r} is neither a header ('key: value'), a "
            "name ('fn=…') nor a cost line ('position costs…')"
        )
    key = key.strip()
    if key == b"events":
        p.events = [e.decode(errors="replace") for e in value.split()]
    elif key == b"positions":
        p.positions = value.split() or [b"line"]
    elif key == b"thread":
        p.thread = int(value.strip() or 0)
    elif key in (b"totals", b"summary"):
        values = p.numbers(value.split(), f"the {key.decode()}: values")
        if key == b"totals":
            p.totals = values if p.totals is None else p.totals + values
        else:
            p.summary = values if p.summary is None else p.summary + values


__all__ = ["NAME", "SUFFIXES", "read", "sniff"]
