"""HPCToolkit's database format v4 (``meta.db``, ``profile.db``; HPCToolkit's FORMATS.md), read
with the standard library and numpy: the calling context tree of ``meta.db`` (entry points,
functions with their files, lines and load modules, loops, source lines, instructions), the
metrics with their propagation scopes, and each application thread's values from
``profile.db`` (``cct.db`` holds the same values by context and is not needed).

A metric's ``function`` scope is its exclusive value and its ``execution`` scope its inclusive
value, both measured, so they are each other's partner (``time`` and ``time (inc)`` for
``CPUTIME (sec)``/``REALTIME (sec)``, in the unit the metric names); the ``point`` scope (the
value measured at the context itself) is ``<metric> (point)``; other scopes are listed in
``metadata["hpctoolkit.scopes skipped"]``. Each profile's identifier tuple gives its rank
(``RANK``) and thread (``THREAD``; a GPU stream is thread 1,000,000 + its id); the summary
profiles are not read (their sums are the sums of the rows); every node has a row in every
profile (zeros where it has no value, as Hatchet's readers make them), and each profile's
identifiers are in ``metadata["hpctoolkit.profiles"]``. Refused with a
:class:`FormatError`: a missing file, a file that is not HPCToolkit's v4 format, a structure
pointing outside its file.
"""

from __future__ import annotations

import mmap
import re
import struct
from pathlib import Path
from typing import Any

import numpy as np

from cctviz.adapters.formats.calltree import ROOT, CallTree, Column, Site
from cctviz.adapters.formats.untrusted import FormatError, Repairs, options

NAME = "hpctoolkit-db"
SUFFIXES: tuple[str, ...] = ()
#: what makes a folder one of this format's, for messages (a folder has no suffix)
FOLDER = "a folder with meta.db"
MAGIC = b"HPCTOOLKIT"
WHAT = "an HPCToolkit database (a folder with meta.db and profile.db, format version 4)"
TYPES = {0: "function", 1: "loop", 2: "line", 3: "instruction"}
TIMES = {"CPUTIME", "REALTIME"}
UNITS = {"sec": "s", "s": "s", "usec": "us", "us": "us", "nsec": "ns", "ns": "ns", "ms": "ms"}
STREAM = 1_000_000


def sniff(head: bytes, path: Path) -> bool:
    meta = path / "meta.db" if path.is_dir() else path
    if meta.name != "meta.db" or not meta.is_file():
        return False
    with open(meta, "rb") as f:
        return f.read(14) == MAGIC + b"meta"


class _Bytes:
    """A file's bytes with bounds-checked reads that say which file and what broke."""

    def __init__(self, path: Path, kind: bytes) -> None:
        self.path = path
        if not path.is_file():
            raise FormatError(f"{path} is missing; {WHAT} is needed")
        with open(path, "rb") as f:
            self.data: Any = (
                mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if path.stat().st_size else b""
            )
        if self.data[:14] != MAGIC + kind or self.data[14:15] != b"\x04":
            raise FormatError(
                f"{path} does not start with HPCToolkit's {(MAGIC + kind).decode()} header of "
                f"version 4 (found {bytes(self.data[:16])!r}); {WHAT} is needed"
            )

    def at(self, fmt: str, offset: int, what: str) -> tuple[Any, ...]:
        size = struct.calcsize(fmt)
        if offset < 0 or offset + size > len(self.data):
            raise FormatError(
                f"{self.path}: {what} at byte {offset:,} lies outside the file "
                f"({len(self.data):,} bytes): the database is cut short or damaged"
            )
        return struct.unpack_from(fmt, self.data, offset)

    def text(self, offset: int, what: str) -> str:
        end = self.data.find(b"\0", offset) if 0 <= offset < len(self.data) else -1
        if end < 0:
            raise FormatError(f"{self.path}: the {what} at byte {offset:,} has no end")
        return bytes(self.data[offset:end]).decode("utf-8", "replace")


