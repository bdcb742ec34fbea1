"""The search part of ``CCT``: the pattern checked, its matches counted over the full tree, and
stepping to a match or showing them all, as the search box's ▶ ◀ and "all" do.

Setting ``search`` (from Python or by typing) opens nothing: the view counts and marks the
matches, a hidden one on the glyph that holds it. ``search_step`` opens the collapsed ancestors
of one match and moves the view's cursor to it; ``search_show_all`` opens those of every match.
Under level of detail Python counts the matches (``_search_count``: the browser has only some)
and loads a match's path when it is stepped to, or up to ``MAX_LOADED_MATCHES`` of them when all
are shown; the page asks for that with a ``find`` request.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import traitlets as t

from ..core.contract import MESSAGES
from .code import drawn_ids
from .lod_bridge import MAX_LOADED_MATCHES
from .owned import OwnedPart
from .part import Message, handles

SHOW_MATCH = "show_match"
assert SHOW_MATCH in MESSAGES  # the contract declares it


class Search(OwnedPart):
    """The search part of a view (see the module's doc); the view's ``search_matches``,
    ``search_step`` and ``search_show_all`` are its."""

    _search_at: int | None = None
    """The match the last step went to (None: none yet, or the search changed)."""

    @property
    def search_matches(self) -> list[int]:
        """The view's ``search_matches`` (see ``CCT.search_matches``)."""
        if not self.view.search:
            return []
        flags = 0 if self.view.search_case else re.IGNORECASE
        pattern = self.view.search if self.view.search_regex else re.escape(self.view.search)
        test = re.compile(pattern, flags).search
        # each distinct name is tested once: a million nodes share far fewer names
        hits = [code for code, name in enumerate(self.view._table.names) if test(name)]
        matches: list[int] = np.flatnonzero(np.isin(self.view._table.name_code, hits)).tolist()
        return matches

    def search_step(self, step: int = 1) -> int | None:
        """The view's ``search_step`` (see ``CCT.search_step``)."""
        if step not in (1, -1):
            raise ValueError(f"search_step takes 1 (next) or -1 (previous); got {step!r}")
        node = self._next_match(self._search_at, step)
        if node is None:
            return None
        self._search_at = node
        self.view._reveal([node])
        self.view.collapsed = self._open_ancestors([node])
        self.view.send({"type": SHOW_MATCH, "node": node})
        return node

    def search_show_all(self) -> int:
        """The view's ``search_show_all`` (see ``CCT.search_show_all``)."""
        matches = self._matches_in_view()[:MAX_LOADED_MATCHES]
        self.view._reveal(matches)
        before = len(drawn_ids(self.view))
        self.view.collapsed = self._open_ancestors(matches)
        return len(drawn_ids(self.view)) - before

    # -- the parts ----------------------------------------------------------------------------
    def _matches_in_view(self) -> list[int]:
        """Matches inside the focus and the visible roots (others no collapse change shows)."""
        matches = self.search_matches
        if self.view.focused is None and self.view.visible_roots is None:
            return matches
        parent = self.view._table.parent
        tops = (
            {self.view.focused}
            if self.view.focused is not None
            else set(self.view.visible_roots or ())
        )

        def inside(node: int) -> bool:
            j = node
            while j >= 0 and j not in tops:
                j = int(parent[j])
            return j >= 0

        return [m for m in matches if inside(m)]

    def _next_match(self, after: int | None, step: int) -> int | None:
        """The first match after node ``after`` (``step`` 1) or the last before it (-1),
        wrapping around; ids are the full tree's pre-order, so "after" is a larger id."""
        matches = self._matches_in_view()
        if not matches:
            return None
        if after is None:
            return matches[0] if step > 0 else matches[-1]
        at = int(np.searchsorted(matches, after, side="right" if step > 0 else "left"))
        if step > 0:
            return matches[at] if at < len(matches) else matches[0]
        return matches[at - 1] if at > 0 else matches[-1]

    def _open_ancestors(self, nodes: list[int]) -> tuple[int, ...]:
        """``collapsed`` without the ancestors of ``nodes``."""
        parent = self.view._table.parent
        ancestors: set[int] = set()
        for node in nodes:
            j = int(parent[node])
            while j >= 0 and j not in ancestors:
                ancestors.add(j)
                j = int(parent[j])
        return tuple(c for c in self.view.collapsed if c not in ancestors)

    # -- checks and effects -------------------------------------------------------------------
    @t.validate("search", "search_regex", "search_case")
    def _valid_search(self, proposal: t.Bunch) -> Any:
        name, value = proposal["trait"].name, proposal["value"]
        pattern = value if name == "search" else self.view.search
        regex = value if name == "search_regex" else self.view.search_regex
        if regex and pattern:
            try:
                re.compile(pattern)
            except re.error as error:
                raise t.TraitError(
                    f"invalid regular expression {pattern!r}: {error}; "
                    "set search_regex=False to search for the text as it is"
                ) from None
        return value

    @t.observe("search", "search_regex", "search_case")
    def _count_matches(self, _change: t.Bunch) -> None:
        # a new search opens nothing and loads nothing; under level of detail the page counts
        # the matches it has not got from Python's count, which names the search it counted
        self._search_at = None
        if self.view._lod is None:
            return
        self.view._search_count = {
            "search": self.view.search,
            "regex": self.view.search_regex,
            "case": self.view.search_case,
            "count": len(self.search_matches),
        }

    @handles("find")
    def _find_request(self, content: Message) -> dict[str, Any]:
        """The page steps to a match or shows all under level of detail: Python loads the match
        after (``step`` 1) or before (-1) node ``node`` (-1: none), or (``step`` 0) up to
        ``MAX_LOADED_MATCHES`` matches, sends the table, then replies with the match (-1: none);
        the page opens their ancestors itself (an undoable change of the user's)."""
        step, node = content.get("step"), content.get("node")
        if step not in (1, -1, 0) or isinstance(node, bool) or not isinstance(node, int):
            raise ValueError(
                f"find takes a node id (-1: none) and a step of 1, -1 or 0; got {content!r}"
            )
        if step == 0:
            return {
                "loaded": self.view._reveal(self._matches_in_view()[:MAX_LOADED_MATCHES]),
                "match": -1,
            }
        match = self._next_match(None if node < 0 else node, step)
        loaded = self.view._reveal([match]) if match is not None else 0
        return {"loaded": loaded, "match": -1 if match is None else match}
