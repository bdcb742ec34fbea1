"""The tail shared by the scripts that generate a document from the sources
(``module_map.py``, ``contract_docs.py``): write it, or with ``--check`` say whether the
committed copy is current (exit 1 and the command to run when it is not)."""

from __future__ import annotations

import pathlib
import sys


def write_or_check(out: pathlib.Path, text: str, command: str, argv: list[str]) -> int:
    shown = out.relative_to(pathlib.Path(__file__).resolve().parent.parent)
    if "--check" in argv:
        if not out.is_file() or out.read_text(encoding="utf-8") != text:
            print(f"{shown} is out of date: run `{command}`", file=sys.stderr)
            return 1
        return 0
    out.parent.mkdir(exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {shown}")
    return 0
