"""Spans of one thread (a start, an end and a name each) nested into a calling context tree:
a span inside another one is its child, as trace viewers draw them; begin/end event pairs are
first matched into spans. Used by the trace-event reader, written for any format of timed
regions.

Repairs, each counted in the :class:`~cctviz.adapters.formats.untrusted.Repairs` given:

- an end event with nothing open, or naming no open span, is ignored;
- an end event naming an enclosing span closes the spans opened inside it too, at its time;
- a begin event never ended is closed at the thread's last time;
- a span that starts inside another one but ends after it (invalid nesting, which trace
  writers produce now and then) is split at the other one's end: the part inside is a child,
  the rest continues beside it. Every span's duration is kept, no exclusive value is negative,
  and the roots hold the time the thread was inside any span. Overlaps so dense that this
  would take more than ``2n + SPLITS`` splits are refused with a :class:`FormatError`.

Spans are sorted once (numpy) and swept with one stack, so the work is ``O(n log n)`` with no
per-span object beyond the sweep's stack and the split pieces.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

import numpy as np

from cctviz.adapters.formats.calltree import ROOT
from cctviz.adapters.formats.untrusted import FormatError, Repairs

#: what "no name" is among the name ids (an end event without a name closes the innermost)
NO_NAME = -1
#: splits allowed beyond two per span before overlapping spans are refused
SPLITS = 100_000


def match(
    times: np.ndarray, begins: np.ndarray, names: np.ndarray, last: float, repairs: Repairs
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Begin (``begins`` true) and end events of one thread, in time order, matched into spans
    ``(starts, ends, names)``; see the module's repairs."""
    starts: list[float] = []
    ends: list[float] = []
    named: list[int] = []
    stack: list[tuple[float, int]] = []
    for t, begin, name in zip(times.tolist(), begins.tolist(), names.tolist(), strict=True):
        if begin:
            stack.append((t, name))
            continue
        depth = len(stack) - 1
        if name != NO_NAME:
            while depth >= 0 and stack[depth][1] != name:
                depth -= 1
        if depth < 0:
            repairs.add("end events (E) with no matching begin ignored")
            continue
        repairs.add(
            "begin events (B) closed by the end of an enclosing span", len(stack) - 1 - depth
        )
        while len(stack) > depth:
            start, opened = stack.pop()
            starts.append(start)
            ends.append(t)
            named.append(opened)
    repairs.add("begin events (B) never ended, closed at the thread's last time", len(stack))
    for start, opened in stack:
        starts.append(start)
        ends.append(max(last, start))
        named.append(opened)
    return np.asarray(starts, float), np.asarray(ends, float), np.asarray(named, np.int64)


def nest(
    starts: np.ndarray,
    ends: np.ndarray,
    names: np.ndarray,
    child: Callable[[int, int], int],
    repairs: Repairs,
    where: str,
) -> dict[int, float]:
    """Each node's summed span durations, the spans nested by time; ``child(parent, name)`` is
    the tree's node for a name under a parent node (``ROOT`` for a root). Spans overlapping so
    much that splitting them would take more than ``2n + 100,000`` splits are a
    :class:`FormatError` (``where`` says which thread)."""
    order = np.lexsort((np.arange(len(starts)), -ends, starts))  # by start, longest first
    s_list, e_list, n_list = starts[order].tolist(), ends[order].tolist(), names[order].tolist()
    own: dict[int, float] = {}
    stack: list[tuple[float, int]] = []  # (end, node)
    pieces: list[tuple[float, float, int, int]] = []  # split rests: (start, -end, seq, name)
    i = seq = 0
    n = len(s_list)
    limit = 2 * n + SPLITS
    while i < n or pieces:
        if pieces and (i >= n or pieces[0][:2] < (s_list[i], -e_list[i])):
            start, minus_end, _, name = heapq.heappop(pieces)
            end = -minus_end
        else:
            start, end, name = s_list[i], e_list[i], n_list[i]
            i += 1
        while stack and stack[-1][0] <= start:
            stack.pop()
        if stack and end > stack[-1][0]:
            seq += 1
            if seq > limit:
                raise FormatError(
                    f"{where}: spans overlap without nesting so often that more than {limit:,} "
                    "splits would not make them a call tree; a trace of nested spans is needed"
                )
            heapq.heappush(pieces, (stack[-1][0], -end, seq, name))
            end = stack[-1][0]
            repairs.add("spans ending after the span they start in, split at its end")
        node = child(stack[-1][1] if stack else ROOT, name)
        own[node] = own.get(node, 0.0) + (end - start)
        stack.append((end, node))
    return own


__all__ = ["NO_NAME", "SPLITS", "match", "nest"]
