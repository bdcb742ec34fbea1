"""The Trace Event Format (JSON) that Chrome and Node (``--trace-event-categories``) write
and many tracers export (Perfetto's JSON, PyTorch's profiler…): an array of events, or an
object whose ``traceEvents`` holds them (an array without its closing ``]``, which the format
allows, is closed, and a last event cut mid-way dropped, each counted).

Complete events (``ph: "X"``, ``ts`` and ``dur``) and begin/end pairs (``B``/``E``) are spans:
``time`` in ``us`` (the format's ``ts`` and ``dur`` are microseconds; ``displayTimeUnit`` only
changes a viewer's display), inclusive, with the exclusive partner a span minus the spans nested
in it in the same thread (:mod:`.spans`). Each process (``pid``) is a rank and each thread
(``tid``) a thread, as the file numbers them (one of either gives no index level); their
names from the ``M`` metadata events are under ``metadata["cctviz.processes"]`` and
``["cctviz.threads"]`` (``"pid/tid"``), and a ``pid``/``tid`` that is not an integer is
numbered -1, -2… (``["cctviz.ids"]``). Other phases (instant, counter, async, flow, sample
events…) are counted under ``["cctviz.skipped_events"]``.

Events are read as the JSON parser makes them, one at a time, into numeric arrays (names
interned), so a trace of millions of events holds, besides its text and those arrays, one small
integer per event rather than a dict. Repairs are counted under ``metadata["cctviz.repairs"]``
(see :mod:`.spans` for nesting): events with no number ``ts``, and ``X`` events without a number
``dur`` ≥ 0 (negative durations), are dropped; array items that are not events are ignored.
"""

from __future__ import annotations

import re
from array import array
from pathlib import Path
from typing import Any

import numpy as np

from cctviz.adapters.formats.calltree import CallTree, Column, Site
from cctviz.adapters.formats.spans import NO_NAME, match, nest
from cctviz.adapters.formats.untrusted import (
    FormatError,
    Repairs,
    options,
    parse,
    text,
)

NAME = "trace-events"
SUFFIXES = (".trace.json",)
WHAT = "trace events (a JSON array of events with 'ph', or an object with 'traceEvents')"
X, B, E, M, BAD, OTHER = 0, 1, 2, 3, 4, 5  # OTHER + k: the k-th other phase seen
PHASES = {"X": X, "B": B, "E": E, "M": M}
LIMIT = 1 << 62  # a pid or tid beyond is numbered like one that is not an integer
_PH = re.compile(rb'"ph"\s*:')
_TRACE = re.compile(rb'"traceEvents"\s*:')


def sniff(head: bytes, path: Path) -> bool:
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if start[:1] == b"[":
        return start[1:].lstrip()[:1] in (b"{", b"") and bool(_PH.search(head))
    return start[:1] == b"{" and bool(_TRACE.search(head))


class _Event(int):
    """What the parser leaves of an event: its row in the arrays."""

    __slots__ = ()


