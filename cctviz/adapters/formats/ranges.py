"""Named time ranges on CPU threads (NVTX, ROCTX) and, for each call on a thread, the ranges
that enclose it: what a GPU profile's kernel is placed under when its launch has no call stack.

A range encloses a call when it starts at or before the call and ends at or after it, on the
call's thread. Nesting is read from time alone, so it can never be cyclic: ranges that cross
(start/end ranges may) both enclose a call they both hold, the earlier first; identical ranges
both count. One sweep by time per thread (calls sorted by start), so millions of calls cost
one sort and a pass, reusing the enclosing names while nothing starts or ends.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from cctviz.adapters.formats.untrusted import Repairs

#: (start, end, name)
Range = tuple[int, int, str]
FAR = 1 << 62


def per_thread(
    rows: Iterable[tuple[Any, Any, Any, str]], repairs: Repairs
) -> dict[int, list[Range]]:
    """``(start, end, thread, name)`` rows as each thread's ranges by start (the longer first);
    a range without integer start, end and thread, or ending before it starts, is ignored and
    counted."""
    out: dict[int, list[Range]] = defaultdict(list)
    for start, end, thread, name in rows:
        if not (type(start) is type(end) is type(thread) is int):
            repairs.add("ranges without integer start, end and thread, ignored")
        elif end < start:
            repairs.add("ranges that end before they start, ignored")
        else:
            out[thread].append((start, end, name))
    for spans in out.values():
        spans.sort(key=lambda r: (r[0], -r[1]))
    return dict(out)


def enclose(
    ranges: list[Range],
    calls: list[tuple[Any, ...]],
    count: Callable[[tuple[Any, ...], int], None],
) -> None:
    """For each call ``(start, end, *key, value)`` on the thread of ``ranges``:
    ``count((names, *key), value)`` with ``names`` the enclosing ranges' names, outermost
    first. ``calls`` is sorted in place by start."""
    calls.sort(key=lambda c: c[0])
    active: list[Range] = []
    names: tuple[str, ...] = ()
    i, n, low = 0, len(ranges), -1  # low: the earliest end among the active ranges
    for start, end, *key, value in calls:
        added = False
        while i < n and ranges[i][0] <= start:
            active.append(ranges[i])
            i += 1
            added = True
        if added or start > low or end > low:
            active = [r for r in active if r[1] >= start]
            low = min((r[1] for r in active), default=FAR)
            names = tuple(r[2] for r in active if r[1] >= end)
            if end > low:  # a range ends inside this call: the names are not all the active
                low = -1
        count((names, *key), value)


__all__ = ["Range", "enclose", "per_thread"]
