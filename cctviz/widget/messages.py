"""The one router of the front end's messages, keyed by the message kinds of the contract.

Every message the page sends (``cctviz/contract.json`` "messages", those ``from`` the front end)
goes to the one method of a part marked ``handles(kind)`` (``part.py``). A request, a kind whose
fields include ``id``, is answered by a ``reply`` that carries the request's id: ``ok`` and the
fields the handler returns, or ``ok: false`` and the ``error`` (a ``ValueError`` or ``KeyError``
the handler raised: what was wrong with the request). A report gets no reply.

A message of no kind the front end sends (a forged or buggy page) is refused as any other thing
Python does not accept from the page: logged, kept in ``w.front_end_errors`` and shown in the
view (below).

What the view could not do, and what Python refused of what the page sent, in Python.

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
from typing import Any, ClassVar

import traitlets as t

from ..core.contract import MESSAGES, VIEW_TRAITS
from .part import HANDLES, Message, WidgetPart, handles

ERROR, REFUSED = "error", "refused"
for _kind in (ERROR, REFUSED):
    if _kind not in MESSAGES:
        raise KeyError(f"message kind {_kind!r} is not in cctviz/contract.json")

WHERE = ("data", "trait", "download")  # what the view reports
KEPT = 50  # the latest messages; a view failing in a loop must not grow memory without end
# what a refusal sends back
RESENT = (*(spec.trait for spec in VIEW_TRAITS), "selection", "height", "units")
PYTHON_ONLY = ("where", "derived")
"""Synced traits the page may not set: a value in its update is refused, whatever it is."""
log = logging.getLogger("cctviz")


NO_PART = (
    "a part of a cctviz.Ensemble's view answers it (the strip, changes, trend pane); this "
    "widget shows a single GraphFrame or Thicket"
)
"""Said of a message for a part this view does not own."""
REPLY = "reply"
if REPLY not in MESSAGES:
    raise KeyError(f"message kind {REPLY!r} is not in cctviz/contract.json")

FROM_FRONT_END = tuple(kind for kind, spec in MESSAGES.items() if spec["from"] == "front end")
"""The message kinds the page sends."""
REQUESTS = frozenset(kind for kind in FROM_FRONT_END if "id" in MESSAGES[kind]["fields"])
"""The kinds that are answered by a reply with their id."""


def handlers_of(cls: type, complete: bool = True) -> dict[str, str]:
    """The method that handles each message kind: the name of a method of ``cls``, or
    ``Part.method`` of a part it owns (``cls.PARTS``, ``owned.py``). Two methods that handle one
    kind are an error, as is (when ``complete``) a kind the front end sends that no method
    handles."""
    found: dict[str, str] = {}

    def add(kind: str, name: str) -> None:
        if found.setdefault(kind, name) != name:
            raise TypeError(
                f"{cls.__name__}: message kind {kind!r} has two handlers, {found[kind]} and {name}"
            )

    for base in reversed(cls.__mro__):
        for name, attr in vars(base).items():
            kind = getattr(attr, HANDLES, None)
            if kind is not None:
                add(kind, name)
    for part in getattr(cls, "PARTS", ()):
        for kind, name in part.handled.items():
            add(kind, f"{part.__name__}.{name}")
    missing = [kind for kind in FROM_FRONT_END if kind not in found]
    if complete and missing:
        raise TypeError(f"{cls.__name__} handles no message of the kinds {missing}")
    return found


class MessageRouter(WidgetPart):
    """The page's messages in ``CCT``: ``_on_message`` is its one ``on_msg`` callback; the
    view's reports of what it could not do, and Python's refusals of what the page sent."""

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

    _handlers: ClassVar[dict[str, str]] = {}
    """Message kind → the name of the method that handles it."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._handlers = handlers_of(cls, complete=False)  # two handlers of a kind: an error now

    def _start_messages(self) -> None:
        """Listen to the page: every kind the front end sends must have its handler."""
        handlers_of(type(self))
        self.on_msg(self._on_message)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A message from the page, sent to the handler of its kind."""
        kind = content.get("type") if isinstance(content, dict) else None
        name = self._handlers.get(kind) if isinstance(kind, str) else None
        if name is None:
            self._refuse("message", f"Python refused a message it does not know: {_shown(content)}")
            return
        handler = self._handler(name)
        if handler is None:  # a part this view does not have (an ensemble's, on one profile)
            if kind in REQUESTS:
                self.send({"type": REPLY, "id": content.get("id"), "ok": False,
                           "error": f"{kind}: {NO_PART}"})  # fmt: skip
            else:
                self._refuse("message", f"Python refused a {kind!r} message: {NO_PART}")
            return
        if kind not in REQUESTS:
            handler(content)
            return
        reply: Message = {"type": REPLY, "id": content.get("id")}
        try:
            reply.update(ok=True, **handler(content))
        except (ValueError, KeyError) as error:
            reply.update(ok=False, error=str(error))
        self.send(reply)

    def _handler(self, name: str) -> Any:
        """The bound method ``name`` names (``Part.method``: of the part this view owns; None
        when it has none of that part)."""
        owner, _, method = name.rpartition(".")
        if not owner:
            return getattr(self, name)
        part = next((p for p in self._parts() if type(p).__name__ == owner), None)
        return getattr(part, method) if part is not None else None

    def _parts(self) -> list[Any]:
        """The parts this view owns now (``owned.py``)."""
        return []


def _shown(content: Any) -> str:
    """A message as the refusal names it: its kind, or its text cut short."""
    if isinstance(content, dict) and isinstance(content.get("type"), str):
        return f"kind {content['type'][:80]!r}; the kinds are {', '.join(FROM_FRONT_END)}"
    text = repr(content)
    return (text[:77] + "...") if len(text) > 80 else text


def _sent(values: dict[str, Any], names: list[str]) -> str:
    """What the page sent of ``names``, as a refusal names it (cut short)."""
    sent = ", ".join(f"{name}={values[name]!r}" for name in names)
    return sent[:157] + "..." if len(sent) > 160 else sent
