"""Linux ``perf script`` output: one block per sample, a header line (``comm tid time: period
event:``, or ``comm pid/tid …`` with ``-F +pid``) then the call chain, innermost frame first, one
``address symbol+offset (dso)`` line each (``perf record -g``), and with ``-F +srcline`` a
``file:line`` line after each frame; a blank line ends the sample. Without ``-g`` the one frame
is on the header line.

Each sample counts once in ``samples`` and its period (the event's weight: nanoseconds for
``cpu-clock``/``task-clock``, events for hardware counters) in a column named after the event;
both are exclusive (they belong to the innermost frame) with inclusive partners derived. Several
events: ``<event> samples`` and ``<event>`` per event. A frame is its symbol (offset dropped)
and its dso (Hatchet's ``module``); ``srcline`` gives the ``file`` (and, with ``lines=True``,
the ``line``, one node per line: a function sampled at many lines then has many nodes).

The process and thread are the sample's, not frames: ``pid/tid`` become the ``rank`` and
``thread`` index levels; perf script's default header shows the thread id only (``thread``).
Repairs (``gf.metadata["cctviz.repairs"]``): names that are not UTF-8 (kept as ``\\xNN``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .calltree import Column, Site
from .source import FormatError, opened
from .stacks import FORMAT, REPAIRS, SOURCE, Repairs, Stacks, decoded

NAME = "perf"
SUFFIXES: tuple[str, ...] = (".perf", ".script", ".perf-script", ".data.txt")

_HEADER = re.compile(
    rb"^(?P<comm>\S.*?)\s+(?:(?P<pid>-?\d+)/)?(?P<tid>-?\d+)\s+(?:\[\d+\]\s+)?"
    rb"(?:\d+\.\d+:\s+)?(?:(?P<period>\d+)\s+)?(?P<event>\S+):(?:\s+(?P<rest>.*))?$"
)
_FRAME = re.compile(rb"^\s*[0-9a-fA-F]+\s+(?P<sym>.*?)(?:\+0x[0-9a-fA-F]+)?\s+\((?P<dso>.*)\)$")
_HEX = re.compile(rb"[0-9a-fA-F]+")
_SRCLINE = re.compile(rb"^  (?P<file>\S.*):(?P<line>\d+)$")
_MODIFIERS = re.compile(r"^(?P<event>.+?):[ukhGHpPSDIWe]+$")
_NS_EVENTS = ("cpu-clock", "task-clock")


def sniff(head: bytes, path: Path) -> bool:
    """The first sample's header line, then a frame line (or one on the header itself)."""
    lines = [line for line in head.split(b"\n")[:200] if not line.startswith(b"#")]
    for i, line in enumerate(lines[:-1]):
        if not line.strip():
            continue
        m = _HEADER.match(line)
        if m is None:
            return False
        following = lines[i + 1]
        return bool(_FRAME.match(following)) or bool(_FRAME.match(b"\t" + (m["rest"] or b"")))
    return False


def _event(raw: bytes) -> str:
    text = raw.decode("utf-8", "backslashreplace")
    m = _MODIFIERS.match(text)
    return m["event"] if m else text


