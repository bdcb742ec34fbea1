"""Forged messages (issue 29, point 5): a picture whose header declares 10^10 pixels, a value the
page sends that Python does not accept, a value that reached the view past Python's checks. Each
is refused with a message the view shows and ``w.front_end_errors`` keeps, and the page ends up
holding Python's values."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from typing import Any

import pytest

import cctviz

from .test_hostile import literal


@pytest.fixture
def w() -> Any:
    return cctviz.CCT(literal(["main", "a", "b", "c"]))


def sent(w: Any, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What the widget sends to the page from now on (ipywidgets' messages, unsent here)."""
    messages: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "_send", lambda msg, buffers=None: messages.append(msg))
    return messages


def refusals(messages: list[dict[str, Any]]) -> list[str]:
    return [
        m["content"]["message"]
        for m in messages
        if m["method"] == "custom" and m["content"].get("type") == "refused"
    ]


def png_header(width: int, height: int) -> str:
    """A PNG that is only a signature and a header declaring ``width`` x ``height`` pixels."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr
    chunk += struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return base64.b64encode(b"\x89PNG\r\n\x1a\n" + chunk).decode("ascii")


@pytest.mark.parametrize(
    ("png", "width", "why"),
    [
        (png_header(100_000, 100_000), 300, "declares 100000 x 100000 pixels, not those of a 300"),
        (png_header(16_000, 16_000), 4000, "declares 16000 x 16000 pixels, more than 40,000,000"),
        (png_header(600, 400), 300, "not an image"),  # a header over nothing
        ("bm90IGEgcG5n", 300, "not a base64 PNG"),
        (png_header(600, 400), 0, "is not 1 to 16384 CSS pixels"),
    ],
)
def test_a_forged_picture_is_refused_before_it_is_decoded(
    w: Any, monkeypatch: pytest.MonkeyPatch, png: str, width: int, why: str
) -> None:
    pytest.importorskip("PIL")
    messages = sent(w, monkeypatch)
    before = w._static.png
    w._on_message(w, {"type": "snapshot", "png": png, "width": width, "height": 4000}, [])
    assert w._static.png == before  # the last good picture stays
    assert len(w.front_end_errors) == 1
    assert w.front_end_errors[0].startswith("snapshot: Python refused the view's picture: ")
    assert why in w.front_end_errors[0]
    assert refusals(messages) == [w.front_end_errors[0].removeprefix("snapshot: ")]


BAD_UPDATES = [
    {"color_by": "nope"},
    {"size_by": ""},
    {"palette": "rainbow"},
    {"color_domain": [3, 1]},
    {"judge_below": 5},
    {"collapsed": [10**9]},
    {"prune_range": ["inf", 3]},
    {"focused": -1},
    {"visible_roots": [10**9]},
    {"visible_roots": [1]},  # not a root
    {"highlighted": ["main"]},
    {"selection": [10**9]},
    {"search_regex": True, "search": "("},
    {"reducer": "mode"},
    {"height": 10},
]


@pytest.mark.parametrize("update", BAD_UPDATES, ids=str)
def test_a_refused_update_from_the_page_is_sent_back_and_said(
    w: Any, monkeypatch: pytest.MonkeyPatch, update: dict[str, Any]
) -> None:
    w.collapsed = (2,)
    before = {name: getattr(w, name) for name in update}
    messages = sent(w, monkeypatch)
    w.set_state(update)  # what ipywidgets calls for the page's update: no exception escapes
    assert {name: getattr(w, name) for name in update} == before
    # the page's model gets Python's values back, after ipywidgets' echo of the bad ones
    back = [m["state"] for m in messages if m["method"] == "update"]
    assert back, messages
    for name, value in before.items():
        assert json.loads(json.dumps(back[-1][name])) == json.loads(json.dumps(value))
    said = refusals(messages)
    assert len(said) == 1 and said[0].startswith("Python refused ")
    assert w.front_end_errors == [f"update: {said[0]}"]
    # the view shows the refusal and reports it back: that report is not news
    w._on_message(w, {"type": "error", "message": said[0], "where": "trait"}, [])
    assert len(w.front_end_errors) == 1


def test_a_good_update_from_the_page_is_applied(w: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    messages = sent(w, monkeypatch)
    w.set_state({"selection": [2, 1], "palette": "magma"})
    assert w.selection == (2, 1) and w.palette == "magma"
    assert refusals(messages) == [] and w.front_end_errors == []


def test_a_value_the_view_refused_is_sent_again(w: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    w.collapsed = (1,)
    messages = sent(w, monkeypatch)
    # a value sent past Python's checks (w.comm.send of an update): the view refuses it
    report = {"type": "error", "message": "collapsed was not applied: no node", "where": "trait"}
    w._on_message(w, report, [])
    assert w.front_end_errors == ["trait: collapsed was not applied: no node"]
    state = [m["state"] for m in messages if m["method"] == "update"][-1]
    assert list(state["collapsed"]) == [1] and state["color_by"] == w.color_by
    assert "selection" in state and "_payload" not in state


def test_a_value_set_past_the_checks_in_python_is_reset(
    w: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    w._trait_values["palette"] = "rainbow"
    w._trait_values["color_by"] = "nope"
    w._trait_values["visible_roots"] = (10**9,)
    messages = sent(w, monkeypatch)
    w._on_message(w, {"type": "error", "message": "palette was not applied", "where": "trait"}, [])
    assert (w.palette, w.color_by, w.visible_roots) == ("auto", "time", None)
    assert len(w.front_end_errors) == 4
    assert "w.palette held 'rainbow'" in w.front_end_errors[2]
    state = [m["state"] for m in messages if m["method"] == "update"][-1]
    assert (state["palette"], state["color_by"], state["visible_roots"]) == ("auto", "time", None)