class _Events:
    """Events as parsed, one row each: phase, process, thread, start, duration, name."""

    def __init__(self, repairs: Repairs) -> None:
        self.ph, self.pid, self.tid = array("b"), array("q"), array("q")
        self.ts, self.dur, self.name = array("d"), array("d"), array("q")
        self.names: dict[Any, int] = {}
        self.ids: dict[tuple[str, str], int] = {}
        self.meta: dict[int, tuple[str, Any]] = {}
        self.other: dict[str, int] = {}
        self.repairs = repairs

    def hook(self, event: dict[str, Any]) -> Any:
        get = event.get
        ph = get("ph")
        if ph is None:
            return event
        row = len(self.ph)
        code = PHASES.get(ph, -1) if type(ph) is str else -1
        ts, dur = get("ts"), get("dur") if code == X else 0.0
        if code == -1:
            key = str(ph)[:20] if len(self.other) < 100 else "(others)"
            code, ts = OTHER + self.other.setdefault(key, len(self.other)), 0.0
        elif code == M:
            self.meta[row] = (str(get("name")), get("args"))
            ts = 0.0
        try:
            if type(ts) not in (int, float) or type(dur) not in (int, float):
                raise TypeError
            ts, dur = float(ts), float(dur)  # type: ignore[arg-type]
        except (TypeError, OverflowError):
            code, ts, dur = BAD, 0.0, 0.0
        pid, tid = get("pid", 0), get("tid", 0)
        self.ph.append(code)
        self.pid.append(pid if type(pid) is int and -LIMIT < pid < LIMIT else self._id("pid", pid))
        self.tid.append(tid if type(tid) is int and -LIMIT < tid < LIMIT else self._id("tid", tid))
        self.ts.append(ts)
        self.dur.append(dur)
        name = get("name")
        number = self.names.get(name) if type(name) is str else None
        if number is None:
            if type(name) is not str:
                name = None if name is None else repr(name)[:4096]
            number = self.names.setdefault(name, len(self.names))
        self.name.append(number)
        return _Event(row)

    def _id(self, kind: str, value: Any) -> int:
        key = (kind, str(value)[:200])
        return self.ids.setdefault(key, -1 - sum(k[0] == kind for k in self.ids))


def read(path: Path, **given: Any) -> Any:
    """A GraphFrame of the trace-event file at ``path`` (option: ``limit``)."""
    opts = options(NAME, given, {"limit": None})
    repairs = Repairs()
    source = text(path, opts["limit"])
    events = _Events(repairs)
    try:
        doc = parse(source, path, WHAT, events.hook)
    except FormatError as error:
        if not source.lstrip().startswith("["):
            raise
        events, doc = _closed(source, path, repairs, error)
    del source
    listed = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(listed, list):
        raise FormatError(f"{path}: no list of events at the top; {WHAT} is needed")
    top = np.zeros(len(events.ph), bool)
    rows = [int(x) for x in listed if type(x) is _Event]
    top[rows] = True
    repairs.add("array items that are not events (no 'ph') ignored", len(listed) - len(rows))
    del doc, listed, rows
    tree = CallTree([Column("time", "inclusive", "us")])
    _spans(events, top, tree, path, repairs)
    return tree.graphframe(
        {"cctviz.format": NAME, **_names(events, top, repairs), **repairs.metadata()}
    )


def _closed(source: str, path: Path, repairs: Repairs, error: FormatError) -> tuple[_Events, Any]:
    """An array cut short parsed with its closing ``]`` added (which the format allows), and
    when its last event was cut mid-way too, without that event (tried at the last three
    ``}``); ``error`` when neither parses."""
    cuts, at = [len(source)], len(source)
    for _ in range(3):
        at = source.rfind("}", 0, at)
        if at < 0:
            break
        cuts.append(at + 1)
    whole = len(source.rstrip().rstrip(","))
    for end in cuts:
        kept = source[:end].rstrip().rstrip(",")
        events = _Events(repairs)
        try:
            doc = parse(kept + "]", path, WHAT, events.hook)
        except FormatError:
            continue
        repairs.add("JSON array without its closing ']' closed")
        repairs.add("a last event cut short dropped", int(len(kept) < whole))
        return events, doc
    raise error


