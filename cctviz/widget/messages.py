"""The one router of the front end's messages, keyed by the message kinds of the contract.

Every message the page sends (``cctviz/contract.json`` "messages", those ``from`` the front end)
goes to the one method of a part marked ``handles(kind)`` (``part.py``). A request, a kind whose
fields include ``id``, is answered by a ``reply`` that carries the request's id: ``ok`` and the
fields the handler returns, or ``ok: false`` and the ``error`` (a ``ValueError`` or ``KeyError``
the handler raised: what was wrong with the request). A report gets no reply.

A message of no kind the front end sends (a forged or buggy page) is refused as any other thing
Python does not accept from the page: logged, kept in ``w.front_end_errors`` and shown in the
view (``front_end_errors.py``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..core.contract import MESSAGES
from .front_end_errors import FrontEndErrors
from .part import HANDLES, Message

REPLY = "reply"
if REPLY not in MESSAGES:
    raise KeyError(f"message kind {REPLY!r} is not in cctviz/contract.json")

FROM_FRONT_END = tuple(kind for kind, spec in MESSAGES.items() if spec["from"] == "front end")
"""The message kinds the page sends."""
REQUESTS = frozenset(kind for kind in FROM_FRONT_END if "id" in MESSAGES[kind]["fields"])
"""The kinds that are answered by a reply with their id."""


def handlers_of(cls: type, complete: bool = True) -> dict[str, str]:
    """The name of the method of ``cls`` that handles each message kind. Two methods that
    handle one kind are an error, as is (when ``complete``) a kind the front end sends that no
    method handles."""
    found: dict[str, str] = {}
    for base in reversed(cls.__mro__):
        for name, attr in vars(base).items():
            kind = getattr(attr, HANDLES, None)
            if kind is not None and found.setdefault(kind, name) != name:
                raise TypeError(
                    f"{cls.__name__}: message kind {kind!r} has two handlers, "
                    f"{found[kind]} and {name}"
                )
    missing = [kind for kind in FROM_FRONT_END if kind not in found]
    if complete and missing:
        raise TypeError(f"{cls.__name__} handles no message of the kinds {missing}")
    return found


class MessageRouter(FrontEndErrors):
    """The message-routing part of ``CCT``: ``_on_message`` is its one ``on_msg`` callback."""

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
        handler = getattr(self, name)
        if kind not in REQUESTS:
            handler(content)
            return
        reply: Message = {"type": REPLY, "id": content.get("id")}
        try:
            reply.update(ok=True, **handler(content))
        except (ValueError, KeyError) as error:
            reply.update(ok=False, error=str(error))
        self.send(reply)


def _shown(content: Any) -> str:
    """A message as the refusal names it: its kind, or its text cut short."""
    if isinstance(content, dict) and isinstance(content.get("type"), str):
        return f"kind {content['type'][:80]!r}; the kinds are {', '.join(FROM_FRONT_END)}"
    text = repr(content)
    return (text[:77] + "...") if len(text) > 80 else text
