"""Functions and their lexical parts: HPCToolkit's loops and statements (source lines) belong to
the procedure that holds them, as in hpcviewer's flat view.

Hatchet's HPCToolkit readers make a node of every procedure frame, loop and statement, with a
``type`` that says which (the XML reader: ``PF``/``Pr``, ``L``, ``S``; the v4 readers:
``function``, ``loop``, ``line``; also ``instruction``: a call whose callee is unknown, and
LLNL's ``entry`` root, which stand for themselves). A loop or statement is a *part* of its
nearest ancestor that is not one: its *owner*, the procedure.

A procedure's exclusive cost in HPCToolkit holds the costs of all its loops and statements.
The v4 readers keep that value (a function's ``time`` is the sum of its lines' and loops').
Hatchet's XML reader takes each statement's value out of its parent (the procedure or the
loop holding it): the value a statement (``S``) took away is given back to its parent here,
and then every procedure's exclusive value is its inclusive value minus its callees' (checked
on every HPCToolkit profile in ../shared/data, both distributions: tests/test_functions.py).
Caliper's source-line nodes (``statement``) are not in their region's value either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..core.table import NodeTable

PARTS = frozenset({"L", "S", "loop", "statement", "line"})
"""Node types that are a part of the procedure holding them (loops and source lines)."""
TAKEN_OUT = frozenset({"S", "statement"})
"""Node types whose exclusive value is not in their parent's (Hatchet's XML reader subtracts a
statement's value from its parent; Caliper attributes a sample to the line alone)."""


@dataclass(frozen=True)
class Lexical:
    """Which nodes are parts (loops, statements) and which procedure owns each node."""

    part: np.ndarray  # bool per node
    owner: np.ndarray  # int64 per node: the procedure a part belongs to; itself otherwise
    taken_out: np.ndarray  # bool per node: its exclusive value is not in its parent's

    @property
    def any(self) -> bool:
        """Whether the profile has loops or statements at all."""
        return bool(self.part.any())

    def call_parent(self, parent: np.ndarray) -> np.ndarray:
        """Each node's caller: the procedure owning its parent (-1 for a root)."""
        return np.where(parent >= 0, self.owner[np.maximum(parent, 0)], -1)


def lexical(table: NodeTable) -> Lexical:
    """The parts and owners of ``table``'s nodes (computed once per table)."""
    cache = _CACHE.get(id(table))
    if cache is not None and cache[0] is table:
        return cache[1]
    n = table.size
    kinds = np.array([t in PARTS for t in table.types], dtype=bool)
    out = np.array([t in TAKEN_OUT for t in table.types], dtype=bool)
    part = kinds[table.type_code] if n and kinds.any() else np.zeros(n, dtype=bool)
    part &= table.parent >= 0  # a root stands for itself
    taken = out[table.type_code] & part if n and out.any() else np.zeros(n, dtype=bool)
    owner = np.arange(n, dtype=np.int64)
    if part.any():
        # pre-order, level by level: a part's parent's owner is known before the part's
        nodes = np.flatnonzero(part)
        depth = table.depth[nodes]
        order = np.argsort(depth, kind="stable")
        nodes, depth = nodes[order], depth[order]
        bounds = np.flatnonzero(np.diff(depth)) + 1
        for level in np.split(nodes, bounds):
            owner[level] = owner[table.parent[level]]
    result = Lexical(part=part, owner=owner, taken_out=taken)
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[id(table)] = (table, result)
    return result


_CACHE: dict[int, tuple[NodeTable, Lexical]] = {}


def own_exclusive(table: NodeTable, values: np.ndarray, lex: Lexical | None = None) -> np.ndarray:
    """Exclusive ``values`` as HPCToolkit counts them: what a statement's value took out of its
    parent given back (a procedure's value then holds all its loops and statements). NaN where
    neither the node nor any such child has a value. Unchanged without statements."""
    lex = lexical(table) if lex is None else lex
    if not lex.taken_out.any():
        return values
    kids = np.flatnonzero(lex.taken_out & ~np.isnan(values))
    out = values.copy()
    parents = table.parent[kids]
    missing = np.isnan(out[parents])
    out[parents[missing]] = 0.0
    np.add.at(out, parents, values[kids])
    return out


#: Node types of procedures in Hatchet's HPCToolkit XML reader, which names a called procedure
#: ``"296:psm_progress_wait"``: the line of its call site, then the procedure.
PROCEDURES = frozenset({"PF", "Pr"})
_CALL_LINE = re.compile(r"^\d+:(?=.)")


def function_names(table: NodeTable) -> list[str]:
    """Per name of ``table.names``, the function it names: a procedure's name without the call
    site's line that the XML reader puts first (``296:psm_progress_wait`` and
    ``1807:psm_progress_wait`` are one function, as in hpcviewer's flat view); other names as
    they are (the tree keeps the call line: it tells the contexts apart)."""
    procedure = np.array([t in PROCEDURES for t in table.types], dtype=bool)
    if not procedure.any() or table.size == 0:
        return list(table.names)
    codes = set(np.unique(table.name_code[procedure[table.type_code]]).tolist())
    return [_CALL_LINE.sub("", n) if i in codes else n for i, n in enumerate(table.names)]
