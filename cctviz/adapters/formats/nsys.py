"""NVIDIA Nsight Systems' SQLite export (``nsys export --type sqlite report.nsys-rep``): GPU
kernels under the CPU call path that launched them.

Each row of ``CUPTI_ACTIVITY_KIND_KERNEL`` is a kernel node (frame type ``kernel``, named by
its ``demangledName``, or ``shortName``/``mangledName`` with ``kernel_names=``, through
``StringIds``) whose own ``time`` is its ``end - start`` in ``ns`` (exclusive: a kernel has no
children; ``time (inc)`` is derived, so a CPU node's ``time (inc)`` is the GPU time of the
kernels launched under it) and ``launches`` is 1. The kernel sits under the CUDA API calls that
share its ``correlationId`` in ``CUPTI_ACTIVITY_KIND_RUNTIME`` (in its process; outermost
first, e.g. ``cudaLaunchKernel`` → ``cudaLaunchKernel_v7000``), under the call's backtrace from
``CUDA_CALLCHAINS`` when the export has one (``callstacks=False``: not), under the NVTX push/pop
and start/end ranges (``NVTX_EVENTS``) that enclose the call on its CPU thread (``nvtx=False``:
not). Nesting is by time on one thread, so it can never be cyclic; crossing start/end ranges
enclose a call when both hold it, outermost (earliest) first.

Ranks are processes (the pid of the kernel's ``globalPid``) and threads are CUDA devices
(``deviceId``; their names from ``TARGET_INFO_GPU`` under ``metadata["cctviz.devices"]``), so
the roots' ``time (inc)`` per rank and thread is the SQL ``sum(end - start)`` of that
process's kernels on that device (summed as integers). Streams are not kept.

Rows are streamed from one read-only query (``sqlite3``), the calls grouped per thread only
where NVTX ranges exist. Repairs (``metadata["cctviz.repairs"]``): a kernel whose API call is not
in the file goes under ``[launch not in file]``; a string id not in ``StringIds`` is named
``[string N]``; NVTX ranges that end before they start are ignored; long or non-UTF-8 names are
cut or replaced. Refused (:class:`FormatError`): a file that is not SQLite, one without the
kernel and string tables (the message names the tables found), a kernel with no ``start``/``end``
or ending before it starts (named by its row), a database that cannot be read.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any

from cctviz.adapters.formats.calltree import CallTree, Column, Site
from cctviz.adapters.formats.ranges import Range, enclose, per_thread
from cctviz.adapters.formats.sqlitedb import (
    columns,
    connected,
    is_sqlite,
    need,
    need_columns,
    tables,
    tables_of,
)
from cctviz.adapters.formats.untrusted import FormatError, Repairs, options

NAME = "nsys"
SUFFIXES = (".sqlite", ".sqlite3", ".db")
WHAT = (
    "an Nsight Systems SQLite export with CUDA kernels (nsys profile --trace=cuda; "
    "nsys export --type sqlite)"
)
KERNEL, RUNTIME, STRINGS = "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "StringIds"
CALLCHAINS, NVTX = "CUDA_CALLCHAINS", "NVTX_EVENTS"
NVTX_RANGES = (59, 60)  # NvtxPushPopRange, NvtxStartEndRange
NAMES = {"demangled": "demangledName", "short": "shortName", "mangled": "mangledName"}
NOT_LAUNCHED = Site("[launch not in file]", type="region")
DEVICES = "cctviz.devices"
_MARKS = ("EXPORT_META_DATA", "META_DATA_EXPORT", "TARGET_INFO_SESSION_START_TIME", "ThreadNames")


def sniff(head: bytes, path: Path) -> bool:
    if not is_sqlite(head):
        return False
    found = tables_of(path)
    return STRINGS in found and (KERNEL in found or any(m in found for m in _MARKS))


def read(path: Path, **given: Any) -> Any:
    """A GraphFrame of the Nsight Systems export at ``path`` (options: ``kernel_names``
    ``"demangled"``/``"short"``/``"mangled"``, ``nvtx``, ``callstacks``)."""
    opts = options(NAME, given, {"kernel_names": "demangled", "nvtx": True, "callstacks": True})
    if opts["kernel_names"] not in NAMES:
        raise ValueError(
            f"kernel_names={opts['kernel_names']!r} is not one of {sorted(NAMES)} (the "
            "StringIds columns demangledName, shortName and mangledName of the kernel table)"
        )
    path, repairs = Path(path), Repairs()
    with connected(path, repairs, WHAT) as db:
        return _Reader(db, path, repairs, opts).graphframe()


def _pid(global_id: int | None) -> int:
    return 0 if global_id is None else (int(global_id) >> 24) & 0xFFFFFF


class _Reader:
    def __init__(self, db: sqlite3.Connection, path: Path, repairs: Repairs, opts: dict[str, Any]):
        self.db, self.path, self.repairs, self.opts = db, path, repairs, opts
        self.found = found = tables(db)
        need(path, found, (KERNEL, STRINGS), WHAT)
        self.name_column = NAMES[opts["kernel_names"]]
        need_columns(db, path, KERNEL, ("start", "end", "deviceId", self.name_column))
        self.strings: dict[int, str] = {}
        for key, value in db.execute(f"SELECT id, value FROM {STRINGS}"):
            self.strings[int(key)] = repairs.name(value, "[empty]")
        self.sites: dict[tuple[Any, ...], Site] = {}
        self.chains = self._chains() if opts["callstacks"] and CALLCHAINS in found else {}
        self.ranges = self._ranges() if opts["nvtx"] and NVTX in found else {}
        # (nvtx names, callchain id, api name ids, kernel name id, pid, device) → [ns, count]
        self.acc: dict[tuple[Any, ...], list[int]] = {}

    def text(self, key: int | None) -> str:
        if key is None:
            self.repairs.add("names that are null, named [no name]")
            return "[no name]"
        found = self.strings.get(int(key))
        if found is None:
            self.repairs.add("string ids not in StringIds, named [string N]")
            return f"[string {key}]"
        return found

    def _chains(self) -> dict[int, tuple[Site, ...]]:
        """Each callchain's frames, outermost first (depth 0 is the innermost)."""
        frames: dict[int, list[tuple[int, Site]]] = defaultdict(list)
        rows = self.db.execute(f"SELECT id, stackDepth, symbol, module FROM {CALLCHAINS}")
        for key, depth, symbol, module in rows:
            site = Site(self.text(symbol), module=self.text(module) if module is not None else None)
            frames[int(key)].append((int(depth), site))
        return {k: tuple(s for _, s in sorted(v, key=lambda f: -f[0])) for k, v in frames.items()}

    def _ranges(self) -> dict[int, list[Range]]:
        """NVTX push/pop and start/end ranges per CPU thread (``globalTid``)."""
        has = columns(self.db, NVTX)
        text = "text" if "text" in has else "NULL"
        text_id = "textId" if "textId" in has else "NULL"
        rows = self.db.execute(
            f"SELECT start, end, globalTid, {text}, {text_id} FROM {NVTX} "
            f"WHERE eventType IN {NVTX_RANGES}"
        )
        named = (
            (s, e, t, (self.repairs.name(w, "") if w else self.text(k) if k else "") or "[range]")
            for s, e, t, w, k in rows
        )
        return per_thread(named, self.repairs)

    def _query(self) -> str:
        k = f"k.rowid, k.start, k.end, k.deviceId, {_or(self, KERNEL, 'globalPid', 'k')}, "
        k += f"k.{self.name_column}"
        if RUNTIME not in self.found:
            return f"SELECT {k}, NULL, NULL, NULL, NULL, NULL FROM {KERNEL} AS k ORDER BY k.rowid"
        need_columns(self.db, self.path, RUNTIME, ("start", "end", "globalTid", "nameId"))
        need_columns(self.db, self.path, RUNTIME, ("correlationId",))
        need_columns(self.db, self.path, KERNEL, ("correlationId",))
        chain = _or(self, RUNTIME, "callchainId", "r")
        same = (
            "(k.globalPid IS NULL OR (r.globalTid >> 24) = (k.globalPid >> 24))"
            if "globalPid" in columns(self.db, KERNEL)
            else "1"
        )
        return (
            f"SELECT {k}, r.start, r.end, r.globalTid, r.nameId, {chain} FROM {KERNEL} AS k "
            f"LEFT JOIN {RUNTIME} AS r ON r.correlationId = k.correlationId AND {same} "
            "ORDER BY k.rowid"
        )

    def check(self) -> None:
        """Refuse a kernel whose start or end is not an integer, or that ends before it starts
        (one scan in SQLite, so the loop over the rows need not test each)."""
        bad = self.db.execute(
            f"SELECT rowid, start, end FROM {KERNEL} WHERE typeof(start) != 'integer' OR "
            "typeof(end) != 'integer' OR end < start OR typeof(deviceId) NOT IN ('integer', "
            "'null') LIMIT 1"
        ).fetchone()
        if bad is not None:
            raise FormatError(
                f"{self.path}: {KERNEL} row {bad[0]} has start {bad[1]!r} and end {bad[2]!r} (or "
                "a deviceId that is not an integer); a kernel has integer start and end (ns), "
                "the end at or after the start"
            )
        checks: list[tuple[str, tuple[str, ...]]] = [(KERNEL, ("globalPid",))]
        if RUNTIME in self.found:
            checks.append((RUNTIME, ("start", "end", "globalTid")))
        for table, wanted in checks:
            have = [c for c in wanted if c in columns(self.db, table)]
            if not have:
                continue
            test = " OR ".join(f"typeof({c}) NOT IN ('integer', 'null')" for c in have)
            found = self.db.execute(f"SELECT rowid FROM {table} WHERE {test} LIMIT 1").fetchone()
            if found is not None:
                raise FormatError(
                    f"{self.path}: {table} row {found[0]} has a {'/'.join(have)} that is not an "
                    "integer; Nsight Systems writes integers (ns, global ids)"
                )

    def walk(self) -> None:
        """Stream the kernels joined with their API calls (a kernel's rows are adjacent: the
        kernel table is the outer loop of the LEFT JOIN, scanned by rowid)."""
        self.check()
        pending: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
        ranges, acc, last, more = self.ranges, self.acc, None, None
        for row in self.db.execute(self._query()):
            if last is not None and row[0] == last[0]:
                more = [last] if more is None else more
                more.append(row)
                continue
            if more is not None:
                self.kernel(more, pending)
            elif last is not None:  # the common case inline: one API call per kernel
                _, start, end, dev, gpid, name, cs, ce, tid, api, chain = last
                if cs is None or ce is None or gpid is None or dev is None:
                    self.kernel([last], pending)
                elif tid in ranges:
                    pending[tid].append((cs, ce, chain, (api,), name, (gpid >> 24) & 0xFFFFFF,
                                         dev, end - start))  # fmt: skip
                else:
                    key = ((), chain, (api,), name, (gpid >> 24) & 0xFFFFFF, dev)
                    cell = acc.get(key)
                    if cell is None:
                        acc[key] = [end - start, 1]
                    else:
                        cell[0] += end - start
                        cell[1] += 1
            last, more = row, None
        if last is None:
            raise FormatError(f"{self.path}: table {KERNEL} holds no kernel; {WHAT} is needed")
        self.kernel([last] if more is None else more, pending)
        for tid, calls in pending.items():
            enclose(ranges[tid], calls, self._count)

    def kernel(self, rows: list[Any], pending: dict[int, list[tuple[Any, ...]]]) -> None:
        """One kernel and the API calls with its correlation id (any number of them)."""
        rowid, start, end, device, gpid, name = rows[0][:6]
        if start is None or end is None or end < start:
            raise FormatError(
                f"{self.path}: {KERNEL} row {rowid} has start {start} and end {end}; a kernel "
                "ends at or after it starts (both are needed)"
            )
        calls = sorted((r for r in rows if r[6] is not None), key=lambda r: (r[6], -(r[7] or 0)))
        pid = _pid(gpid if gpid is not None else (calls[0][8] if calls else None))
        dev = int(device) if device is not None else -1
        if not calls:
            self.repairs.add(
                "kernels whose API call is not in the file, under [launch not in file]"
            )
            self._count(((), None, None, name, pid, dev), end - start)
            return
        chain = next((r[10] for r in calls if r[10] is not None), None)
        apis = tuple(r[9] for r in calls)
        tid, cs, ce = calls[0][8], calls[0][6], calls[0][7]
        if tid in self.ranges and ce is not None:
            pending[tid].append((cs, ce, chain, apis, name, pid, dev, end - start))
        else:
            self._count(((), chain, apis, name, pid, dev), end - start)

    def _count(self, key: tuple[Any, ...], ns: int) -> None:
        cell = self.acc.get(key)
        if cell is None:
            self.acc[key] = [int(ns), 1]
        else:
            cell[0] += int(ns)
            cell[1] += 1

    def site(self, key: int | None, kind: str) -> Site:
        cached = self.sites.get((key, kind))
        if cached is None:
            cached = self.sites[(key, kind)] = Site(self.text(key), type=kind)
        return cached

    def graphframe(self) -> Any:
        self.walk()
        tree = CallTree([Column("time", "exclusive", "ns"), Column("launches", "exclusive")])
        nodes: dict[tuple[Any, ...], int] = {}
        for (*parts, pid, dev), (ns, count) in self.acc.items():
            key = tuple(parts)
            node = nodes.get(key)
            if node is None:
                names, chain, apis, kernel = key
                path = [Site(n, type="region") for n in names]
                if apis is None:
                    path.append(NOT_LAUNCHED)
                else:
                    path += self.chains.get(chain, ()) if chain is not None else ()
                    path += [self.site(a, "function") for a in apis]
                path.append(self.site(kernel, "kernel"))
                node = nodes[key] = tree.path(path)
            tree.add(node, {"time": ns, "launches": count}, rank=pid, thread=dev)
        return tree.graphframe(self.metadata())

    def metadata(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cctviz.format": NAME}
        for table in ("EXPORT_META_DATA", "META_DATA_EXPORT"):
            if table in self.found:
                for (value,) in self.db.execute(
                    f"SELECT value FROM {table} WHERE name = 'EXPORT_PRODUCT_VERSION'"
                ):
                    out["nsys.version"] = str(value)
        if "TARGET_INFO_GPU" in self.found and {"id", "name"} <= columns(
            self.db, "TARGET_INFO_GPU"
        ):
            devices = self.db.execute("SELECT id, name FROM TARGET_INFO_GPU")
            out[DEVICES] = {int(k): self.repairs.name(v, "[no name]") for k, v in devices}
        return {**out, **self.repairs.metadata()}  # last: naming devices may repair too


def _or(reader: _Reader, table: str, column: str, alias: str) -> str:
    """``alias.column`` when ``table`` has the column, else NULL."""
    return f"{alias}.{column}" if column in columns(reader.db, table) else "NULL"


__all__ = ["NAME", "SUFFIXES", "read", "sniff"]
