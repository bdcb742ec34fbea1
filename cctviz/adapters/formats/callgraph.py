"""A call graph (functions with self costs, caller → callee arcs with inclusive costs, as
callgrind writes it) made a calling context tree for :mod:`cctviz.adapters.formats.callgrind`.

A call graph does not say, for a function called from several places, which part of its cost
came from which call path. The tree gives each occurrence of a function the share of its cost
that its call arc carries: ``share(child) = share(caller) × arc cost ÷ all arcs into the
child`` (per event), its self cost and its own arcs scaled by that share: the assumption
kcachegrind's and gprof's call-graph views make. Where a function has one caller (most of a
program), the numbers are the file's exactly; the shares of each function add up to one, so the
roots' inclusive costs add up to the file's total.

Recursion: callgrind counts a recursive function's cost once, in the function, and writes a
``f → f`` arc whose cost overlaps it; such arcs, and the arcs closing a cycle of mutual
recursion (found depth first, from the functions nobody calls), are not expanded (their cost is
already the caller's). ``valgrind --separate-recs=N`` writes recursion levels as functions of
their own (``fib'2``), which come through as nodes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .calltree import ROOT, CallTree, Column, Site
from .source import FormatError


class CallGraph:
    """Functions (a :class:`Site` each) with self costs and arcs, per event."""

    def __init__(self, events: int) -> None:
        self.events = events
        self.sites: list[Site] = []
        self.self_cost: list[np.ndarray] = []
        self.arcs: dict[tuple[int, int], np.ndarray] = {}

    def function(self, site: Site) -> int:
        self.sites.append(site)
        self.self_cost.append(np.zeros(self.events))
        return len(self.sites) - 1

    def arc(self, caller: int, callee: int, cost: np.ndarray) -> None:
        key = (caller, callee)
        if key in self.arcs:
            self.arcs[key] = self.arcs[key] + cost
        else:
            self.arcs[key] = cost.copy()

    def dag(self) -> tuple[dict[int, list[int]], int]:
        """Callees of each function without recursive arcs, and how many arcs were dropped."""
        n = len(self.sites)
        callees: dict[int, list[int]] = {i: [] for i in range(n)}
        callers = np.zeros(n, np.int64)
        for f, g in self.arcs:
            if f != g:
                callees[f].append(g)
                callers[g] += 1
        dropped = sum(1 for f, g in self.arcs if f == g)
        state = np.zeros(n, np.int8)  # 0: not seen, 1: on the path, 2: done
        order = [i for i in range(n) if callers[i] == 0] + [i for i in range(n) if callers[i]]
        kept: dict[int, list[int]] = {i: [] for i in range(n)}
        for start in order:
            if state[start]:
                continue
            state[start] = 1
            stack = [(start, iter(callees[start]))]
            while stack:
                f, it = stack[-1]
                nxt = next(it, None)
                if nxt is None:
                    state[f] = 2
                    stack.pop()
                    continue
                g = nxt
                if state[g] == 1:
                    dropped += 1  # closes a cycle: its cost is inside the caller's already
                else:
                    kept[f].append(g)
                    if state[g] == 0:
                        state[g] = 1
                        stack.append((g, iter(callees[g])))
        return kept, dropped

    def into(self, tree: CallTree, columns: Sequence[Column], thread: int, max_nodes: int) -> int:
        """Expand the graph into ``tree`` (``thread``); the number of recursive arcs dropped."""
        kept, dropped = self.dag()
        n = len(self.sites)
        into = [np.zeros(self.events) for _ in range(n)]
        called = np.zeros(n, bool)
        for f, gs in kept.items():
            for g in gs:
                into[g] = into[g] + self.arcs[(f, g)]
                called[g] = True
        names = [c.name for c in columns]
        work: list[tuple[int, int, np.ndarray]] = [
            (ROOT, f, np.ones(self.events)) for f in range(n) if not called[f]
        ][::-1]
        made = 0
        while work:
            parent, f, share = work.pop()
            node = tree.child(parent, self.sites[f])
            made += 1
            if made > max_nodes:
                raise FormatError(
                    f"the call graph expands to more than {max_nodes:,} calling contexts (many "
                    "functions called from many places); pass max_nodes= to allow more"
                )
            tree.add(
                node,
                dict(zip(names, (share * self.self_cost[f]).tolist(), strict=True)),
                thread=thread,
            )
            for g in reversed(kept[f]):
                with np.errstate(divide="ignore", invalid="ignore"):
                    part = np.where(into[g] > 0, share * self.arcs[(f, g)] / into[g], 0.0)
                if np.any(part > 0):
                    work.append((node, g, part))
        return dropped


__all__ = ["CallGraph"]
