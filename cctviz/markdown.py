"""Untrusted text (node names, metadata) in Markdown that notebooks render: HTML's special
characters become entities (a name like ``<program root>`` or ``<img onerror=...>`` is shown as
text, never as markup) and Markdown's become backslash escapes."""

from __future__ import annotations

import html
import re

_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")


def text(value: object) -> str:
    """``value`` as literal text inside Markdown."""
    escaped = html.escape(str(value), quote=True)
    return _MARKDOWN.sub(r"\\\1", escaped).replace("\n", " ")


class Markdown(str):
    """Markdown text (what ``describe`` and ``report`` return): a ``str`` that a notebook shows
    rendered when it is a cell's last value; ``print`` gives the Markdown source."""

    def _repr_markdown_(self) -> str:
        return str(self)