def _spans(events: _Events, top: np.ndarray, tree: CallTree, path: Path, repairs: Repairs) -> None:
    ph = np.frombuffer(events.ph, np.int8)
    ts, dur = np.frombuffer(events.ts, float), np.frombuffer(events.dur, float)
    bad = top & ((ph == BAD) | ((ph < M) & ~np.isfinite(ts)) | ((ph == X) & ~(dur >= 0)))
    with np.errstate(over="ignore"):
        bad |= top & (ph == X) & ~np.isfinite(ts + dur)
    repairs.add("events without a number 'ts', or X without a 'dur' ≥ 0, dropped", int(bad.sum()))
    keep = np.flatnonzero(top & ~bad & (ph < M))
    if not len(keep):
        phases = _skipped(events, top)
        raise FormatError(
            f"{path}: no complete (X) or begin/end (B/E) events to read (other phases: {phases}); "
            f"{WHAT} is needed"
        )
    pid, tid = np.frombuffer(events.pid, np.int64)[keep], np.frombuffer(events.tid, np.int64)[keep]
    ph, ts, dur = ph[keep], ts[keep], dur[keep]
    name = np.frombuffer(events.name, np.int64)[keep]
    by_name = {i: n for n, i in events.names.items()}
    none = events.names.get(None, NO_NAME)
    sites: dict[int, Site] = {}
    interned: dict[tuple[int, int], int] = {}

    def child(parent: int, n: int) -> int:
        node = interned.get((parent, n))
        if node is None:
            site = sites.get(n)
            if site is None:
                site = sites[n] = Site(repairs.name(by_name.get(n), "(no name)"))
            node = interned[(parent, n)] = tree.child(parent, site)
        return node

    order = np.lexsort((np.arange(len(keep)), ts, tid, pid))  # each thread's events in time
    pid, tid, ph = pid[order], tid[order], ph[order]
    ts, dur, name = ts[order], dur[order], name[order]
    cuts = np.flatnonzero((np.diff(pid) != 0) | (np.diff(tid) != 0)) + 1
    for lo, hi in zip([0, *cuts.tolist()], [*cuts.tolist(), len(pid)], strict=True):
        p, t = ph[lo:hi], ts[lo:hi]
        x = p == X
        paired = ~x
        n = np.where(name[lo:hi] == none, NO_NAME, name[lo:hi])
        last = float(max(t.max(), (t[x] + dur[lo:hi][x]).max(initial=-np.inf)))
        s2, e2, n2 = match(t[paired], p[paired] == B, n[paired], last, repairs)
        starts = np.concatenate([t[x], s2])
        ends = np.concatenate([t[x] + dur[lo:hi][x], e2])
        names = np.concatenate([n[x], n2])
        where = f"{path}: pid {_said(events, 'pid', pid[lo])} tid {_said(events, 'tid', tid[lo])}"
        for node, value in nest(starts, ends, names, child, repairs, where).items():
            tree.add(node, {"time": value}, rank=int(pid[lo]), thread=int(tid[lo]))
        interned.clear()  # the tree keeps its nodes; the cache holds one thread's at a time


def _said(events: _Events, kind: str, number: int) -> str:
    """A pid or tid as the file wrote it."""
    return next((v for (k, v), n in events.ids.items() if k == kind and n == number), str(number))


def _names(events: _Events, top: np.ndarray, repairs: Repairs) -> dict[str, Any]:
    processes, threads = {}, {}
    for row, (kind, args) in events.meta.items():
        if not top[row] or not isinstance(args, dict) or "name" not in args:
            continue
        pid, tid = events.pid[row], events.tid[row]
        if kind == "process_name":
            processes[str(pid)] = repairs.name(args["name"], "")
        elif kind == "thread_name":
            threads[f"{pid}/{tid}"] = repairs.name(args["name"], "")
    ids = {f"{kind} {number}": value for (kind, value), number in events.ids.items()}
    return {
        "cctviz.processes": processes,
        "cctviz.threads": threads,
        "cctviz.ids": ids,
        "cctviz.skipped_events": _skipped(events, top),
    }


def _skipped(events: _Events, top: np.ndarray) -> dict[str, int]:
    """How many events of each phase not read (instant, counter, async…) the file holds."""
    codes = np.frombuffer(events.ph, np.int8)[top]
    counts = np.bincount(codes[codes >= OTHER] - OTHER, minlength=len(events.other))
    return {ph: int(counts[k]) for ph, k in sorted(events.other.items()) if counts[k]}
