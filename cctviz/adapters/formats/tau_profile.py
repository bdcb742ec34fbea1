"""One TAU text profile file (``profile.<node>.<context>.<thread>``) parsed: its header (the
count of function lines, the metric, TAU's metadata), its function lines (name, calls, subrs,
exclusive, inclusive; a call path is ``a => b => c``) and its user events, with TAU's decorated
names (``name [{file} {line,col}-{line,col}]``, ``name C [{file} {line}]``, ``[UNWIND] file
[@] name``, ``[SAMPLE] name module``) made into a name, file, line and module the way Hatchet's
``from_tau`` names them.

The file is untrusted: a line that is not a function line, a negative or non-finite number is a
:class:`FormatError` naming the file and line; bytes that are not UTF-8 are replaced and a file
cut short (fewer function lines than its header says, a last line without its end) keeps the
complete lines, both counted as repairs.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from cctviz.adapters.formats.calltree import Site
from cctviz.adapters.formats.source import FormatError
from cctviz.adapters.formats.untrusted import Repairs, shown

HEADER = re.compile(rb"^\s*(\d+)\s+templated_functions(?:_MULTI_(\S+))?\s*$")
#: a function line: its quoted name and four numbers (calls, subrs, excl, incl), profile calls
FUNCTION = re.compile(
    r'^"(.*)"[ \t]+(\S+[ \t]+\S+[ \t]+\S+[ \t]+\S+)[ \t]+\S+[ \t]+GROUP="[^\n]*$', re.M
)
ATTRIBUTE = re.compile(r"<attribute><name>(.*?)</name><value>(.*?)</value></attribute>")
WHAT = (
    "a TAU profile (a first line '<n> templated_functions_MULTI_<metric>', a line '# Name Calls "
    "Subrs Excl Incl ProfileCalls', then n lines '\"name\" calls subrs excl incl profilecalls "
    'GROUP="…"\')'
)


@dataclass
class Profile:
    """What one profile file holds."""

    metric: str | None
    #: each function line's name as written (call path elements joined by ``=>``)
    names: list[str]
    #: each function line's calls, subroutine calls, exclusive and inclusive value
    numbers: np.ndarray
    attributes: dict[str, str] = field(default_factory=dict)
    #: (name, numevents, max, min, mean, sumsqr)
    events: list[tuple[str, float, float, float, float, float]] = field(default_factory=list)


def header(first: bytes) -> re.Match[bytes] | None:
    """The header's match when ``first`` (a file's first line) is a TAU profile's."""
    return HEADER.match(first.split(b"\n", 1)[0])


