"""The grammar of a profile filter (``Ensemble.where``): which expressions of DuckDB's syntax
tree a condition may hold — references to the metadata columns, constants, comparisons,
AND/OR/NOT, IN of constants, BETWEEN, LIKE, IS NULL, CAST to a plain type, arithmetic and the
plain functions of ``FUNCTIONS`` — walked without recursion. ``where.py`` lexes and parses the
text and turns a ``Refused`` into a ``WhereError``; docs/where.md has the grammar as a table."""

from __future__ import annotations

import difflib
import json
from typing import Any


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


FUNCTIONS = _words(
    # text
    "lower upper length trim ltrim rtrim substring substr concat prefix suffix starts_with "
    "ends_with contains regexp_matches regexp_full_match "
    # numbers
    "abs round floor ceil ceiling greatest least "
    # dates and times (INTERVAL '7 days' is parsed into to_days(...) and trunc)
    "year month day hour minute second dayofweek date_part date_trunc strftime epoch epoch_ms "
    "trunc to_years to_months to_weeks to_days to_hours to_minutes to_seconds "
    # operators: arithmetic, || (text), LIKE, NOT LIKE, ILIKE, NOT ILIKE, SIMILAR TO
    "+ - * / % || ~~ !~~ ~~* !~~*"
)
"""The functions and operators a condition may call: plain, reading only their arguments."""
PREDICATES = _words(
    "~~ !~~ ~~* !~~* starts_with ends_with contains regexp_matches regexp_full_match"
)
"""Those of ``FUNCTIONS`` that are a condition by themselves."""
TYPES = _words(
    "boolean bool logical tinyint int1 smallint int2 short integer int int4 signed bigint int8 "
    "long hugeint int128 utinyint usmallint uinteger ubigint uhugeint float float4 real double "
    "float8 decimal numeric varchar text string char bpchar date time timestamp datetime "
    "timestamptz interval"
) | {"timestamp with time zone"}
"""The types a CAST may name (no size, no list or struct, no schema)."""
COMPARISONS = frozenset(
    "COMPARE_" + c
    for c in _words(
        "EQUAL NOTEQUAL LESSTHAN GREATERTHAN LESSTHANOREQUALTO GREATERTHANOREQUALTO "
        "DISTINCT_FROM NOT_DISTINCT_FROM"
    )
)
OPERATORS = _words(
    "OPERATOR_NOT OPERATOR_IS_NULL OPERATOR_IS_NOT_NULL COMPARE_IN COMPARE_NOT_IN OPERATOR_COALESCE"
)
NAMED = {
    "SUBQUERY": "a subquery (SELECT ...; a condition reads the profile's own metadata only)",
    "STAR": "'*' or COLUMNS(...)",
    "PARAMETER": "a parameter ($1, ?, $name)",
    "LAMBDA": "a lambda (x -> ...)",
    "WINDOW": "a window function (... OVER ...)",
    "POSITIONAL_REFERENCE": "a column by position (#1)",
    "CASE": "CASE",
    "COLLATE": "COLLATE",
}
"""What the message calls an expression of a class that is refused."""
ACCEPTED = (
    "accepted: one condition on the metadata columns with comparisons, AND, OR, NOT, IN (...), "
    "BETWEEN, LIKE, IS NULL, CAST, + - * / % and the functions of "
    "cctviz.ensemble.engine.where.FUNCTIONS (docs/where.md)"
)


class Refused(Exception):
    """What a condition holds that the grammar refuses (``what``), and what to write instead;
    ``refused`` False: ``what`` says it all (``no column 'x'``)."""

    def __init__(self, what: str, hint: str = ACCEPTED, refused: bool = True) -> None:
        super().__init__(what)
        self.what, self.hint, self.refused = what, hint, refused


def walk(root: dict[str, Any], columns: list[str], text: str) -> None:
    """Every expression of the WHERE clause ``root`` is one the grammar accepts, and the clause
    is true or false for a profile; else ``Refused``. ``text``: the condition as written."""
    by_name = {str(c).lower(): str(c) for c in columns}
    stack: list[tuple[Any, dict[str, Any] | None]] = [(root, None)]
    while stack:  # every dict of the tree, in whichever field it hides: nothing goes unseen
        value, parent = stack.pop()
        if isinstance(value, list):
            stack.extend((v, parent) for v in value)
            continue
        if not isinstance(value, dict):
            continue
        if "class" in value:
            _node(value, parent, by_name, text)
            parent = value
        stack.extend((v, parent) for v in value.values() if isinstance(v, (dict, list)))
    if not _is_condition(root):
        raise Refused("a value where a condition is due", "compare it, such as jobsize + 1 > 64")


