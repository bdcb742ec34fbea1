"""Level of detail between Python and the browser: which nodes are sent (``cctviz.lod`` decides),
the payload that carries them, and the front end's requests for more (``expand`` commands,
answered by a ``reply`` with the request's id; message kinds from ``cctviz.contract``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import traitlets as t

from .. import frames
from ..contract import MESSAGES
from ..lod import EXPAND_STEP, LevelOfDetail
from ..payload import encode
from ..table import NodeTable

if TYPE_CHECKING:
    from .. import selection as sel


def _message(kind: str) -> str:
    """A message kind, checked against the contract."""
    if kind not in MESSAGES:
        raise KeyError(f"message kind {kind!r} is not in cctviz/contract.json")
    return kind


EXPAND = _message("expand")
REPLY = _message("reply")
DISTRIBUTION = _message("distribution")

MAX_LOADED_MATCHES = 1000
"""Search matches loaded into the browser at most (the rest stay in their folds)."""


class LevelOfDetailBridge(t.HasTraits):
    """The level-of-detail half of ``CCT`` (a mixin: ``CCT`` holds the traits and the data)."""

    _table: NodeTable
    _tree: str
    _budget: int | None
    _lod: LevelOfDetail | None
    _payload: dict[str, Any]

    if TYPE_CHECKING:

        def _resolver(self) -> sel.Resolver: ...
        def send(self, content: dict[str, Any], buffers: Any = None) -> None: ...
        def distribution(self, node: Any, metric: str | None = None) -> Any: ...

    @property
    def budget(self) -> int | None:
        """Nodes sent to the browser at first (``None``: all). Trees up to this size are sent
        whole; bigger ones are sent best-first by inclusive value, the rest folded into "N more"
        rows that load on click. Set it with ``CCT(data, budget=...)``."""
        return self._budget

    @property
    def loaded(self) -> np.ndarray:
        """Ids of the nodes the browser has (all of them below the budget)."""
        if self._lod is None:
            return np.arange(self._table.size)
        return np.flatnonzero(self._lod.revealed)

    def load(self, what: Any) -> int:
        """Send these nodes (as ``select`` finds them) and their ancestors to the browser;
        returns how many were not there yet. Selecting, focusing or highlighting does it too."""
        return self._reveal(self._resolver().ids(what))

    def expand_fold(self, node: int, step: int = EXPAND_STEP) -> int:
        """Load the next ``step`` hidden children of ``node`` (``-1``: hidden roots), the largest
        first: what clicking a "N more" row does. Returns how many were loaded."""
        if self._lod is None:
            return 0
        added = self._lod.expand(int(node), step)
        if added:
            self._payload = self._encode()
        return added

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

    def _on_command(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Commands from the front end; each gets a reply with its request id."""
        kind = content.get("type") if isinstance(content, dict) else None
        if kind not in (EXPAND, DISTRIBUTION):
            return
        reply: dict[str, Any] = {"type": REPLY, "id": content.get("id")}
        try:
            node = content.get("node")
            if isinstance(node, bool) or not isinstance(node, int):
                raise ValueError(f"{kind} needs a node id; got {node!r}")
            if kind == EXPAND:
                reply.update(ok=True, loaded=self.expand_fold(node))
            else:
                metric = content.get("metric")
                if not isinstance(metric, str):
                    raise ValueError(f"distribution needs a metric name; got {metric!r}")
                if not 0 <= node < self._table.size:
                    raise ValueError(f"no node {node}: ids run from 0 to {self._table.size - 1}")
                reply.update(ok=True, spread=frames.spread(self.distribution(node, metric)))
        except (ValueError, KeyError) as error:
            reply.update(ok=False, error=str(error))
        self.send(reply)
