"""Call paths: the key of a calling context that survives Hatchet operations and other runs.

Hatchet renumbers ``_hatchet_nid`` after ``filter(..., squash=True)``, and ``Node`` equality
compares only that number, so node ids and Node objects do not carry over to a filtered frame or
to another run of the same program. The call path does: the frames from a root down to the node,
following each node's first parent (the parent it is drawn under). Frames compare by their
attributes (``name``, ``type``, ``file``, ``line``, ...), as Hatchet's own ``Frame`` does.
"""

from __future__ import annotations

from typing import Any

CallPath = tuple[Any, ...]  # of hatchet Frame objects, root first


def call_path(node: Any) -> CallPath:
    """The frames from the root to ``node`` along first parents (a cycle stops the walk)."""
    frames = []
    seen: set[int] = set()
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        frames.append(node.frame)
        node = node.parents[0] if node.parents else None
    return tuple(reversed(frames))


def frames_to_json(path: CallPath) -> list[dict[str, Any]]:
    """A call path as JSON-serialisable frame attributes (for saved view state)."""
    return [{str(k): _plain(v) for k, v in sorted(frame.attrs.items())} for frame in path]


def json_key(frames: list[dict[str, Any]]) -> tuple[tuple[tuple[str, Any], ...], ...]:
    """A hashable key for a call path given as frame attribute dicts."""
    return tuple(tuple(sorted((str(k), _plain(v)) for k, v in f.items())) for f in frames)


def path_key(path: CallPath) -> tuple[tuple[tuple[str, Any], ...], ...]:
    """The same key as :func:`json_key`, from Frame objects."""
    return json_key(frames_to_json(path))


def _plain(value: Any) -> Any:
    """numpy scalars and other non-JSON values as plain Python values."""
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


class ContextKeys:
    """Keys that tell calling contexts apart even when call paths repeat.

    A profile can hold several nodes with the same call path (HPCToolkit databases do). The key of
    a node is ``(call path, occurrence)``: the occurrence counts the nodes with that call path met
    before it in a pre-order walk of its tree, so it is the same in another run of the same
    program. Trees are indexed once, on first use, per root.
    """

    def __init__(self) -> None:
        self._occurrence: dict[int, int] = {}
        self._indexed: set[int] = set()

    def key(self, node: Any) -> tuple[Any, int]:
        path = call_path(node)
        root = id(_root(node))
        if root not in self._indexed:
            self._index(_root(node))
        return path_key(path), self._occurrence.get(id(node), 0)

    def _index(self, root: Any) -> None:
        self._indexed.add(id(root))
        counts: dict[Any, int] = {}
        seen: set[int] = set()
        stack = [root]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            k = path_key(call_path(node))
            self._occurrence[id(node)] = counts.get(k, 0)
            counts[k] = counts.get(k, 0) + 1
            stack.extend(reversed(node.children))


def _root(node: Any) -> Any:
    seen: set[int] = set()
    while node.parents and id(node) not in seen:
        seen.add(id(node))
        node = node.parents[0]
    return node