def read(path: Path, *, lines: bool = False, limit: int | None = None) -> Any:
    """The GraphFrame of ``perf script`` output (see the module's text)."""
    repairs = Repairs()
    parsed: dict[bytes, Site] = {}

    def parse(key: bytes) -> Site:
        return parsed[key]

    stacks = Stacks(0, parse)
    events: dict[str, int] = {}  # event → its index
    # (node, rank, thread, event) → [samples, period]
    sums: dict[tuple[int, int, int, int], list[float]] = {}
    frames: list[bytes] = []
    seen: dict[bytes, bytes] = {}  # a frame line → its key in ``parsed``
    header: re.Match[bytes] | None = None
    number = start = 0

    def flush() -> None:
        assert header is not None
        if not frames:
            frames.append(b"[unknown]\x00[no call chain]")
            parsed.setdefault(frames[0], Site("[no call chain]"))
        node = stacks.node(frames[::-1])
        event = events.setdefault(_event(header["event"]), len(events))
        rank = int(header["pid"]) if header["pid"] is not None else 0
        key = (node, rank, int(header["tid"]), event)
        row = sums.setdefault(key, [0.0, 0.0])
        row[0] += 1.0
        row[1] += float(header["period"] or 0)
        frames.clear()

    with opened(path, **({} if limit is None else {"limit": limit})) as stream:
        for number, raw in enumerate(stream, 1):
            line = raw.rstrip(b"\r\n")
            if header is None:
                if not line.strip() or line.startswith(b"#"):
                    continue
                header = _HEADER.match(line)
                if header is None:
                    raise FormatError(
                        f"{path}, line {number}: expected a sample's header line "
                        f"('comm tid time: period event:'), found {_show(line)}"
                    )
                start = number
                rest = (header["rest"] or b"").strip()
                # perf script without -g: the frame is on the header line (a tracepoint's
                # fields are not a frame)
                if rest and _FRAME.match(b"\t" + rest):
                    frames.append(_frame(b"\t" + rest, parsed, repairs, path, number))
                continue
            if not line.strip():
                flush()
                header = None
            elif line.startswith(b" "):  # a frame's srcline (two spaces; frames start with a tab)
                _srcline(line, frames, parsed, lines)
            else:  # the same frame line (address, symbol, object) comes again and again
                key = seen.get(line)
                if key is None:
                    key = _frame(line, parsed, repairs, path, number)
                    if len(seen) < 1 << 20:
                        seen[line] = key
                frames.append(key)
    if header is not None:
        raise FormatError(
            f"{path}, line {number}: the sample that starts on line {start} has no blank line "
            "after it: the file looks cut off (perf script ends every sample with a blank line)"
        )
    if not sums:
        raise FormatError(f"{path}: no sample (perf script output has a header line per sample)")
    names = list(events)
    columns: list[Column] = []
    for name in names:
        unit = "ns" if name in _NS_EVENTS else "events"
        counted = "samples" if len(names) == 1 else f"{name} samples"
        columns += [Column(counted, "exclusive", "samples"), Column(name, "exclusive", unit)]
    width = len(columns)
    for (node, rank, thread, event), (count, period) in sums.items():
        values = [0.0] * width
        values[2 * event], values[2 * event + 1] = count, period
        stacks.add(node, values, rank=rank, thread=thread)
    stacks.width = width
    return stacks.tree(columns).graphframe(
        {FORMAT: NAME, SOURCE: str(path), REPAIRS: repairs.counts, "perf.events": names}
    )


def _frame(
    line: bytes, parsed: dict[bytes, Site], repairs: Repairs, path: Path, number: int
) -> bytes:
    """The key of the frame on ``line`` (its symbol and object), parsed into ``parsed``."""
    # split by hand, not by _FRAME (a third of the time on a big file): the address, then the
    # symbol up to the last " (", whose "+0x…" offset is dropped, then the object in brackets
    address, _, rest = line.strip().partition(b" ")
    cut = rest.rfind(b" (")
    if cut < 0 or not rest.endswith(b")") or not _HEX.fullmatch(address):
        raise FormatError(
            f"{path}, line {number}: expected a frame ('address symbol+offset (dso)') or a "
            f"blank line ending the sample, found {_show(line)}"
        )
    sym, dso = rest[:cut].strip(), rest[cut + 2 : -1]
    base, plus, offset = sym.rpartition(b"+0x")
    if plus and _HEX.fullmatch(offset):
        sym = base
    key = sym + b"\x00" + dso
    if key not in parsed:
        name = decoded(sym, repairs) or "[unknown]"
        parsed[key] = Site(name, module=decoded(dso, repairs))
    return key


def _srcline(line: bytes, frames: list[bytes], parsed: dict[bytes, Site], lines: bool) -> None:
    """``file:line`` after a frame: the frame's file (and line, with ``lines=True``)."""
    m = _SRCLINE.match(line)
    if m is None or not frames or m["file"] == b"??":
        return
    key = frames[-1] + b"\x00" + (m["file"] + b":" + m["line"] if lines else m["file"])
    if key not in parsed:
        base = parsed[frames[-1]]
        file = m["file"].decode("utf-8", "backslashreplace")
        parsed[key] = Site(base.name, file, int(m["line"]) if lines else None, base.module)
    frames[-1] = key


def _show(text: bytes) -> str:
    shown = text.decode("utf-8", "backslashreplace")
    return repr(shown if len(shown) <= 80 else shown[:77] + "...")


__all__ = ["NAME", "SUFFIXES", "read", "sniff"]
