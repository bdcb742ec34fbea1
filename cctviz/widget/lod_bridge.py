"""Level of detail between Python and the browser: which nodes are sent (``cctviz.view.lod``
decides), the payload that carries them, and the front end's requests to load more (``load_more``
messages, answered by a ``reply`` with the request's id; message kinds from
``cctviz.core.contract``)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import traitlets as t

from ..core.table import NodeTable
from ..view.lod import LOAD_MORE_STEP, LevelOfDetail
from ..view.payload import encode
from .part import Message, WidgetPart, handles, node_of

MAX_LOADED_MATCHES = 1000
"""Search matches loaded into the browser at most (the rest stay in their folds)."""


class LevelOfDetailBridge(WidgetPart):
    """The level-of-detail part of ``CCT``: what the browser has, and loading more of it."""

    @property
    def budget(self) -> int | None:
        """Nodes sent to the browser at first (``None``: all). Trees up to this size are sent
        whole; bigger ones are sent best-first by inclusive value, the rest folded into "N more"
        rows that load on click. Set it with ``CCT(data, budget=...)``."""
        return self._budget

    def load(self, what: Any) -> int:
        """Send these nodes (as ``select`` finds them) and their ancestors to the browser;
        returns how many were not there yet. Selecting, focusing or highlighting does it too."""
        return self._reveal(self._resolver().ids(what))

    def load_more(self, node: int, step: int = LOAD_MORE_STEP) -> int:
        """Load the next ``step`` hidden children of ``node`` (``-1``: hidden roots), the largest
        first: what clicking a "N more" row does. Returns how many were loaded."""
        if self._lod is None:
            return 0
        added = self._lod.load_more(int(node), step)
        if added:
            self._payload = self._encode()
        return added

    def expand_fold(self, node: int, step: int = LOAD_MORE_STEP) -> int:
        """Deprecated: ``load_more``."""
        warnings.warn(
            "w.expand_fold is now w.load_more (expand_fold will be removed)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.load_more(node, step)

    def _values_again(self, held: Any, now: Any, build: Callable[[], NodeTable]) -> bool:
        """Keep the table unless its inputs changed (``held``, what it was built with, equals
        ``now``: False). Else use ``build()``'s, the same tree with other values (another
        reducer, rank or derived metric), keeping the nodes the browser has loaded: True."""
        if held == now:
            return False
        self._use(self._data, build())
        revealed = None if self._lod is None else self._lod.revealed
        self._lod = self._level_of_detail(self._table)
        if self._lod is not None and revealed is not None:
            self._lod.reveal(revealed.nonzero()[0])  # the same tree: keep what was loaded
        return True

    def _level_of_detail(self, table: NodeTable) -> LevelOfDetail | None:
        if self._budget is None or table.size <= self._budget:
            return None
        return LevelOfDetail(table, self._budget)

    def _encode(self) -> dict[str, Any]:
        """The payload of what the browser has: the whole table, or the loaded nodes and folds."""
        if self._lod is None:
            return encode(self._table, tree=self._tree)
        drawn = self._lod.drawn()
        return encode(
            drawn.table,
            node_id=drawn.node_id,
            folded=drawn.folded,
            total=self._table.size,
            tree=self._tree,
        )

    def _reveal(self, ids: Any) -> int:
        """Send these nodes and their paths (under level of detail); how many were added."""
        if self._lod is None:
            return 0
        added = self._lod.reveal(ids)
        if added:
            self._payload = self._encode()
        return added

    @t.observe("selection", "highlighted", "focused", "visible_roots")
    def _load_nodes(self, change: t.Bunch) -> None:
        # under level of detail, nodes named from Python (or by another view) that the browser
        # does not have yet are sent, with their paths, in the next payload
        new = change["new"]
        if new is not None:
            self._reveal([new] if isinstance(new, int) else new)

    @handles("load_more")
    def _load_more_request(self, content: Message) -> dict[str, Any]:
        """A click on a fold: its next hidden children (Python sends the table, then the reply)."""
        return {"loaded": self.load_more(node_of(content))}