def read(path: Path, **given: Any) -> Any:
    """A GraphFrame of the HPCToolkit database folder at ``path`` (or its ``meta.db``)."""
    options(NAME, given, {})
    folder = Path(path).parent if Path(path).name == "meta.db" else Path(path)
    meta, prof = _Bytes(folder / "meta.db", b"meta"), _Bytes(folder / "profile.db", b"prof")
    repairs = Repairs()
    columns, by_id, skipped = _metrics(meta)
    if not columns:
        raise FormatError(f"{meta.path}: no metric with a function or execution scope")
    tree = CallTree(columns)
    node_of = _contexts(meta, tree, repairs)
    kinds = _kinds(meta)
    described: dict[str, str] = {}
    n_profiles, p_profiles, sz = _profiles(prof)
    unlisted = 0
    for i in range(n_profiles):
        base = p_profiles + i * sz
        n_values, p_values, n_ctxs, p_ctx, p_tuple, flags = prof.at("<QQL4xQQL", base, "a profile")
        if flags & 1:
            continue  # a summary profile
        rank, thread, label = _identity(prof, p_tuple, kinds)
        described[f"{rank}.{thread}"] = label
        values = _array(prof, p_values, n_values, np.dtype([("m", "<u2"), ("v", "<f8")]))
        index = _array(prof, p_ctx, n_ctxs, np.dtype([("c", "<u4"), ("s", "<u8")]))
        if not len(values):  # a thread that measured nothing: zeros (it has rows)
            if len(tree):
                tree.add(0, {columns[0].name: 0.0}, rank=rank, thread=thread)
            continue
        starts = index["s"].astype(np.int64)
        if len(starts) and (np.any(np.diff(starts) < 0) or starts[-1] > n_values):
            raise FormatError(f"{prof.path}: profile {i}'s context indices are out of order")
        counts = np.diff(np.append(starts, n_values))
        ctx = np.repeat(index["c"].astype(np.int64), counts)
        nodes = node_of[np.clip(ctx, 0, len(node_of) - 1)]
        nodes[ctx >= len(node_of)] = -1
        repairs.add(
            "values of contexts meta.db does not list (ignored)",
            int(np.sum(nodes < 0) - np.sum(ctx == 0)),
        )
        for metric_id, name in by_id.items():
            pick = (values["m"] == metric_id) & (nodes >= 0)
            if pick.any():
                tree.add_many(nodes[pick], {name: values["v"][pick]}, rank=rank, thread=thread)
    if not tree.ranks:
        raise FormatError(f"{prof.path}: no profile holds a value; {WHAT} is needed")
    return tree.graphframe(
        {
            "cctviz.format": NAME,
            "hpctoolkit.profiles": described,
            "hpctoolkit.scopes skipped": skipped,
            # values at the global context (0) and at ids the context tree does not list
            "hpctoolkit.values not on a listed context": unlisted,
            **repairs.metadata(),
        },
        dense=True,
    )


def metric_units(folder: Path) -> dict[str, str]:
    """``{metric column: unit}`` of the database at ``folder`` as its ``meta.db`` names them
    (``CPUTIME (sec)``: ``time`` and ``time (inc)`` in ``s``), for ``cctviz.adapters.units``."""
    columns, _, _ = _metrics(_Bytes(Path(folder) / "meta.db", b"meta"))
    return {c.name: c.unit for c in columns if c.unit}


def _array(file: _Bytes, offset: int, count: int, dtype: np.dtype) -> np.ndarray:
    if count and (offset < 0 or offset + count * dtype.itemsize > len(file.data)):
        raise FormatError(f"{file.path}: {count:,} values at byte {offset:,} lie outside the file")
    return np.frombuffer(file.data, dtype, count, offset) if count else np.zeros(0, dtype)


def _metrics(meta: _Bytes) -> tuple[list[Column], dict[int, str], list[str]]:
    """Columns for the metrics' function (exclusive), execution (inclusive) and point scopes,
    and which ``propMetricId`` is which column."""
    _, p_section = meta.at("<QQ", 0x30, "the metrics section")
    p_metrics, n_metrics, sz_metric, sz_inst = meta.at("<QLBB", p_section, "the metrics header")
    columns: list[Column] = []
    by_id: dict[int, str] = {}
    skipped: list[str] = []
    for i in range(n_metrics):
        p_name, p_insts, _, n_insts = meta.at("<QQQH", p_metrics + i * sz_metric, "a metric")
        raw = meta.text(p_name, "metric name")
        found = re.fullmatch(r"(.*?)\s*\((.*)\)", raw)
        base, unit_text = (found.group(1), found.group(2)) if found else (raw, None)
        name = "time" if base.upper() in TIMES else base
        unit = UNITS.get(unit_text or "", unit_text)
        scopes: dict[str, int] = {}
        for j in range(n_insts):
            p_scope, metric_id = meta.at("<QH", p_insts + j * sz_inst, "a metric scope")
            (p_scope_name,) = meta.at("<Q", p_scope, "a scope")
            scopes[meta.text(p_scope_name, "scope name")] = metric_id
        if "function" in scopes and "execution" in scopes:
            inc = f"{name} (inc)"
            columns += [
                Column(name, "exclusive", unit, partner=inc),
                Column(inc, "inclusive", unit, partner=name),
            ]
            by_id[scopes.pop("function")], by_id[scopes.pop("execution")] = name, inc
        if "point" in scopes:
            columns.append(Column(f"{name} (point)", "exclusive", unit, derive=False))
            by_id[scopes.pop("point")] = f"{name} (point)"
        skipped += [f"{raw}: {scope}" for scope in scopes]
    return columns, by_id, skipped


