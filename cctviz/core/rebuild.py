"""Some of a profile's nodes as a GraphFrame (or Thicket) whose every node holds its rows as they
are in the profile: every metric, every rank and thread.

Hatchet's squash would change the numbers: it merges sibling nodes with equal frames (summing
their rows), and UMD hatchet's recomputes the inclusive columns over the smaller tree (or fails
to, on several real profiles). So ``to_code`` and ``selected_graphframe`` both filter without
squash and rebuild the tree with :func:`rebuild_tree`. ``to_code`` writes its source into the
code it returns, which therefore needs Hatchet only: keep it free of cctviz names and of
annotations that exec cannot evaluate."""

from __future__ import annotations

import inspect
from typing import Any


def rebuild_tree(gf: Any, keep: set[int], roots: set[int]) -> dict[Any, Any]:
    """Give ``gf``, filtered without squash to the nodes whose ``_hatchet_nid`` is in ``keep``,
    the tree of those nodes (in place): each under the kept nodes nearest above it along each of
    its callers, the nodes in ``roots`` at the top. The rows stay as they are in the profile.
    Returns each kept node's copy in the new tree, by the old node."""
    from hatchet.graph import Graph
    from hatchet.node import Node

    new = {
        node: Node(node.frame.copy(), hnid=node._hatchet_nid)
        for node in gf.graph.traverse()
        if node._hatchet_nid in keep
    }
    for old, node in new.items():
        if old._hatchet_nid in roots:
            continue
        # up each caller to the first kept node: a kept node's parent is its nearest kept
        # ancestor (iterative, so that deep call paths need no recursion)
        seen, todo = set(), list(old.parents)
        while todo:
            caller = todo.pop()
            if caller in seen:
                continue
            seen.add(caller)
            if caller in new:
                new[caller].add_child(node)
                node.add_parent(new[caller])
            else:
                todo.extend(caller.parents)
    tops = [node for old, node in new.items() if old._hatchet_nid in roots or not node.parents]
    graph = Graph(tops)
    if getattr(gf.graph, "node_ordering", False):
        graph.node_ordering = True
    graph.enumerate_traverse()  # Hatchet's numbering of the new tree
    graph.enumerate_depth()
    gf.graph = graph
    gf.dataframe = gf.dataframe.rename(index=new, level="node")
    return new


def source() -> str:
    """The source of :func:`rebuild_tree`, for code that runs without cctviz: with the import
    its annotations need where a cell evaluates them (no ``from __future__ import annotations``
    there)."""
    return "from typing import Any\n\n\n" + inspect.getsource(rebuild_tree)
