"""Linking widgets by call path: the same calling context selected, focused, collapsed or shown in
two widgets whose trees differ (two runs, a filtered profile, a compare view).

``traitlets.link`` copies node ids, which are table positions: between different trees it selects
another function, or fails on an id out of range. ``cctviz.link`` maps each node by its call path
(``callpath.ContextKeys``, the keys saved view state uses); a node the other tree does not have is
skipped and reported in ``Link.skipped``, never mapped to another.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.callpath import ContextKeys

NODE_TRAITS = ("selection", "focused", "collapsed", "highlighted", "visible_roots")
"""Traits that hold node ids, which ``link`` maps by call path."""
DEFAULT = ("selection", "focused", "collapsed", "visible_roots")


class _Index:
    """Call-path keys of one widget's nodes, both ways, rebuilt when its table changes."""

    def __init__(self, widget: Any):
        self.widget = widget
        self._table: Any = None
        self._keys = ContextKeys()
        self._by_key: dict[Any, int] | None = None

    def _fresh(self) -> None:
        if self._table is not self.widget.table:
            self._table = self.widget.table
            self._keys = ContextKeys()
            self._by_key = None

    def key(self, node_id: int) -> Any:
        self._fresh()
        return self._keys.key(self._table.nodes[node_id])

    def id_of(self, key: Any) -> int | None:
        self._fresh()
        if self._by_key is None:
            self._by_key = {self._keys.key(n): i for i, n in enumerate(self._table.nodes)}
        return self._by_key.get(key)


class Link:
    """A live link between two widgets' node traits by call path (``cctviz.link`` makes one).

    ``skipped`` holds, per trait, the names of the nodes the last change could not carry over
    (the other tree does not have them); ``unlink()`` stops it."""

    def __init__(self, a: Any, b: Any, names: Iterable[str]):
        names = tuple(names)
        for name in names:
            if name not in NODE_TRAITS:
                raise ValueError(
                    f"link maps node traits by call path; {name!r} is not one. Accepted: "
                    f"{', '.join(map(repr, NODE_TRAITS))} (link other traits with traitlets.link)"
                )
        for w in (a, b):
            if not all(hasattr(w, n) for n in names) or not hasattr(w, "table"):
                raise TypeError(f"link needs two cctviz widgets; got {type(w).__name__}")
        self.widgets = (a, b)
        self.names = names
        self.skipped: dict[str, list[str]] = {}
        self._index = {id(a): _Index(a), id(b): _Index(b)}
        self._busy = False
        self._handlers = [(a, b, self._handler(a, b)), (b, a, self._handler(b, a))]
        for source, _, handler in self._handlers:
            source.observe(handler, names=list(names))
        # the second widget starts from the first's state
        for name in names:
            self._carry(a, b, name, getattr(a, name))

    def _handler(self, source: Any, target: Any) -> Any:
        def handler(change: Any) -> None:
            self._carry(source, target, change["name"], change["new"])

        return handler

    def _carry(self, source: Any, target: Any, name: str, value: Any) -> None:
        if self._busy:
            return  # the echo of a change this link made
        src, dst = self._index[id(source)], self._index[id(target)]
        missing: list[str] = []

        def mapped(node_id: int) -> int | None:
            other = dst.id_of(src.key(int(node_id)))
            if other is None:
                missing.append(source.table.name(int(node_id)))
            return other

        if value is None:
            new: Any = None
        elif isinstance(value, int):
            new = mapped(value)
        else:
            new = tuple(i for i in (mapped(v) for v in value) if i is not None)
            if name == "visible_roots":
                roots = set(target.table.roots.tolist())
                new = tuple(i for i in new if i in roots)
        self.skipped[name] = missing
        self._busy = True
        try:
            setattr(target, name, new)
        finally:
            self._busy = False

    def unlink(self) -> None:
        """Stop linking."""
        for source, _, handler in self._handlers:
            source.unobserve(handler, names=list(self.names))
        self._handlers = []


def link(a: Any, b: Any, names: Iterable[str] = DEFAULT) -> Link:
    """Link two widgets' ``names`` (node traits) by call path, both ways: a node selected,
    focused, collapsed or shown in one is the node with the same calling context in the other,
    even when their trees differ. A node the other tree lacks is skipped and listed in
    ``link.skipped``, never mapped to another node. ``b`` starts from ``a``'s state."""
    return Link(a, b, names)
