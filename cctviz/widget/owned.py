"""Parts the view owns: objects held by ``CCT`` (not bases of it), each one concept with its own
state — the search, the table pane, the static picture, and an ensemble's strip, trend pane and
changes (present only on an ensemble's view).

A part reads and sets the view's traits through ``self.view``. It declares what it reacts to as
a base of the view would — ``@t.observe(...)``, ``@t.validate(...)`` and ``@handles(kind)`` on
its methods — and ``bind`` registers those on its view: observers and validators on the view's
traits, message handlers with the view's router (``messages.py``). ``unbind`` takes them away
again, the view's own validators back in place (a view whose data is no longer an ensemble drops
its ensemble parts).

Why not bases: every base of ``CCT`` is on every view, with its state and members, and the order
its methods run in is the method resolution order of 16 classes; an owned part is there only
when its view has the data it is for, and its state is its own.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

import traitlets as t

from .messages import handlers_of

if TYPE_CHECKING:
    from .cct import CCT


class OwnedPart:
    """A part of one view: ``self.view`` is the ``CCT`` it belongs to."""

    handled: ClassVar[dict[str, str]] = {}
    """Message kind → the name of the method that handles it (``@handles``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.handled = handlers_of(cls, complete=False)  # two handlers of a kind: an error now

    def __init__(self, view: CCT) -> None:
        self.view = view
        self._bound: list[tuple[str, Callable[..., Any], tuple[str, ...]]] = []
        """(kind: an observer's type of change, or "validate"; the callable; the traits)."""
        self._replaced: dict[str, Any] = {}

    def bind(self) -> None:
        """Register the part's observers and validators on its view."""
        view = self.view
        for handler in _handlers(type(self)):
            names = tuple(str(n) for n in handler.trait_names)
            if isinstance(handler, t.ObserveHandler):
                method: Callable[..., Any] = types.MethodType(handler.func, self)
                kind = str(handler.type)
                view.observe(method, names=list(names), type=kind)
            else:  # traitlets calls a validator with the view and the proposal; it has no public
                # per-instance cross-validation, so the view's ``_register_validator`` (what its
                # ``@validate`` uses) is called, and ``_trait_validators`` restored on unbind
                method = _validator(handler.func, self)
                for name in names:
                    self._replaced.setdefault(name, view._trait_validators.get(name))
                view._register_validator(method, list(names))
                kind = "validate"
            self._bound.append((kind, method, names))

    def unbind(self) -> None:
        """Take the part's observers and validators away; the view's own validators return."""
        view = self.view
        for kind, method, names in self._bound:
            if kind != "validate":
                view.unobserve(method, names=list(names), type=kind)
        for name, before in self._replaced.items():
            if before is None:
                view._trait_validators.pop(name, None)
            else:
                view._trait_validators[name] = before
        self._bound.clear()
        self._replaced.clear()


def _validator(func: Callable[..., Any], part: OwnedPart) -> Callable[[Any, t.Bunch], Any]:
    def check(_view: Any, proposal: t.Bunch) -> Any:
        return func(part, proposal)

    return check


def _handlers(cls: type) -> Iterator[t.ObserveHandler | t.ValidateHandler]:
    """The traitlets handlers declared on ``cls`` and its bases, in declaration order."""
    seen: set[str] = set()
    for base in cls.__mro__:
        for name, attr in vars(base).items():
            if name in seen:
                continue
            seen.add(name)
            if isinstance(attr, (t.ObserveHandler, t.ValidateHandler)):
                yield attr
