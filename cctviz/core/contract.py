"""The contract shared with the front end (``contract.json``, bundled into the JS too).

It declares every synced trait of ``cctviz.CCT`` once: its name, the front end's key, kind,
allowed values, default, whether it is view state, whether undo steps through it, whether saved
state carries it, and which redraw a change triggers; plus the message kinds and the versions of
the payload and of saved view state. Python derives its traits (``cctviz.widget.traits``), the
saved-state keys (``cctviz.view.state``) and ``docs/view-state.md`` from it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class TraitSpec:
    """One synced trait, as ``contract.json`` declares it."""

    trait: str
    key: str
    kind: str
    default: Any
    view: bool
    undoable: bool
    saved: bool
    redraw: str
    help: str
    values: tuple[str, ...] = ()
    ordered: bool = False
    min: int | None = None


def _load() -> dict[str, Any]:
    text = resources.files("cctviz").joinpath("contract.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


CONTRACT: dict[str, Any] = _load()
PAYLOAD_VERSION: int = CONTRACT["payload_version"]
STATE_VERSION: int = CONTRACT["state_version"]
TRAITS: tuple[TraitSpec, ...] = tuple(
    TraitSpec(**{**spec, "values": tuple(spec.get("values", ()))}) for spec in CONTRACT["traits"]
)
BY_TRAIT: dict[str, TraitSpec] = {s.trait: s for s in TRAITS}
VIEW_TRAITS: tuple[TraitSpec, ...] = tuple(s for s in TRAITS if s.view)
"""The traits that are the renderer's view state, in contract order."""
MESSAGES: dict[str, Any] = CONTRACT["messages"]


def values(trait: str) -> tuple[str, ...]:
    """The allowed values of an enum trait."""
    return BY_TRAIT[trait].values


PALETTES = values("palette")
REDUCERS = values("reducer")
