"""Write docs/view-state.md from cctviz/contract.json (the synced traits, message kinds, versions).

    .venv/bin/python scripts/contract_docs.py           # rewrite docs/view-state.md
    .venv/bin/python scripts/contract_docs.py --check   # exit 1 if it is out of date

tests/test_contract.py runs the check. Reads the JSON itself: needs no installed cctviz.
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

REPO = pathlib.Path(__file__).resolve().parent.parent
CONTRACT = REPO / "cctviz" / "contract.json"
OUT = REPO / "docs" / "view-state.md"
COMMAND = "python scripts/contract_docs.py"


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _code(value: Any) -> str:
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _allowed(spec: dict[str, Any]) -> str:
    if spec.get("values"):
        return ", ".join(f"`{v}`" for v in spec["values"])
    if spec.get("min") is not None:
        return f"≥ {spec['min']}"
    if spec["kind"] == "node_ids":
        return "ordered, no repeats" if spec.get("ordered") else "a set: sorted, no repeats"
    return ""


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
        *("| " + " | ".join(_cell(c) for c in row) + " |" for row in rows),
    ]


def render(contract: dict[str, Any]) -> str:
    """The Markdown of ``docs/view-state.md`` for ``contract`` (the parsed contract.json)."""
    traits = contract["traits"]
    lines = [
        "# View state: what Python and the front end share",
        "",
        f"<!-- Generated from cctviz/contract.json by scripts/contract_docs.py: do not edit. "
        f"After changing the contract, run `{COMMAND}`. -->",
        "",
        _cell(contract.get("$comment", "")),
        "",
        f"- payload version (`cctviz.view.payload` ⇄ `js/src/cct/data/decode.js`): "
        f"**{contract['payload_version']}**",
        f"- saved view state version (`w.view_state`): **{contract['state_version']}**",
        "",
        "## Synced traits",
        "",
        "*view*: part of the renderer's view state (under the front-end key); *undoable*: undo "
        "and redo step through it; *saved*: `w.view_state` carries it; *redraw*: what a change "
        "draws again (see below).",
        "",
        *_table(
            [
                "trait",
                "front-end key",
                "kind",
                "allowed values",
                "default",
                "view",
                "undoable",
                "saved",
                "redraw",
                "help",
            ],
            [
                [
                    f"`{s['trait']}`",
                    f"`{s['key']}`",
                    s["kind"],
                    _allowed(s),
                    _code(s["default"]),
                    _yes(s["view"]),
                    _yes(s["undoable"]),
                    _yes(s["saved"]),
                    s["redraw"],
                    s["help"],
                ]
                for s in traits
            ],
        ),
        "",
        "## Kinds",
        "",
        *_table(["kind", "value"], [[k, v] for k, v in contract["kinds"].items()]),
        "",
        "## Redraws",
        "",
        *_table(
            ["redraw", "what a change draws again"],
            [[k, v] for k, v in contract["redraws"].items()],
        ),
        "",
        "## Messages",
        "",
        "Custom comm messages besides the traits; `type` names the kind.",
    ]
    for kind, message in contract["messages"].items():
        lines += [
            "",
            f"### `{kind}` (from {message['from']})",
            "",
            _cell(message["help"]),
            "",
            *_table(
                ["field", "value"],
                [[f"`{name}`", text] for name, text in message["fields"].items()],
            ),
        ]
    return "\n".join(lines) + "\n"


def current() -> str:
    """The Markdown for the contract as it is now."""
    return render(json.loads(CONTRACT.read_text(encoding="utf-8")))


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    from generated_doc import write_or_check

    return write_or_check(OUT, current(), COMMAND, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
