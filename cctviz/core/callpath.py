"""Call paths: the key of a calling context that survives Hatchet operations and other runs.

Hatchet renumbers ``_hatchet_nid`` after ``filter(..., squash=True)``, and ``Node`` equality
compares only that number, so node ids and Node objects do not carry over to a filtered frame or
to another run of the same program. The call path does: the frames from a root down to the node,
following each node's first parent (the parent it is drawn under). Frames compare by their
attributes (``name``, ``type``, ``file``, ``line``, ...), as Hatchet's own ``Frame`` does.

A call path's key is a :class:`PathKey`: its last frame and its parent's key, shared with the
parent, with the hash computed once. Keying every node of a tree is therefore linear in the
number of nodes, however deep the tree (a tuple of frames per node would cost nodes × depth).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

CallPath = tuple[Any, ...]  # of hatchet Frame objects, root first
FrameKey = tuple[tuple[str, Any], ...]  # a frame's attributes, sorted by name


class PathKey:
    """A hashable call path: equal when the frames, root first, are equal (across trees)."""

    __slots__ = ("_hash", "depth", "frame", "parent")
    _hash: int

    def __init__(self, parent: PathKey | None, frame: FrameKey):
        self.parent = parent
        self.frame = frame
        self.depth: int = 1 if parent is None else parent.depth + 1
        self._hash = hash((None if parent is None else parent._hash, frame))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        # iterative: a path can be thousands of frames deep; shared prefixes end the walk early
        a: PathKey | None = self
        b: object = other
        while a is not b:
            if not isinstance(b, PathKey) or a is None:
                return False
            if a._hash != b._hash or a.depth != b.depth or a.frame != b.frame:
                return False
            a, b = a.parent, b.parent
        return True

    def frames(self) -> tuple[FrameKey, ...]:
        """The frames' attributes, root first."""
        out: list[FrameKey] = []
        key: PathKey | None = self
        while key is not None:
            out.append(key.frame)
            key = key.parent
        return tuple(reversed(out))

    def __repr__(self) -> str:
        return f"PathKey({list(self.frames())!r})"


def call_path(node: Any) -> CallPath:
    """The frames from the root to ``node`` along first parents (a cycle stops the walk)."""
    frames = []
    seen: set[int] = set()
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        frames.append(node.frame)
        node = node.parents[0] if node.parents else None
    return tuple(reversed(frames))


def frame_key(attrs: dict[Any, Any]) -> FrameKey:
    """A hashable key for one frame's attributes (a Frame's ``attrs`` or a saved dict)."""
    return tuple(sorted((str(k), _plain(v)) for k, v in attrs.items()))


def frames_to_json(path: CallPath) -> list[dict[str, Any]]:
    """A call path as JSON-serialisable frame attributes (for saved view state)."""
    return [{str(k): _plain(v) for k, v in sorted(frame.attrs.items())} for frame in path]


def _chain(frames: Iterable[FrameKey]) -> PathKey | None:
    key: PathKey | None = None
    for frame in frames:
        key = PathKey(key, frame)
    return key


def json_key(frames: list[dict[str, Any]]) -> PathKey | None:
    """The key of a call path given as frame attribute dicts (None for an empty path)."""
    return _chain(frame_key(f) for f in frames)


def path_key(path: CallPath) -> PathKey | None:
    """The same key as :func:`json_key`, from Frame objects."""
    return _chain(frame_key(frame.attrs) for frame in path)


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
    program. Trees are indexed once, on first use, per root; every walk is iterative and each
    node's path and root are remembered, so keying a whole tree costs time linear in its size.
    """

    def __init__(self) -> None:
        self._occurrence: dict[int, int] = {}
        self._indexed: set[int] = set()
        self._known: dict[int, tuple[PathKey, Any]] = {}  # id(node) → (path key, root)

    def key(self, node: Any) -> tuple[PathKey, int]:
        path, root = self._path(node)
        if id(root) not in self._indexed:
            self._index(root)
        return path, self._occurrence.get(id(node), 0)

    def _path(self, node: Any) -> tuple[PathKey, Any]:
        """The node's path key and root, from the nearest ancestor already known."""
        known = self._known.get(id(node))
        if known is not None:
            return known
        walk: list[Any] = []
        on_walk: set[int] = set()
        up = node
        while up is not None and id(up) not in self._known:
            if id(up) in on_walk:  # a cycle of first parents: keyed alone, not remembered
                return self._cyclic(node)
            walk.append(up)
            on_walk.add(id(up))
            up = up.parents[0] if up.parents else None
        if up is None:
            parent, root = None, walk[-1]
        else:
            parent, root = self._known[id(up)]
        for below in reversed(walk):
            parent = PathKey(parent, frame_key(below.frame.attrs))
            self._known[id(below)] = (parent, root)
        return self._known[id(node)]

    @staticmethod
    def _cyclic(node: Any) -> tuple[PathKey, Any]:
        path = call_path(node)
        key = path_key(path)
        assert key is not None  # a path holds at least the node itself
        return key, _root(node)

    def _index(self, root: Any) -> None:
        self._indexed.add(id(root))
        counts: dict[PathKey, int] = {}
        seen: set[int] = set()
        stack = [root]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            k = self._path(node)[0]
            self._occurrence[id(node)] = counts.get(k, 0)
            counts[k] = counts.get(k, 0) + 1
            stack.extend(reversed(node.children))


def _root(node: Any) -> Any:
    seen: set[int] = set()
    while node.parents and id(node) not in seen:
        seen.add(id(node))
        node = node.parents[0]
    return node


_REFERENCE = "{'path': [frame attributes, root first], 'occurrence': n} as in w.view_state"


def saved_references(name: str, value: Any, *, none: bool) -> list[Any]:
    """A saved list of node references, checked (``none``: None stands for every root)."""
    if value is None and none:
        return []
    if not isinstance(value, list):
        allowed = "a list of node references or None" if none else "a list of node references"
        raise TypeError(f"state[{name!r}] must be {allowed} ({_REFERENCE}); got {value!r:.80}")
    return value


def saved_reference(name: str, ref: Any) -> tuple[Any, int]:
    """The context key of one saved node reference, or a ``TypeError`` naming the key."""
    path = ref.get("path") if isinstance(ref, dict) else None
    occurrence = ref.get("occurrence", 0) if isinstance(ref, dict) else None
    if not (
        isinstance(path, list)
        and all(isinstance(frame, dict) for frame in path)
        and type(occurrence) is int
        and occurrence >= 0
    ):
        raise TypeError(f"state[{name!r}] holds {ref!r:.80}, not a node reference ({_REFERENCE})")
    return json_key(path), occurrence
