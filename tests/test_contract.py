"""cctviz/contract.json is the one declaration of what Python and the front end share: the widget's
synced traits, the renderer's state keys, palettes, reducers, versions, messages and the docs are
all derived from it (the front end reads the same file: js/src/contract.js)."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import numpy as np
import pytest
import traitlets

import cctviz
from cctviz.core import contract, table
from cctviz.view import payload
from cctviz.widget import traits
from cctviz.widget.bundle import PackedWidget

from .profiles import REPO


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _synced() -> dict[str, traitlets.TraitType]:
    """The synced traits CCT declares (AnyWidget's own, such as _esm and layout, and the packed
    front end's, _bundle, _bundle_key and _front_end, left out)."""
    inherited = set(PackedWidget.class_trait_names(sync=True))
    return {
        name: trait
        for name, trait in cctviz.CCT.class_traits(sync=True).items()
        if name not in inherited
    }


def test_the_widget_syncs_exactly_the_contract_traits() -> None:
    assert sorted(_synced()) == sorted(s.trait for s in contract.TRAITS)


@pytest.mark.parametrize("spec", contract.TRAITS, ids=lambda s: s.trait)
def test_each_trait_is_as_declared(spec: contract.TraitSpec) -> None:
    trait = _synced()[spec.trait]
    assert _jsonable(trait.default()) == spec.default
    assert trait.help == spec.help
    if spec.kind == "enum":
        assert list(trait.values) == list(spec.values)
    if spec.kind == "int":
        assert trait.min == spec.min
    nullable = spec.kind in ("node_id", "root_ids", "range", "transform", "rank")
    assert trait.allow_none == nullable


def test_renderer_state_has_the_contract_keys(cpi: Any) -> None:
    w = cctviz.CCT(cpi)
    state = w.renderer_state()
    assert list(state) == [s.key for s in contract.VIEW_TRAITS]
    assert state == {s.key: _jsonable(getattr(w, s.trait)) for s in contract.VIEW_TRAITS}


def test_python_lists_come_from_the_contract(cpi: Any) -> None:
    assert contract.BY_TRAIT["palette"].values == contract.PALETTES
    assert contract.values("reducer") == table.REDUCERS
    assert table.REDUCERS == ("mean", "median", "sum", "min", "max", "std", "imbalance")
    assert contract.CONTRACT["payload_version"] == payload.PAYLOAD_VERSION
    assert cctviz.CCT(cpi)._payload["version"] == contract.PAYLOAD_VERSION


def test_replies_use_the_contract_fields(cpi: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    w = cctviz.CCT(cpi)
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append(content))
    w._on_message(w, {"type": "load_more", "id": 7, "node": 0}, [])
    w._on_message(w, {"type": "load_more", "id": 8, "node": "main"}, [])
    fields = set(contract.MESSAGES["reply"]["fields"])
    assert [m["type"] for m in sent] == ["reply", "reply"]
    assert all(set(m) <= fields for m in sent)
    assert set(contract.MESSAGES["load_more"]["fields"]) == {"type", "id", "node"}


def test_validation_changes_nothing_but_the_value() -> None:
    """Validators only check; loading the nodes named (level of detail) is the observers' job."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from synthetic import graphframe

    w = cctviz.CCT(graphframe(5_000, seed=1), budget=300)
    hidden = np.flatnonzero(~w._lod.revealed)
    deep = int(hidden[-1])
    before_payload, before_loaded = w._payload, w._lod.revealed.copy()
    for name, value in [("selection", [deep]), ("highlighted", [deep]), ("focused", deep)]:
        assert _jsonable(w.traits()[name].validate(w, value)) in ([deep], deep)
    assert w._payload is before_payload
    assert (w._lod.revealed == before_loaded).all()
    with pytest.raises(traitlets.TraitError):
        w.selection = [deep, 10**6]
    assert w.selection == () and w._payload is before_payload
    w.selection = [deep]  # the observer loads it
    assert w._lod.revealed[deep] and w._payload is not before_payload


def test_node_sets_are_sorted_and_the_selection_keeps_its_order(cpi: Any) -> None:
    w = cctviz.CCT(cpi)
    w.collapsed = [5, 2, 5]
    w.highlighted = (9, 3)
    w.selection = [7, 1, 7]
    assert (w.collapsed, w.highlighted, w.selection) == ((2, 5), (3, 9), (7, 1))


def test_a_kind_the_factory_does_not_know_is_an_error() -> None:
    spec = contract.TraitSpec(
        trait="x",
        key="x",
        kind="colour",
        default=None,
        view=False,
        undoable=False,
        saved=False,
        redraw="none",
        help="",
    )
    with pytest.raises(ValueError, match="unknown kind 'colour'"):
        traits._make(spec)


def _docs_script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "contract_docs", REPO / "scripts/contract_docs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_view_state_docs_are_current() -> None:
    docs = _docs_script()
    written = docs.OUT.read_text(encoding="utf-8") if docs.OUT.is_file() else ""
    assert written == docs.current(), (
        "docs/view-state.md does not match cctviz/contract.json: "
        "run `.venv/bin/python scripts/contract_docs.py` and commit the result"
    )
    for spec in contract.TRAITS:
        assert f"| `{spec.trait}` | `{spec.key}` |" in written


@pytest.fixture
def cpi() -> Any:
    return cctviz.examples.load("hpctoolkit-cpi")