def _contexts(meta: _Bytes, tree: CallTree, repairs: Repairs) -> np.ndarray:
    """The context tree interned in ``tree``; the node of each ``ctxId`` (-1: none)."""
    sz_section, p_section = meta.at("<QQ", 0x40, "the context tree section")
    budget = sz_section // 0x20  # no more contexts than fit: a tree that loops is said
    p_entries, n_entries, sz_entry = meta.at("<QHB", p_section, "the context tree header")
    found: dict[int, int] = {}
    stack: list[tuple[int, int, int]] = []  # (parent node, pointer to children, their size)
    for i in range(n_entries):
        size, children, ctx, _, p_pretty = meta.at(
            "<QQLH2xQ", p_entries + i * sz_entry, "an entry point"
        )
        node = tree.child(
            ROOT, Site(repairs.name(meta.text(p_pretty, "entry name"), "entry"), type="entry")
        )
        found[ctx] = node
        stack.append((node, children, size))
    sites: dict[tuple[int, ...], Site] = {}
    while stack:
        parent, at, size = stack.pop()
        end = at + size
        while at < end:
            budget -= 1
            if budget < 0:
                raise FormatError(
                    f"{meta.path}: the context tree holds more contexts than its section can "
                    "(its child pointers loop): the database is damaged"
                )
            sz, children, ctx, flags, _, lexical, words = meta.at("<QQLBBBB", at, "a context")
            flex = meta.at(f"<{words}Q", at + 0x20, "a context's fields") if words else ()
            key = (flags, lexical, *flex)
            site = sites.get(key)
            if site is None:
                site = sites[key] = _site(meta, flags, lexical, flex, repairs)
            found[ctx] = node = tree.child(parent, site, new=True)
            stack.append((node, children, sz))
            at += 0x20 + 8 * words
    out = np.full(max(found, default=0) + 1, -1, np.int64)
    for ctx, node in found.items():
        out[ctx] = node
    return out


def _site(meta: _Bytes, flags: int, lexical: int, flex: tuple[int, ...], repairs: Repairs) -> Site:
    """What a context names: its function, file and line, load module and offset."""
    words = list(flex)
    function = words.pop(0) if flags & 1 and words else 0
    p_file, line = (
        (words.pop(0), words.pop(0) & 0xFFFFFFFF) if flags & 2 and len(words) >= 2 else (0, 0)
    )
    p_module, offset = (words.pop(0), words.pop(0)) if flags & 4 and len(words) >= 2 else (0, 0)
    file = _path(meta, p_file, 8) if p_file else None
    module = _path(meta, p_module, 8) if p_module else None
    kind = TYPES.get(lexical, "function")
    if function:
        p_name, p_fmodule, _, p_ffile, fline = meta.at("<QQQQL", function, "a function")
        name = meta.text(p_name, "function name") if p_name else ""
        module = module or (_path(meta, p_fmodule, 8) if p_fmodule else None)
        file, line = file or (_path(meta, p_ffile, 8) if p_ffile else None), line or fline
        short = Path(module).name if module else ""
        if short and name.endswith(f" [{short}]"):
            name = name[: -len(short) - 3]
        name = name or f"<unknown function> {short}".strip()
    elif kind == "instruction":
        name = f"{Path(module).name if module else '?'}+{offset:#x}"
    else:
        name = f"{kind} {Path(file).name if file else '?'}:{line}"
    if file and file.startswith("src/"):
        file = file[3:]
    return Site(repairs.name(name, "(anonymous)"), file, line or None, module, kind)


def _path(meta: _Bytes, pointer: int, at: int) -> str:
    (p_path,) = meta.at("<Q", pointer + at, "a file or module")
    return meta.text(p_path, "path")


def _kinds(meta: _Bytes) -> dict[int, str]:
    _, p_section = meta.at("<QQ", 0x20, "the identifier names section")
    pp_names, n_kinds = meta.at("<QB", p_section, "the identifier names")
    return {
        i: meta.text(meta.at("<Q", pp_names + 8 * i, "an identifier name")[0], "name").upper()
        for i in range(n_kinds)
    }


def _profiles(prof: _Bytes) -> tuple[int, int, int]:
    _, p_section = prof.at("<QQ", 0x10, "the profiles section")
    p_profiles, n_profiles, sz = prof.at("<QLB", p_section, "the profiles header")
    return n_profiles, p_profiles, sz


def _identity(prof: _Bytes, p_tuple: int, kinds: dict[int, str]) -> tuple[int, int, str]:
    """A profile's rank, thread and its identifier tuple as text (``RANK 1 THREAD 0``)."""
    if not p_tuple:
        return 0, 0, ""
    (n_ids,) = prof.at("<H", p_tuple, "an identifier tuple")
    ids: dict[str, int] = {}
    for k in range(n_ids):
        kind, _, _, logical, _ = prof.at("<BBHLQ", p_tuple + 8 + 16 * k, "an identifier")
        ids[kinds.get(kind, str(kind))] = logical
    thread = ids.get("THREAD", STREAM + ids["GPUSTREAM"] if "GPUSTREAM" in ids else 0)
    return ids.get("RANK", 0), thread, " ".join(f"{k} {v}" for k, v in ids.items())


__all__ = ["FOLDER", "NAME", "SUFFIXES", "read", "sniff"]
