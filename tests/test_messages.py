"""The one router of the page's messages (cctviz/widget/messages.py, issue 30): every message kind
the front end sends has exactly one handler, requests get a reply with their id, and what is no
kind of ours is refused where the user sees it."""

from __future__ import annotations

from typing import Any

import pytest

import cctviz
from cctviz.core.contract import MESSAGES
from cctviz.widget import CCT
from cctviz.widget.compare_view import Compare
from cctviz.widget.messages import FROM_FRONT_END, REQUESTS, MessageRouter, handlers_of
from cctviz.widget.part import HANDLES, Message, handles

from .test_hostile import literal


@pytest.fixture
def w() -> Any:
    return cctviz.CCT(literal(["main", "a", "b", "c"]))


def sent(w: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    w.send = lambda content, buffers=None: out.append(content)
    return out


def test_every_kind_the_front_end_sends_has_exactly_one_handler() -> None:
    front_end = {k for k, spec in MESSAGES.items() if spec["from"] == "front end"}
    assert set(FROM_FRONT_END) == front_end and {"screen", "rows", "error"} <= front_end
    for cls in (CCT, Compare):
        handlers = handlers_of(cls)
        assert set(handlers) == front_end
        for kind, name in handlers.items():
            owner, _, method = name.rpartition(".")  # "Part.method": a part the view owns
            where = next(p for p in cls.PARTS if p.__name__ == owner) if owner else cls
            assert getattr(getattr(where, method), HANDLES) == kind
    # what Python sends is handled by the page, not here
    assert not {"reply", "refused"} & set(handlers_of(CCT))
    # requests are the kinds with an id, and only they
    assert {k for k in front_end if "id" in MESSAGES[k]["fields"]} == REQUESTS
    assert "distribution" in REQUESTS and "screen" not in REQUESTS


def test_a_second_handler_of_a_kind_is_an_error_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match="message kind 'screen' has two handlers"):

        class Twice(CCT):
            @handles("screen")
            def _also_screen(self, content: Message) -> None:
                pass

    class Overridden(CCT):  # the same method overridden is still one handler
        def _on_screen(self, content: Message) -> None:
            pass

    assert handlers_of(Overridden)["screen"] == "_on_screen"


def test_a_router_without_every_handler_does_not_start() -> None:
    with pytest.raises(TypeError, match=r"MessageRouter handles no message of the kinds \["):
        handlers_of(MessageRouter)
    with pytest.raises(KeyError, match="'reply' is not a message kind the front end sends"):
        handles("reply")
    with pytest.raises(KeyError, match="'nope' is not a message kind"):
        handles("nope")


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ({"type": "nope"}, "kind 'nope'; the kinds are "),
        ({"type": "reply", "id": 1, "ok": True}, "kind 'reply'"),  # Python's, from the page
        ({"size": [1, 1]}, "{'size': [1, 1]}"),
        ({"type": 5}, "{'type': 5}"),
        (7, "7"),
    ],
    ids=str,
)
def test_an_unknown_kind_is_refused_visibly(w: Any, message: Any, said: str) -> None:
    out = sent(w)
    before = w.selection, w._stage_size
    w._on_message(w, message, [])
    assert len(w.front_end_errors) == 1
    entry = w.front_end_errors[0]
    assert entry.startswith("message: Python refused a message it does not know: ")
    assert said in entry
    assert out == [{"type": "refused", "message": entry.removeprefix("message: ")}]
    assert (w.selection, w._stage_size) == before


def test_requests_get_a_reply_with_their_id_and_reports_none(w: Any) -> None:
    out = sent(w)
    for n, kind in enumerate(sorted(REQUESTS)):
        w._on_message(w, {"type": kind, "id": 100 + n}, [])  # each lacks what it needs
        assert out[-1]["type"] == "reply" and out[-1]["id"] == 100 + n, kind
        assert out[-1]["ok"] is False and out[-1]["error"], kind
    assert len(out) == len(REQUESTS)
    w._on_message(w, {"type": "rows", "id": 9, "mode": "contexts", "node": None}, [])
    assert (out[-1]["id"], out[-1]["ok"], out[-1]["rows"]["label"]) == (9, True, ["main"])
    for kind in set(FROM_FRONT_END) - REQUESTS:
        w._on_message(w, {"type": kind}, [])
    assert [m["type"] for m in out[len(REQUESTS) + 1 :]] in ([], ["refused"])
    assert all(m["type"] != "reply" for m in out[len(REQUESTS) + 1 :])


@pytest.mark.parametrize(
    "message",
    [
        {"type": "brush", "id": 3, "x": [0, 1]},
        {"type": "changes", "id": 4},
        {"type": "explain", "id": 5, "index": 0},
    ],
    ids=lambda m: m["type"],
)
def test_an_ensembles_request_to_a_view_of_one_profile_is_answered_with_why(
    w: Any, message: dict[str, Any]
) -> None:
    """A page (forged, or of another view) asking a part this view does not own: the reply
    says why, nothing is refused silently and nothing changes."""
    out = sent(w)
    payload = w._payload
    w._on_message(w, message, [])
    assert out == [
        {
            "type": "reply",
            "id": message["id"],
            "ok": False,
            "error": f"{message['type']}: a part of a cctviz.Ensemble's view answers it (the "
            "strip, changes, trend pane); this widget shows a single GraphFrame or Thicket",
        }
    ]
    assert w._payload is payload and w.where == ""