def _is_condition(node: dict[str, Any]) -> bool:
    kind, cls = node.get("type"), node.get("class")
    if cls in ("COMPARISON", "CONJUNCTION", "BETWEEN", "COLUMN_REF"):
        return True
    if cls == "OPERATOR":
        return kind != "OPERATOR_COALESCE"
    if cls == "FUNCTION":
        return node.get("function_name") in PREDICATES
    if cls == "CAST":
        return str((node.get("type_expr") or {}).get("type_name", "")).lower() in (
            "boolean",
            "bool",
        )
    return cls == "CONSTANT" and "BOOLEAN" in json.dumps(node.get("literal", node.get("value")))


def _node(
    node: dict[str, Any], parent: dict[str, Any] | None, columns: dict[str, str], text: str
) -> None:
    """One expression: refused unless the grammar accepts it."""
    cls, kind = str(node.get("class")), str(node.get("type"))
    if cls == "COLUMN_REF":
        _column(node, parent, columns, text)
    elif cls == "FUNCTION":
        _function(node)
    elif cls == "TYPE":
        name = str(node.get("type_name", "")).lower()
        if name not in TYPES or node.get("children") or node.get("schema") or node.get("catalog"):
            raise Refused(f"the type {node.get('type_name')!r} (a size, list, struct or schema)")
    elif cls == "OPERATOR" and kind in OPERATORS:
        listed = node.get("children") or []
        if kind in ("COMPARE_IN", "COMPARE_NOT_IN") and not all(map(_constant, listed[1:])):
            raise Refused("IN of anything but constants", "list them: jobsize IN (64, 128)")
    elif cls in NAMED:
        raise Refused(NAMED[cls])
    elif not (
        cls in ("CONSTANT", "CAST", "BETWEEN")
        or (cls == "COMPARISON" and kind in COMPARISONS)
        or (cls == "CONJUNCTION" and kind in ("CONJUNCTION_AND", "CONJUNCTION_OR"))
    ):
        raise Refused(f"the expression {kind.lower()}")


def _constant(node: dict[str, Any]) -> bool:
    """A constant, a constant of a type (DATE '2025-01-05') or a negative number."""
    if node.get("class") == "CAST":
        return _constant(node.get("child") or {})
    if node.get("class") == "FUNCTION" and node.get("function_name") in ("-", "+"):
        arguments = node.get("arguments") or []
        return len(arguments) == 1 and _constant(arguments[0].get("expression") or {})
    return node.get("class") == "CONSTANT"


def _function(node: dict[str, Any]) -> None:
    name = str(node.get("function_name"))
    if name == "list_value":
        raise Refused("a list [...]", "write jobsize IN (64, 128)")
    if node.get("schema") or node.get("catalog"):
        raise Refused(f"the function {node.get('schema') or node.get('catalog')}.{name}()")
    if name not in FUNCTIONS:
        raise Refused(f"the function {name}()")
    orders = (node.get("order_bys") or {}).get("orders")
    named = any(a.get("name") for a in node.get("arguments") or [] if isinstance(a, dict))
    if node.get("distinct") or node.get("filter") or orders or node.get("export_state") or named:
        raise Refused(f"{name}() with DISTINCT, FILTER, ORDER BY or named arguments")


def _column(
    node: dict[str, Any], parent: dict[str, Any] | None, columns: dict[str, str], text: str
) -> None:
    """A column of the metadata, named alone (DuckDB matches names regardless of case)."""
    names = [str(n) for n in node.get("column_names") or []]
    if len(names) != 1:
        raise Refused(f"the name {'.'.join(names)!r}", "name a column alone: jobsize")
    name = names[0]
    if name.lower() in columns:
        return
    if '"' + name.replace('"', '""') + '"' in text:  # pandas: compiler == "gcc-12"
        sides = [parent.get(k) or {} for k in ("left", "right")] if parent else []
        other = [s["column_names"][0] for s in sides if s is not node and s.get("column_names")]
        value = "'" + name.replace("'", "''") + "'"
        known = other and str(other[0]).lower() in columns
        form = f"{other[0]} = {value}" if known else value
        raise Refused(
            f'"{name}" is no column (in SQL, double quotes name a column)',
            f"a text value is single-quoted: {form}",
            refused=False,
        )
    close = difflib.get_close_matches(name.lower(), list(columns), n=1, cutoff=0.6)
    mean = f"did you mean {columns[close[0]]}? " if close else ""
    listed = ", ".join(list(columns.values())[:40])
    raise Refused(f"no column {name!r}", f"{mean}columns: {listed}", refused=False)
