"""The drawn tree of a Hatchet graph: a depth-first pre-order walk that visits each node once,
under the first parent it is reached from, and the edges it leaves out (a DAG's other callers,
cycles). Iterative, so call paths of any depth walk without recursion."""

from __future__ import annotations

import array
from typing import Any


def spanning_tree(
    roots: list[Any],
) -> tuple[list[Any], array.array[int], array.array[int], list[tuple[int, int]]]:
    """Depth-first pre-order over the graph, each node once, under the first parent reached
    (Hatchet keeps ``parents`` and ``children`` of its nodes consistent).

    Returns nodes, parent index, depth, and the (parent, child) index pairs of the edges not drawn.
    Iterative, so deep trees do not hit the recursion limit; cycles end (each node is visited once).
    """
    position: dict[int, int] = {}
    nodes: list[Any] = []
    # int32 arrays, not lists: a list holds an int object per entry (a few times the memory)
    parent = array.array("i")
    depth = array.array("i")
    extra: list[tuple[int, int]] = []
    # two parallel stacks (node, parent index) instead of tuples, and bound methods: this loop
    # is the adapter's hot path (1M nodes)
    stack = list(reversed(roots))
    stack_parent = [-1] * len(stack)
    pop, pop_parent = stack.pop, stack_parent.pop
    push, push_parent = stack.extend, stack_parent.extend
    add_node, add_parent, add_depth = nodes.append, parent.append, depth.append
    while stack:
        node = pop()
        par = pop_parent()
        # only a node with more parents than the edge it was reached by can be reached again
        # (a DAG, or a cycle through a root): recording every node would cost ~80 bytes each
        if len(node.parents) > (par >= 0):
            key = id(node)
            seen = position.get(key)
            if seen is not None:
                if par >= 0:
                    extra.append((par, seen))
                continue
            position[key] = len(nodes)
        i = len(nodes)
        add_node(node)
        add_parent(par)
        add_depth(depth[par] + 1 if par >= 0 else 0)
        children = node.children
        if children:
            push(reversed(children))
            push_parent([i] * len(children))
    return nodes, parent, depth, extra


def count_cycle_edges(extra: list[tuple[int, int]], parent: array.array[int]) -> int:
    """How many undrawn edges point from a node to one of its drawn ancestors (close a cycle)."""
    count = 0
    for src, dst in extra:
        p = src
        while p >= 0 and p != dst:
            p = parent[p]
        count += p == dst
    return count
