"""What the readers do with a file they cannot trust: its text decoded with errors that say
where it broke, JSON parsed the same way, numbers checked finite, names kept as text of a
bounded length, the repairs made counted for the metadata, and the options a reader is given
checked against those it accepts.

Every reader's repairs land under :data:`REPAIRS`; the JSON readers (speedscope, ``.cpuprofile``,
trace events) also read their file with :func:`text` and :func:`parse`. JSON is UTF-8 text
(RFC 8259): a file that is not says so with the byte offset. ``NaN`` and ``Infinity`` (which
Python's ``json`` accepts) are refused, so no total is ever NaN. A file cut short names the line
and column where it ends.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeGuard

from cctviz.adapters.formats.source import FormatError, opened

#: the metadata key of the repairs a reader made: ``{what: count}``
REPAIRS = "cctviz.repairs"
#: the longest name kept whole; a longer one is cut to this many characters and counted
NAME_LIMIT = 4096
BOM = b"\xef\xbb\xbf"


def text(path: Path, limit: int | None = None) -> str:
    """``path``'s bytes (through gzip) as UTF-8 text, a byte-order mark dropped."""
    with opened(path, **({} if limit is None else {"limit": limit})) as stream:
        raw = stream.read()
    if raw.startswith(BOM):
        raw = raw[len(BOM) :]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FormatError(
            f"{path}: not UTF-8 text at byte {error.start:,} "
            f"({raw[error.start : error.start + 4]!r}); JSON profiles are UTF-8"
        ) from None


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON number (only finite numbers are accepted)")


def parse(
    source: str,
    path: Path,
    what: str,
    object_hook: Callable[[dict[str, Any]], Any] | None = None,
) -> Any:
    """``source`` parsed as JSON; a syntax error, a number JSON does not have or nesting too deep
    for Python is a :class:`FormatError` naming the line and column and ``what`` the file
    should be."""
    try:
        return json.loads(source, parse_constant=_no_constant, object_hook=object_hook)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno} column {error.colno}"
        ends = error.pos >= len(source.rstrip()) or error.msg.startswith("Unterminated string")
        cut = " (the file ends there: cut short?)" if ends else ""
        raise FormatError(
            f"{path}: not valid JSON at {where}{cut}: {error.msg}; {what} is needed"
        ) from None
    except RecursionError:
        raise FormatError(f"{path}: JSON nested too deeply to read; {what} is needed") from None
    except ValueError as error:  # NaN/Infinity, an integer of thousands of digits
        raise FormatError(f"{path}: {error}; {what} is needed") from None


def number(value: Any) -> TypeGuard[int | float]:
    """Whether ``value`` is a JSON number (not a boolean) that is finite and below 1e300 in
    size (so that sums of them stay finite floats)."""
    return type(value) in (int, float) and abs(value) < 1e300


class Repairs:
    """Counts of the repairs a reader made (``what → count``), and names made safe to keep."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def add(self, what: str, count: int = 1) -> None:
        if count:
            self.counts[what] += count

    def name(self, value: Any, fallback: str) -> str:
        """A name as text: ``fallback`` when absent or empty, a non-text value written as
        JSON, lone surrogates replaced and anything past :data:`NAME_LIMIT` characters cut."""
        if value is None or value == "":
            return fallback
        if not isinstance(value, str):
            value = json.dumps(value)[:NAME_LIMIT]
            self.add("names that were not text, written as JSON")
        if len(value) > NAME_LIMIT:
            value = value[:NAME_LIMIT] + "…"
            self.add(f"names longer than {NAME_LIMIT} characters cut")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            value = value.encode("utf-8", "replace").decode("utf-8")
            self.add("names with unpaired surrogate escapes replaced")
        return value

    def metadata(self) -> dict[str, Any]:
        return {REPAIRS: dict(sorted(self.counts.items()))}


def shown(value: Any, size: int = 60) -> str:
    """``repr(value)`` for a message, at most ``size`` characters of it."""
    text = repr(value)
    return text if len(text) <= size else text[:size] + "…"


def options(name: str, given: Mapping[str, Any], accepted: Mapping[str, Any]) -> dict[str, Any]:
    """``given`` over the defaults in ``accepted``; an option not accepted is a TypeError."""
    unknown = sorted(set(given) - set(accepted))
    if unknown:
        raise TypeError(
            f"the {name} reader got unknown option(s) {unknown}; it accepts "
            f"{sorted(accepted) or 'none'}"
        )
    return {**accepted, **given}


__all__ = [
    "NAME_LIMIT",
    "REPAIRS",
    "FormatError",
    "Repairs",
    "number",
    "options",
    "parse",
    "shown",
    "text",
]
