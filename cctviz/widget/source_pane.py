"""The source beside the tree, in the view: ``w.source_text(id)`` and the Source tab's request
(``source``), from the folders of ``w.source_paths`` and the HPCToolkit database the view was
read from (``analysis/source_text.py`` finds and reads the file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..analysis.source_file import is_database
from ..analysis.source_text import SourceText, source_text
from .owned import OwnedPart
from .part import Message, handles, node_of

PANE_CONTEXT = 12
"""Lines around the node's line that the Source tab shows when the page does not say."""


class SourcePane(OwnedPart):
    """The source part of a view: ``source_text``, ``source_paths`` checked, the Source tab."""

    def source_text(self, node: Any, context: int = 5) -> SourceText:
        """See ``CCT.source_text``."""
        view = self.view
        plain = hasattr(node, "__index__") and not isinstance(node, bool)
        ids = [int(node.__index__())] if plain else view._resolver().ids(node)
        if len(ids) != 1:
            raise ValueError(f"source_text needs exactly one node; {node!r} gives {len(ids)}")
        return source_text(
            view._table,
            view._data,
            ids[0],
            view.color_by,
            context=context,
            databases=self._databases(),
            folders=[Path(p).expanduser() for p in view.source_paths],
            unit=view.units.get(view.color_by),
        )

    def _databases(self) -> list[Path]:
        """The HPCToolkit database the view was read from (``w.source``), if it is one."""
        source = self.view.source
        if not source:
            return []
        folder = Path(source).expanduser()
        return [folder] if folder.is_dir() and is_database(folder) else []

    @handles("source")
    def _source_request(self, content: Message) -> dict[str, Any]:
        """The Source tab: the node's text around its line, and the measured lines' values."""
        node = node_of(content)
        context = content.get("context", PANE_CONTEXT)
        if isinstance(context, bool) or not isinstance(context, int):
            raise ValueError(f"source needs a context of a whole number of lines; got {context!r}")
        return {"source": self.source_text(node, context).to_json()}
