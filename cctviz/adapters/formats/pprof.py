"""The pprof profile (``profile.proto``, gzipped or not) as Go's ``runtime/pprof`` and
``go test -cpuprofile``, ``go tool pprof -proto`` and many language profilers write it: each
sample a stack of locations (the leaf first) with one value per ``sample_type``; each location
one or more lines (inlined frames, the innermost first), each line a function (name, file).

Metrics, all exclusive (a sample's values belong to the leaf of its stack; inclusive is
derived): one per ``sample_type``, named by its type (``samples``, ``cpu``, ``alloc_space``…)
with its unit as the file writes it (``count``, ``nanoseconds``, ``bytes``…); values are summed
as integers, exactly. Frames are functions (name, else system name; file; module: the mapping's
file), outermost first, inlined frames as the location lists them; a node's line is the
function's first line when the file has it (Go 1.19 writes none); ``lines=True``: the line the
sample was at, one node per line. A location without lines (not symbolised) is named by its
address. Labels: a sample's ``pid`` label gives its rank and its ``thread`` label its thread
(other keys with ``rank_label=``/``thread_label=``, ``None`` for none); a text label is numbered
in order of first appearance, the names under ``metadata["cctviz.label_names"]``.

Repairs (counted under ``metadata["cctviz.repairs"]``): a function with neither name nor system
name is named by its location's address; names longer than 4096 characters are cut; sample
types with an empty or repeated name (or one ending in `` (inc)``) are numbered. Refused with a
:class:`FormatError` (as pprof refuses most of them): a truncated or malformed protobuf, a string
index out of range, ``string_table[0]`` not empty, a sample naming no location, with no location
or with more or fewer values than sample types, a line naming no function, a zero or repeated
id. Text that is not UTF-8 is refused too (protobuf's parser refuses the whole message).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from cctviz.adapters.formats.calltree import INC, CallTree, Column, Site
from cctviz.adapters.formats.source import FormatError, opened
from cctviz.adapters.formats.untrusted import Repairs, options, shown
from cctviz.adapters.formats.wire import plausible

NAME = "pprof"
SUFFIXES = (".pb.gz", ".pprof", ".pb")  # not .prof: gperftools' legacy format and cProfile use it
WHAT = "a pprof profile (profile.proto, gzipped or not)"
INSTALL = "pip install 'cctviz[formats]'"
LABEL_NAMES = "cctviz.label_names"


def sniff(head: bytes, path: Path) -> bool:
    return plausible(head)


def _proto() -> Any:
    try:
        return importlib.import_module("cctviz.adapters.formats.profile_pb2")
    except ImportError as error:  # protobuf missing, or a runtime older than the generated code
        raise ImportError(
            f"reading pprof profiles needs protobuf >= 7.35 ({error}): {INSTALL}"
        ) from None


def read(path: Path, **given: Any) -> Any:
    """A GraphFrame of the pprof profile at ``path`` (options: ``limit``, ``lines``,
    ``thread_label``, ``rank_label``)."""
    opts = options(NAME, given, {"limit": None, "lines": False, "thread_label": "thread",
                                 "rank_label": "pid"})  # fmt: skip
    pb = _proto()
    from google.protobuf.message import DecodeError

    with opened(path, **({} if opts["limit"] is None else {"limit": opts["limit"]})) as stream:
        raw = stream.read()
    profile = pb.Profile()
    try:
        profile.ParseFromString(raw)
    except DecodeError as error:
        raise FormatError(
            f"{path}: not a readable protobuf ({error}: cut short, damaged or text that is not "
            f"UTF-8); {WHAT} is needed"
        ) from None
    return _Reader(profile, path, opts).graphframe()


class _Reader:
    def __init__(self, profile: Any, path: Path, opts: dict[str, Any]) -> None:
        self.p, self.path, self.opts, self.repairs = profile, path, opts, Repairs()
        self.strings = list(profile.string_table)
        if self.strings and self.strings[0] != "":
            raise FormatError(f"{path}: string_table[0] is {shown(self.strings[0])}; it must be ''")
        self.functions = self._by_id(profile.function, "function")
        self.mappings = self._by_id(profile.mapping, "mapping")
        self.locations = self._by_id(profile.location, "location")
        self.frames: dict[int, list[Site]] = {}
        self.names: dict[int, str] = {}  # function id → its name, repaired once

    def text(self, index: int, where: str) -> str:
        if not 0 <= index < max(len(self.strings), 1):
            raise FormatError(
                f"{self.path}: {where} names string {index}, but the string table holds "
                f"{len(self.strings)}; {WHAT} is needed"
            )
        return self.strings[index] if self.strings else ""

    def _by_id(self, items: Any, what: str) -> dict[int, Any]:
        out: dict[int, Any] = {}
        for item in items:
            if item.id == 0 or item.id in out:
                raise FormatError(f"{self.path}: {what} id {item.id} is zero or repeated")
            out[item.id] = item
        return out

    def columns(self) -> list[Column]:
        if not self.p.sample_type:
            raise FormatError(f"{self.path}: no sample_type; {WHAT} is needed")
        out: list[Column] = []
        taken: set[str] = set()
        for k, vt in enumerate(self.p.sample_type):
            name = self.text(vt.type, f"sample_type[{k}]")
            unit = self.text(vt.unit, f"sample_type[{k}]") or None
            want = self.repairs.name(name, f"value {k}")
            if want != name or want in taken or want.endswith(INC) or want == "name":
                base = want.removesuffix(INC)
                want = next(c for i in range(2, k + 3) if (c := f"{base} #{i}") not in taken)
                self.repairs.add("sample types with an empty or repeated name renamed")
            taken.add(want)
            out.append(Column(want, "exclusive", unit))
        return out

    def sites(self, location_id: int) -> list[Site]:
        """The frames of a location, outermost first (pprof lists inlined frames innermost
        first)."""
        cached = self.frames.get(location_id)
        if cached is not None:
            return cached
        loc = self.locations.get(location_id)
        if loc is None:
            raise FormatError(f"{self.path}: a sample names location {location_id}, which is none")
        mapping = self.mappings.get(loc.mapping_id)
        module = (self.text(mapping.filename, "a mapping") or None) if mapping else None
        out: list[Site] = []
        for line in reversed(loc.line):
            fn = self.functions.get(line.function_id)
            if fn is None:
                raise FormatError(
                    f"{self.path}: location {location_id} names function {line.function_id}, "
                    "which is none"
                )
            where = f"function {fn.id}"
            name = self.names.get(fn.id)
            if name is None:
                name = self.text(fn.name, where) or self.text(fn.system_name, where)
                name = self.names[fn.id] = self.repairs.name(name, "") if name else ""
            if not name:
                self.repairs.add("functions without a name named by their address")
                name = f"0x{loc.address:x}"
            at = line.line if self.opts["lines"] else fn.start_line
            out.append(Site(name, self.text(fn.filename, where) or None,
                            at if at > 0 else None, module))  # fmt: skip
        if not out:
            out.append(Site(f"0x{loc.address:x}", None, None, module))
        self.frames[location_id] = out
        return out

    def graphframe(self) -> Any:
        columns = self.columns()
        names = [c.name for c in columns]
        tree = CallTree(columns)
        labels = _Labels(self, self.opts["rank_label"], self.opts["thread_label"])
        # values summed per distinct (stack, rank, thread) as Python integers (exact), then
        # each distinct stack resolved into frames once
        summed: dict[tuple[tuple[int, ...], int, int], list[int]] = {}
        width = len(names)
        for k, sample in enumerate(self.p.sample):
            values = list(sample.value)
            if len(values) != width:
                raise FormatError(
                    f"{self.path}: sample {k} has {len(values)} values for "
                    f"{width} sample types; one value per sample type"
                )
            stack = tuple(sample.location_id)
            if not stack:
                raise FormatError(f"{self.path}: sample {k} has no location; {WHAT} is needed")
            key = (stack, *labels.of(sample, k)) if sample.label else (stack, 0, 0)
            row = summed.get(key)
            if row is None:
                summed[key] = values
            else:
                for j in range(width):
                    row[j] += values[j]
        if not summed:
            raise FormatError(f"{self.path}: the profile holds no samples; nothing to show")
        nodes: dict[tuple[int, ...], int] = {}
        for (stack, rank, thread), row in summed.items():
            node = nodes.get(stack)
            if node is None:
                frames = [s for i in reversed(stack) for s in self.sites(i)]
                node = nodes[stack] = tree.path(frames)
            tree.add(node, dict(zip(names, map(float, row), strict=True)), rank, thread)
        meta: dict[str, Any] = {"cctviz.format": NAME, **self.repairs.metadata()}
        if labels.names:
            meta[LABEL_NAMES] = labels.names
        if self.p.HasField("period_type"):
            meta["pprof.period"] = [
                self.p.period,
                self.text(self.p.period_type.type, "period_type"),
                self.text(self.p.period_type.unit, "period_type"),
            ]
        meta["pprof.duration_nanos"] = self.p.duration_nanos
        meta["pprof.time_nanos"] = self.p.time_nanos
        return tree.graphframe(meta)


class _Labels:
    """A sample's rank and thread from its labels (0 without): a number label gives its number,
    a text label a number in order of first appearance (the names kept)."""

    def __init__(self, reader: _Reader, rank: str | None, thread: str | None) -> None:
        self.r = reader
        self.keys = {"rank": rank, "thread": thread}
        self.numbered: dict[str, dict[str, int]] = {"rank": {}, "thread": {}}
        self.names: dict[str, dict[int, str]] = {}

    def of(self, sample: Any, k: int) -> tuple[int, int]:
        found = {"rank": 0, "thread": 0}
        for label in sample.label:
            key = self.r.text(label.key, f"sample {k}'s label")
            for level, wanted in self.keys.items():
                if wanted is None or key != wanted:
                    continue
                if label.str:
                    text = self.r.text(label.str, f"sample {k}'s label {key!r}")
                    seen = self.numbered[level]
                    found[level] = seen.setdefault(text, len(seen))
                    self.names.setdefault(level, {})[seen[text]] = text
                else:
                    found[level] = int(label.num)
        return found["rank"], found["thread"]


__all__ = ["NAME", "SUFFIXES", "read", "sniff"]
