"""What the view could not do, and what Python refused of what the page sent, in Python.

The front end shows a short message in the widget and sends it here (the ``error`` message),
where it is logged as a warning (logger ``cctviz``) and kept in ``w.front_end_errors`` for a
script to check or observe. A value the view refused (``where`` "trait": a value that reached it
past Python's checks) leaves the page's model holding what the view does not show, so Python
sends its view state again: both sides hold Python's values.

Python refuses what the page sends that it does not accept (a trait value, from a forged or
buggy page; a picture that is not a sane PNG): it logs and keeps the refusal the same way, sends
its own value back (ipywidgets has already echoed the bad one to the page) and tells the view,
which shows it (the ``refused`` message). Some traits are Python's alone (``PYTHON_ONLY``):
``where`` is SQL pasted into the store's queries, so the page never sets it (a brush of the
strip is a ``brush`` request, whose numbers Python turns into the condition); one in an update
from the page is refused, sent back, and the rest of that update still applies.

Python checks every value before it is sent, so a message here is a bug, a browser limit or a
forged message, not the user's mistake; it must still not pass unseen (a console the user never
opens is unseen).
"""

from __future__ import annotations

import logging
from typing import Any

import traitlets as t

from ..core.contract import MESSAGES, VIEW_TRAITS
from .part import Message, WidgetPart, handles

ERROR, REFUSED = "error", "refused"
for _kind in (ERROR, REFUSED):
    if _kind not in MESSAGES:
        raise KeyError(f"message kind {_kind!r} is not in cctviz/contract.json")

WHERE = ("data", "trait", "download")  # what the view reports
KEPT = 50  # the latest messages; a view failing in a loop must not grow memory without end
# what a refusal sends back
RESENT = (*(spec.trait for spec in VIEW_TRAITS), "selection", "height", "units")
PYTHON_ONLY = ("where",)
"""Synced traits the page may not set: a value in its update is refused, whatever it is."""
log = logging.getLogger("cctviz")


class FrontEndErrors(WidgetPart):
    """The front-end-errors part of ``CCT``: the view's reports, and Python's refusals."""

    front_end_errors = t.List(
        t.Unicode(),
        help="What the view could not do, and what Python refused of what the page sent, latest "
        "last (at most 50): 'where: message'. Not synced; observe it (w.observe(f, "
        "'front_end_errors')) to react.",
    )

    def __init__(self, **kwargs: Any) -> None:
        #: refusals sent to the view: its report of one is not news
        self._refusals_shown: list[str] = []
        super().__init__(**kwargs)

    def _record(self, entry: str) -> None:
        self.front_end_errors = [*self.front_end_errors[-(KEPT - 1) :], entry[:600]]
        log.warning("the cctviz view reports %s", entry)

    @handles(ERROR)
    def _on_front_end_error(self, content: Message) -> None:
        """The view's report of what it could not do (one that is not well formed is dropped)."""
        message, where = content.get("message"), content.get("where")
        if not isinstance(message, str) or where not in WHERE:
            return
        shown = self._refusals_shown
        if message in shown:  # the view showing a refusal of ours: logged when it was made
            shown.remove(message)
            return
        self._record(f"{where}: {message[:500]}")
        if where == "trait":
            self._send_view_state_back()

    def _refuse(self, where: str, message: str) -> None:
        """Log and keep a refusal of what the page sent, and have the view show it."""
        message = message.replace("\n", " ")[:500]
        self._record(f"{where}: {message}")
        shown = self._refusals_shown
        shown[:] = [*shown[-(KEPT - 1) :], message]
        self.send({"type": REFUSED, "message": message})

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """A change from the page; one Python refuses is sent back as Python holds it."""
        kept = {name: sync_data[name] for name in PYTHON_ONLY if name in sync_data}
        rest = {name: value for name, value in sync_data.items() if name not in kept}
        try:
            super().set_state(rest)  # the rest of the update applies
        except t.TraitError as error:
            names = [name for name in rest if name in self.keys]
            self.send_state(names)  # the page's model gets Python's values back
            self._refuse(
                "update",
                f"Python refused {_sent(rest, names)}: {error}; the view keeps Python's value",
            )
        if kept:
            self.send_state(list(kept))
            self._refuse(
                "update",
                f"Python refused {_sent(kept, list(kept))}: written by Python only (a brush of "
                "the strip, or w.where in the notebook); the view keeps Python's value",
            )

    def _send_view_state_back(self) -> None:
        """The view refused a value it got (past Python's checks): send Python's values again,
        each checked first (one set past the checks, ``w._trait_values``, is reset)."""
        for name in RESENT:
            trait, value = self.traits()[name], getattr(self, name)
            try:
                trait._validate(self, value)
            except t.TraitError as error:
                default = trait.default()
                if name in ("color_by", "size_by"):
                    default = self._default_metrics()[name == "size_by"]
                self.set_trait(name, default)
                self._record(f"trait: w.{name} held {value!r} ({error}); reset to {default!r}")
        self.send_state(list(RESENT))


def _sent(values: dict[str, Any], names: list[str]) -> str:
    """What the page sent of ``names``, as a refusal names it (cut short)."""
    sent = ", ".join(f"{name}={values[name]!r}" for name in names)
    return sent[:157] + "..." if len(sent) > 160 else sent
