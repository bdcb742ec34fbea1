"""What ``Ensemble.where`` accepts: one condition on the profiles' metadata columns, checked with
DuckDB's own lexer and parser before any query sees it; and ``harden``, which keeps a DuckDB
connection inside the store's folder.

A condition is pasted into SQL (``... WHERE (condition)``), so unchecked text could do anything
SQL can: read a file the kernel can read (and show it in an error message), write one, attach a
database, load an extension. ``check`` parses the text as ``SELECT * FROM profiles WHERE
(<text>)`` and walks the syntax tree: only references to the metadata columns, constants,
comparisons, AND/OR/NOT, IN of constants, BETWEEN, LIKE, IS NULL, CAST to a plain type,
arithmetic and the functions of ``FUNCTIONS`` pass (``where_grammar.py``; docs/where.md has the
grammar as a table). The text must also stay inside its parentheses however it is pasted: no
comment, no ';', balanced parentheses. ``harden`` is the second wall, for whatever passes the
first: no file outside the allowed folders, no extension, a configuration locked.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
import threading
import unicodedata
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .where_grammar import ACCEPTED, FUNCTIONS, NAMED, Refused, walk

__all__ = ["FUNCTIONS", "WhereError", "check", "harden"]


class WhereError(ValueError):
    """A profile filter that is refused or does not run: what was wrong, and what is accepted."""


MAX_LENGTH = 4_000
"""Characters of a condition at most, not counting the constants listed after IN."""
MAX_LISTED = 400_000
"""Characters at most with IN lists (a brush of a run's total lists profile ids)."""
MAX_NESTING = 64
"""Parentheses (and brackets) open at once at most, counted before DuckDB parses the text."""
MAX_DEPTH = 200
"""Nested expressions at most (``NOT NOT ... x``, ``- - ... 1``): DuckDB's parser's limit."""
PREFIX = "SELECT * FROM profiles WHERE ("
PLAIN = ("class", "type", "alias", "query_location", "query_location_length")
TABLE = ("table_name", "qualified_name")
OPEN, CLOSE = "([{", ")]}"
Token = tuple[str, str, int]  # kind (identifier, operator, ...), text, characters with spaces

_lock = threading.Lock()
_parser: Any = None


def check(condition: object, columns: Sequence[str]) -> str:
    """``condition`` stripped, when it is one condition on the metadata ``columns`` of the
    profiles that ``FUNCTIONS`` and the grammar of docs/where.md accept; else ``WhereError``,
    saying what was refused and what is accepted."""
    if not isinstance(condition, str):
        raise WhereError(
            "where takes a SQL condition on the profiles' metadata as text, such as "
            f'"jobsize >= 128"; got {type(condition).__name__}'
        )
    text = condition.strip()
    if not text:
        raise WhereError(
            'where takes a SQL condition such as "jobsize >= 128"; for every profile use the '
            "ensemble itself (ens), not ens.where('')"
        )
    _characters(text)
    tokens = _tokens(text)
    _lexical(text, tokens)
    try:
        walk(_parse(text), [str(c) for c in columns], text)
    except Refused as refused:
        raise _error(text, refused.what, refused.hint, refused.refused) from None
    return text


def _error(text: str, what: str, hint: str = ACCEPTED, refused: bool = True) -> WhereError:
    shown = text if len(text) <= 80 else text[:77] + "..."
    if refused:
        return WhereError(f"where {shown!r}: {what} is not accepted; {hint}")
    return WhereError(f"where {shown!r} does not run: {what}; {hint}")


def _characters(text: str) -> None:
    if len(text) > MAX_LISTED:
        raise _error(text, f"a text of {len(text):,} characters", f"at most {MAX_LENGTH:,}")
    for ch in set(text):
        if ch not in "\t\n\r" and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co"):
            name = unicodedata.name(ch, "a control character")
            raise _error(text, f"the invisible character U+{ord(ch):04X} ({name})")


def _tokens(text: str) -> list[Token]:
    """The text in DuckDB's tokens (its parser's own lexer; offsets are in UTF-8 bytes)."""
    import duckdb

    raw = text.encode("utf-8")
    spans = duckdb.tokenize(text)
    ends = [start for start, _ in spans[1:]] + [len(raw)]
    out = []
    for (start, kind), end in zip(spans, ends, strict=True):
        word = raw[start:end].decode("utf-8", "replace")
        out.append((str(kind).rsplit(".", 1)[-1], word.strip(), len(word)))
    return out


def _lexical(text: str, tokens: list[Token]) -> None:
    """What is refused in the tokens, before DuckDB parses the text: comments, ';', pandas'
    operators, unbalanced or too deep parentheses, too long a text."""
    depth, listed = 0, 0
    for i, (kind, word, _) in enumerate(tokens):
        if kind == "comment":
            raise _error(text, "a comment (-- or /* */)")
        if kind != "operator":
            continue
        if ";" in word:
            raise _error(text, "';' (a condition is one expression, not statements)")
        prefix = i == 0 or (tokens[i - 1][0] in ("operator", "keyword") and tokens[i - 1][1] != ")")
        if word in ("&", "|") or (word == "~" and prefix):
            raise _error(text, f"the pandas operator {word!r}", f"use AND, OR, NOT: {_sql(tokens)}")
        depth += (word in OPEN) - (word in CLOSE)
        if depth < 0:
            raise _error(text, f"a {word!r} that closes what the condition did not open")
        if depth > MAX_NESTING:
            raise _error(text, f"nesting deeper than {MAX_NESTING} parentheses")
        if word == "(" and i and tokens[i - 1][0] == "keyword" and tokens[i - 1][1].lower() == "in":
            listed += _constant_list(tokens, i)
    if depth:
        raise _error(text, "a '(' that is not closed")
    if len(text) - listed > MAX_LENGTH:
        raise _error(text, f"a condition of {len(text):,} characters", f"at most {MAX_LENGTH:,}")


def _constant_list(tokens: list[Token], start: int) -> int:
    """The characters of the constants listed from the '(' at ``start`` to its ')'; 0 when the
    list holds more than constants."""
    size = tokens[start][2]
    for kind, word, length in tokens[start + 1 :]:
        size += length
        if word == ")":
            return size
        plain = word.lower() in ("true", "false", "null") or word in (",", "-", "+")
        if not (kind in ("string_const", "numeric_const") or plain):
            return 0
    return 0


def _sql(tokens: list[Token]) -> str:
    """The condition as SQL writes pandas' ``&``, ``|``, ``~`` and ``==``."""
    words = {"&": "AND", "|": "OR", "~": "NOT", "==": "="}
    out = ""
    for kind, word, _ in tokens:
        word = words.get(word, word) if kind == "operator" else word
        glued = not out or out.endswith("(") or word in (")", ",")
        out += word if glued else " " + word
    return out if len(out) <= 120 else out[:117] + "..."


def _parse(text: str) -> dict[str, Any]:
    """The WHERE clause of ``SELECT * FROM profiles WHERE (<text>)`` as DuckDB parses it, when
    that is all the text makes."""
    global _parser
    import duckdb

    with _lock:
        if _parser is None:
            con = duckdb.connect(":memory:")
            con.execute(f"SET max_expression_depth = {MAX_DEPTH}")
            _lock_down(con, [], "")
            _parser = con
        try:
            row = _parser.execute("SELECT json_serialize_sql(?)", [PREFIX + text + ")"]).fetchone()
        except duckdb.Error as error:
            raise _error(text, f"DuckDB cannot read it ({_first(error)})", refused=False) from None
    try:
        tree = json.loads(row[0]) if row else {}
    except RecursionError:
        raise _error(text, f"nesting deeper than {MAX_DEPTH} expressions") from None
    if tree.get("error"):
        message = _first(tree.get("error_message", ""))
        if "depth" in message:
            raise _error(text, f"nesting deeper than {MAX_DEPTH} expressions")
        raise _error(text, f"DuckDB cannot read it as one condition ({message})", refused=False)
    statements = tree.get("statements") or []
    if len(statements) != 1:
        raise _error(text, "more than one statement")
    if statements[0].get("named_param_map"):
        raise _error(text, NAMED["PARAMETER"])
    node = statements[0].get("node") or {}
    _only_where(text, node)
    clause: dict[str, Any] = node["where_clause"]
    return clause


def _first(error: object) -> str:
    return (str(error).splitlines() or [""])[0][:200]


def _only_where(text: str, node: dict[str, Any]) -> None:
    """The statement is ``SELECT * FROM profiles WHERE (...)`` and nothing more."""
    expected: dict[str, Any] = {
        "type": "SELECT_NODE",
        "modifiers": [],
        "cte_map": {"map": []},
        "group_expressions": [],
        "group_sets": [],
        "aggregate_handling": "STANDARD_HANDLING",
        "having": None,
        "sample": None,
        "qualify": None,
    }
    for key, value in node.items():
        if key in ("select_list", "from_table", "where_clause"):
            continue
        if expected.get(key) != value and (key in expected or value):
            raise _error(text, f"a statement that is more than a condition ({key.lower()})")
    select, source = node.get("select_list") or [{}], node.get("from_table") or {}
    star = len(select) == 1 and select[0].get("class") == "STAR"
    star = star and not any(v for k, v in select[0].items() if k not in PLAIN)
    table = source.get("type") == "BASE_TABLE" and source.get("table_name") == "profiles"
    table = table and not any(v for k, v in source.items() if k not in (*PLAIN, *TABLE))
    if not (star and table and isinstance(node.get("where_clause"), dict)):
        raise _error(text, "a statement that is more than a condition")


def harden(con: Any, allowed: Sequence[str]) -> None:
    """Keep DuckDB connection ``con`` to the folders ``allowed`` (a store's folder): no file
    outside them is read or written, no database attached, no extension installed or loaded,
    no Python variable read as a table, and its configuration locked (a later ``SET`` fails:
    set what the connection needs first). Its temporary files go to a private folder of its
    own, not to the working directory's ``.tmp``: a name only, which DuckDB makes if a query
    spills to disk (a killed process leaves nothing behind otherwise), removed at exit."""
    folders = [str(Path(a).resolve()).rstrip(os.sep) + os.sep for a in allowed]
    _lock_down(con, folders, _temp_folder())


_TEMP: list[str] = []  # this process's connections' temporary folders


def _remove_temp() -> None:
    for folder in _TEMP:
        shutil.rmtree(folder, ignore_errors=True)


def _temp_folder() -> str:
    if not _TEMP:
        atexit.register(_remove_temp)
    name = f"cctviz-duckdb-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    _TEMP.append(os.path.join(tempfile.gettempdir(), name))
    return _TEMP[-1]


def _lock_down(con: Any, folders: list[str], temp: str) -> None:
    """The settings of ``harden``; ``temp`` '' keeps temporary data in memory. The allowed
    folders must be set before external access is turned off (DuckDB refuses them after)."""
    listed = ", ".join(_literal(f) for f in folders)
    for setting in (
        f"temp_directory = {_literal(temp)}",
        f"allowed_directories = [{listed}]",
        "enable_external_access = false",
        "autoinstall_known_extensions = false",
        "autoload_known_extensions = false",
        "allow_community_extensions = false",
        "python_enable_replacements = false",
        "enable_progress_bar = false",
        "lock_configuration = true",
    ):
        con.execute(f"SET {setting}")


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"
