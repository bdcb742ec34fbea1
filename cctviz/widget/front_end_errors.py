"""What the view could not do, in Python: the front end shows a short message in the widget and
sends it here (the ``error`` message), where it is logged as a warning (logger ``cctviz``) and
kept in ``w.front_end_errors`` for a script to check or observe.

Python checks every value before it is sent, so a message here is a bug or a browser limit, not
the user's mistake; it must still not pass unseen (a console the user never opens is unseen).
"""

from __future__ import annotations

import logging
from typing import Any

import traitlets as t

from ..contract import MESSAGES

ERROR = "error"
if ERROR not in MESSAGES:
    raise KeyError("message kind 'error' is not in cctviz/contract.json")

WHERE = ("data", "trait", "download")
KEPT = 50  # the latest messages; a view failing in a loop must not grow memory without end
log = logging.getLogger("cctviz")


class FrontEndErrors(t.HasTraits):
    """The front-end-errors half of ``CCT`` (a mixin: ``CCT`` registers the handler)."""

    front_end_errors = t.List(
        t.Unicode(),
        help="What the view could not do, latest last (at most 50): 'where: message'. Not "
        "synced; observe it (w.observe(f, 'front_end_errors')) to react.",
    )

    def _on_front_end_error(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != ERROR:
            return
        message, where = content.get("message"), content.get("where")
        if not isinstance(message, str) or where not in WHERE:
            return
        entry = f"{where}: {message[:500]}"
        self.front_end_errors = [*self.front_end_errors[-(KEPT - 1) :], entry]
        log.warning("the cctviz view reports %s", entry)
