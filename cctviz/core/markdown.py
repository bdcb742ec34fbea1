"""Untrusted text (node names, metadata) in Markdown that notebooks render: HTML's special
characters become entities (a name like ``<program root>`` or ``<img onerror=...>`` is shown as
text, never as markup) and Markdown's become backslash escapes."""

from __future__ import annotations

import html
import re

_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")


def text(value: object) -> str:
    """``value`` as literal text inside Markdown: Markdown's specials escaped first, then HTML's,
    so that no backslash lands inside an entity (``it's`` gives ``it&#x27;s``, shown as ``it's``;
    the other order gave ``it&\\#x27;s``, shown as ``it&#x27;s``)."""
    escaped = _MARKDOWN.sub(r"\\\1", str(value).replace("\n", " "))
    return html.escape(escaped, quote=True)


class Markdown(str):
    """Markdown text (what ``describe`` and ``report`` return): a ``str`` that a notebook shows
    rendered when it is a cell's last value; ``print`` gives the Markdown source."""

    def _repr_markdown_(self) -> str:
        return str(self)