def parse(path: Path, repairs: Repairs, attributes: bool = False) -> Profile:
    """The profile file at ``path`` (``attributes``: also TAU's metadata from its header)."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "replace")
        repairs.add("profile files with bytes that are not UTF-8 (replaced by U+FFFD)")
    first = text.find("\n")
    second = text.find("\n", first + 1) if first >= 0 else -1
    matched = header(text[: max(first, 0)].encode("utf-8", "replace"))
    if matched is None or second < 0 or text[first + 1] != "#":
        raise FormatError(f"{path}: line 1 is {shown(text[: first if first >= 0 else 80])}; {WHAT}")
    count = int(matched.group(1))
    metric = matched.group(2).decode("utf-8", "replace") if matched.group(2) else None
    meta = text[first + 1 : second]
    found = dict(ATTRIBUTE.findall(meta)) if attributes or metric is None else {}
    metric = found.get("Metric Name", metric)
    start = second + 1
    # the function lines: the next ``count`` lines ended by a newline (counted from the end:
    # what follows them, aggregates and user events, is a few lines)
    after = text.count("\n", start)
    kept = min(count, after)
    end = text.rfind("\n", start) + 1 if after else start
    for _ in range(after - kept):
        end = max(start, text.rfind("\n", start, end - 1) + 1)
    if kept < count:
        repairs.add("profile files cut short (complete function lines kept)")
        repairs.add("function lines missing from files cut short", count - kept)
    lines = FUNCTION.findall(text, start, end)
    if len(lines) != kept:  # one match per line: some line is not a function line
        for k, line in enumerate(text[start:end].split("\n")):
            if FUNCTION.match(line) is None:
                raise FormatError(
                    f"{path}: line {k + 3} is {shown(line)}, not a function line; {WHAT}"
                )
    numbers = _array([f[1] for f in lines], path)
    if numbers.size and not (np.isfinite(numbers).all() and (numbers >= 0).all()):
        k = int(np.argmax(~(np.isfinite(numbers) & (numbers >= 0)).all(axis=1)))
        raise FormatError(
            f"{path}: line {k + 3} has a negative or non-finite number ({shown(lines[k][1])}); "
            "TAU's calls, subroutines and exclusive and inclusive values are finite and ≥ 0"
        )
    out = Profile(metric, [f[0] for f in lines], numbers, found if attributes else {})
    if kept == count:  # a file cut in its function lines has no user events left
        _events(text[end:].split("\n"), kept + 3, out, path, repairs)
    return out


def _array(groups: list[str], path: Path) -> np.ndarray:
    """The four numbers in each of ``groups`` (one per function line, from line 3): read as
    integers when they all are (TAU's times and counts mostly are, and reading them so is ten
    times faster), else as floats."""
    text, rows = " ".join(groups), len(groups)
    numbers = np.zeros(0)
    for kind in (np.int64, np.float64):
        if numbers.size != 4 * rows:
            with warnings.catch_warnings():  # not numbers: a short array (or an error)
                warnings.simplefilter("ignore", DeprecationWarning)
                try:
                    read = np.fromstring(text, kind, sep=" ")
                except ValueError:
                    read = np.zeros(0, kind)
            # an integer int64 cannot hold is read as its largest: read those as floats
            if kind is np.float64 or not read.size or read.max() < 1 << 62:
                numbers = read.astype(np.float64)
    if numbers.size != 4 * rows:
        numbers = np.array([_numbers(g, path, k + 3) for k, g in enumerate(groups)])
    return numbers.reshape(rows, 4)


def _numbers(text: str, path: Path, line: int) -> list[float]:
    try:
        return [float(x) for x in text.split()]
    except ValueError:
        raise FormatError(
            f"{path}: line {line} has {shown(text)} where four numbers are (calls, subrs, excl, "
            f"incl); {WHAT}"
        ) from None


def _events(lines: list[str], first: int, out: Profile, path: Path, repairs: Repairs) -> None:
    """The user events in ``lines`` (what follows the function lines, the first of them line
    ``first`` of the file): ``<m> aggregates`` and m lines, then ``<k> userevents``, a ``#``
    line and k lines. What follows the last newline (a line cut short) is not read."""
    if lines[-1].strip():
        repairs.add("lines cut short at the end of a file (not read)")
    lines = lines[:-1]
    at = 0
    while at < len(lines) and not lines[at].strip():
        at += 1
    if at < len(lines) and lines[at].strip().endswith("aggregates"):
        skip = lines[at].split()[0]
        at += 1 + (int(skip) if skip.isdigit() else 0)
    if at >= len(lines) or not lines[at].strip().endswith("userevents"):
        return
    declared = lines[at].split()[0]
    stop = at + 2 + int(declared) if declared.isdigit() else len(lines)
    for k in range(at + 2, min(stop, len(lines))):
        parts = lines[k].rsplit(None, 5)
        try:
            name = parts[0]
            if len(parts) != 6 or name[0] != '"' or name[-1] != '"' or len(name) < 2:
                raise ValueError
            numbers = [float(p) for p in parts[1:]]
        except (ValueError, IndexError):
            raise FormatError(
                f"{path}: line {k + first} is {shown(lines[k])}, not a user event line "
                "('\"name\" numevents max min mean sumsqr')"
            ) from None
        if not all(math.isfinite(x) for x in numbers):
            raise FormatError(f"{path}: line {k + first} has a number that is not finite")
        out.events.append((name[1:-1], *numbers))  # type: ignore[arg-type]


def site(name: str, repairs: Repairs) -> Site:
    """A call path element as Hatchet's ``from_tau`` names it: TAU's decorations (file, line,
    module) taken off the name into the frame's file, line and module."""
    file: str | None = None
    module: str | None = None
    if " C " in name:
        shown_name, rest = name.split(" C ", 1)
        if "[{" in rest:
            file = rest.split()[0].strip("}[{")
    elif " [@]" in name:
        before = name.split(" [@]", 1)[0].split()
        where = before[1].strip("][") if len(before) > 1 else ""
        shown_name = f"{before[0]} {where}" if before else name
        if ".so" in name.split(" [@]", 1)[0] or ".S" in name.split(" [@]", 1)[0]:
            module = where
        else:
            file = where
    elif "[{" in name:
        shown_name, rest = name.split(" [{", 1) if " [{" in name else (name, "")
        token = rest.split()[0].strip("}{") if rest.split() else ""
        if ".so" in rest:
            module = token
        else:
            file = token
    else:
        shown_name = name
        words = name.split()
        if len(words) == 3 and "/" in name:
            shown_name, module = f"{words[0]} {words[1]}", words[2]
    return Site(
        repairs.name(shown_name, "(anonymous)"),
        repairs.name(file, "") or None,
        _line(name),
        repairs.name(module, "") or None,
    )


def _line(name: str) -> int | None:
    """The first source line TAU gives in ``name`` (``{13,1}-{29,1}`` → 13; ``file.42 [@]`` →
    42), or ``None``."""
    if "[{" in name:
        found = re.search(r"\{.*\}\]", name)
        numbers = found.group(0).split(" {") if found else []
        if len(numbers) < 2:
            return None
        start = numbers[1].strip("}]").replace("{", "").split("-")[0].split(",")[0].strip()
    else:
        words = name.split(".")[-1].split()
        start = words[0].strip("]") if words else ""
    return int(start) if start.isdigit() and int(start) > 0 else None


__all__ = ["WHAT", "Profile", "header", "parse", "site"]
