"""The parts of ``CCT`` (issue 30): one base, ``WidgetPart``, declares what they share once, and
the table changes in one place, which drops what the parts worked out from the old one."""

from __future__ import annotations

import ast
import inspect
import pathlib
from typing import Any

import pytest

import cctviz
from cctviz.figure import ViewSnapshot
from cctviz.widget import CCT, bundle
from cctviz.widget.part import Derived, WidgetPart

from .test_hostile import literal

WIDGET = pathlib.Path(cctviz.__file__).parent / "widget"
PARTS = [
    cls
    for cls in CCT.__mro__[1:]
    if cls.__module__.startswith("cctviz.widget.") and cls.__module__ != "cctviz.widget.bundle"
]


def test_every_part_derives_from_the_one_base() -> None:
    names = {cls.__name__ for cls in PARTS}
    assert names == {"Scripting", "Reducers", "LevelOfDetailBridge", "Figures", "MessageRouter"} | {
        "WidgetPart"
    }
    for cls in PARTS:
        assert issubclass(cls, WidgetPart), cls
    assert issubclass(WidgetPart, bundle.PackedWidget)
    # issue 55: at most 8 cctviz classes make CCT; the rest are parts it owns
    assert len([c for c in CCT.__mro__ if c.__module__.startswith("cctviz.")]) <= 8


def test_the_parts_a_view_owns_are_its_own_and_an_ensembles_only_on_an_ensemble(
    tmp_path: pathlib.Path,
) -> None:
    from cctviz.widget.owned import OwnedPart

    owned = {cls.__name__ for cls in CCT.PARTS}
    assert owned == {
        "Search",
        "TablePane",
        "StaticPicture",
        "Derivations",
        "SourcePane",
        "PerRank",
        "Strip",
        "Changes",
        "Trend",
    }
    assert all(issubclass(cls, OwnedPart) and not issubclass(cls, WidgetPart) for cls in CCT.PARTS)
    one = cctviz.CCT(literal(["main", "a", "b"]))
    assert one._ens is None and {type(p).__name__ for p in one._parts()} == {
        "Search",
        "TablePane",
        "StaticPicture",
        "Derivations",
        "SourcePane",
        "PerRank",
    }
    ens = cctviz.examples.ensemble(tmp_path / "s", 12, 40, seed=1)
    w = cctviz.CCT(ens)
    assert w._ens is not None and all(p.view is w for p in w._parts())
    # the data swapped for one profile: the ensemble's parts go, with what they observed
    w.data = cctviz.examples.load("hpctoolkit-cpi")
    assert w._ens is None and len(w._parts()) == 6
    # what the ensemble's parts observed is no longer observed (they would read no ensemble)
    observed = [h for hs in w._trait_notifiers.get("color_by", {}).values() for h in hs]
    assert not [h for h in observed if getattr(h, "__self__", None) is not None and
                type(h.__self__).__module__.startswith("cctviz.widget.ensemble")]  # fmt: skip
    w.color_by = next(m for m in w.metrics if m != w.color_by)
    with pytest.raises(Exception, match=r"where filters the profiles of a cctviz\.Ensemble"):
        w.where = "jobsize = 64"
    w.data = ens
    assert w._ens is not None and len(w.profiles_selected) == 12


def test_what_the_parts_share_is_declared_once() -> None:
    shared = set(WidgetPart.__annotations__)
    assert {"_table", "_data", "_lod", "_tree", "color_by", "selection"} <= shared
    for cls in PARTS:
        if cls is WidgetPart:
            continue
        again = shared & set(vars(cls).get("__annotations__", {}))
        assert not again, f"{cls.__name__} declares {sorted(again)} again"
        source = inspect.getsource(inspect.getmodule(cls) or cls)
        assert "type: ignore[attr-defined]" not in source, cls
        assert "__dict__" not in source, cls


def test_the_table_changes_in_one_place() -> None:
    for path in sorted(WIDGET.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            targets = getattr(node, "targets", None) or [getattr(node, "target", None)]
            for target in targets:
                for name in ast.walk(target) if target is not None else ():
                    if isinstance(name, ast.Attribute) and name.attr in ("_table", "_derived"):
                        assert path.name == "part.py", f"{path.name}:{node.lineno}"


def _fill(w: Any) -> None:
    """Work out what the parts keep: ids of names, the pane's merged trees, modules."""
    w.select("a")
    w.callers("a")
    w._table_pane._where([0])
    assert w._derived.resolver is not None and w._derived.merged and w._derived.where_read


@pytest.mark.parametrize("change", ["data", "reducer", "size_reducer"])
def test_what_the_parts_worked_out_is_dropped_with_the_table(change: str) -> None:
    w = cctviz.CCT(literal(["main", "a", "b"]))
    _fill(w)
    kept, table = w._derived, w.table
    other = literal(["main", "b", "a", "c"], [1.0, 2.0, 3.0, 4.0])
    if change == "data":
        w.data = other
    elif change == "reducer":
        w.reducer = "max"
    else:
        w.size_reducer = "sum"
    assert w.table is not table and w._derived is not kept
    assert w._derived == Derived()
    # what is worked out again is of the new table
    assert w._resolver().table is w.table
    fresh = cctviz.CCT(other if change == "data" else w.data, reducer=w.reducer)
    assert w.select("a") == fresh.select("a")
    assert w.callers("a")["ids"].tolist() == fresh.callers("a")["ids"].tolist()


def test_swapped_data_answers_from_the_new_table_even_with_an_old_tables_id() -> None:
    # a cache keyed by id(table) gave the old table's rows when the new table reused its id
    w = cctviz.CCT(literal(["main", "a", "b"]))
    _fill(w)
    old = w._derived.merged[None]
    w._use(w._data, w._make_table(literal(["root", "x", "y", "z"])))
    rows = w._table_pane._rows({"type": "rows", "mode": "contexts", "node": None})
    assert rows["label"] == ["root"] and w._derived.merged[None] is not old


def test_snapshot_is_public_and_export_draws_it(tmp_path: pathlib.Path, monkeypatch: Any) -> None:
    from cctviz import headless

    assert CCT.snapshot.__doc__ and "figure" in CCT.snapshot.__doc__
    assert not hasattr(CCT, "_snapshot")
    drawn: list[ViewSnapshot] = []

    class Drawn:
        def write(self, path: Any) -> pathlib.Path:
            return pathlib.Path(path)

    def figure_of(view: ViewSnapshot, **options: Any) -> Drawn:
        drawn.append(view)
        assert options == {"dpi": 72}
        return Drawn()

    monkeypatch.setattr(headless, "figure_of", figure_of)
    gf = literal(["main", "a", "b"])
    state = cctviz.CCT(gf, palette="magma", selection=(2,)).view_state
    headless.export(gf, tmp_path / "x.png", state=state, dpi=72)
    (view,) = drawn
    assert isinstance(view, ViewSnapshot) and view.selection == (2,)
    assert view.renderer_state["palette"] == "magma" and view.view_state == state
