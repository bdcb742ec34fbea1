"""The Nsight Systems reader (cctviz.adapters.formats.nsys) on exports nsys wrote
(tests/data/formats/nsys/SOURCE.md): kernels under the CPU call path that launched them (NVTX
ranges, CUDA API backtraces, the API calls), per-device totals equal to the SQL sum of
``end - start``, names as StringIds holds them, and hostile databases said, never a wrong
total."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cctviz.adapters.formats import nsys
from cctviz.adapters.formats.source import FormatError, head
from cctviz.adapters.formats.untrusted import REPAIRS, Repairs

from .json_formats import DATA, cut, paths, pins, roots

HERE = DATA / "nsys"
SAXPY, CLOVER = HERE / "saxpy-mpi-cuda.sqlite", HERE / "cloverleaf-cuda.sqlite"
FILES = [SAXPY, CLOVER]
SAXPY_KERNEL = "saxpy(double *, double *, double *, double, int)"
PID = 1 << 24  # globalPid of process 1: (pid << 24)


def sql_totals(path: Path) -> dict[tuple[int, int], int]:
    """(pid, device) → SQL sum(end - start) over the kernel table, independently."""
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT (globalPid >> 24) & 16777215, deviceId, sum(end - start) "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1, 2"
        ).fetchall()
    return {(int(p), int(d)): int(s) for p, d, s in rows}


def per_level(gf: Any, totals: dict[tuple[int, int], int]) -> dict[tuple[Any, ...], float]:
    """The expected roots() keys: only the index levels the GraphFrame has."""
    names = list(gf.dataframe.index.names)[1:]
    out: dict[tuple[Any, ...], float] = {}
    for (pid, dev), total in totals.items():
        key = tuple(v for n, v in (("rank", pid), ("thread", dev)) if n in names)
        out[key] = out.get(key, 0) + total
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_totals_per_device_are_the_sql_sums(path: Path) -> None:
    gf = nsys.read(path)
    totals = sql_totals(path)
    got = roots(gf, "time (inc)")
    want = per_level(gf, totals)
    assert got.keys() == want.keys()
    for key, value in want.items():
        assert got[key] == pytest.approx(value, rel=1e-9, abs=0)
    assert pins(gf)["time"] == ["exclusive", "time (inc)", "ns"]
    assert nsys.sniff(head(path), path)


def test_saxpy_kernels_sit_under_nvtx_backtrace_and_api_calls() -> None:
    gf = nsys.read(SAXPY)
    found = {p: v for p, v in paths(gf, "time").items() if v}
    assert len(found) == 1
    (path, total), *_ = found.items()
    assert total == 88_573_480
    assert path[0] == "saxpy"  # the NVTX range around the launch
    assert path[1:4] == ("_start", "__libc_start_main", "main")  # the backtrace, outermost first
    assert path[-3:] == ("cudaLaunchKernel", "cudaLaunchKernel_v7000", SAXPY_KERNEL)
    kernels = [n for n in gf.dataframe.index if n.frame["type"] == "kernel"]
    assert [k.frame["name"] for k in kernels] == [SAXPY_KERNEL]
    assert paths(gf, "launches")[path] == 5
    assert gf.metadata["nsys.version"] == "2022.2.1.31"
    assert gf.metadata["cctviz.devices"] == {0: "NVIDIA A100-SXM4-40GB"}


def test_options_drop_nvtx_and_backtraces_and_choose_names() -> None:
    bare = nsys.read(SAXPY, nvtx=False, callstacks=False, kernel_names="short")
    assert {p for p, v in paths(bare, "time").items() if v} == {
        ("cudaLaunchKernel", "cudaLaunchKernel_v7000", "saxpy")
    }
    assert roots(bare, "time (inc)") == roots(nsys.read(SAXPY), "time (inc)")
    clover = nsys.read(CLOVER, kernel_names="short")
    names = {n.frame["name"] for n in clover.dataframe.index if n.frame["type"] == "kernel"}
    assert names == {"par_ranged1d_kernel", "par_ranged2d_kernel", "par_reduce_kernel"}
    demangled = nsys.read(CLOVER)
    long = [n.frame["name"] for n in demangled.dataframe.index if n.frame["type"] == "kernel"]
    assert all(n.startswith("void clover::par_") for n in long) and len(long) > 3
    assert demangled.metadata[REPAIRS] == {}
    assert demangled.metadata["nsys.version"] == "2024.5.1.113"


def test_options_are_checked() -> None:
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['nvtx_ranges'\].*callstacks"):
        nsys.read(SAXPY, nvtx_ranges=False)
    with pytest.raises(ValueError, match="kernel_names='full' is not one of"):
        nsys.read(SAXPY, kernel_names="full")


def test_reading_leaves_the_file_as_it_was() -> None:
    before = hashlib.sha256(SAXPY.read_bytes()).hexdigest()
    nsys.read(SAXPY)
    assert hashlib.sha256(SAXPY.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in HERE.iterdir()) == [
        "SOURCE.md",
        "cloverleaf-cuda.sqlite",
        "saxpy-mpi-cuda.sqlite",
    ]


# hostile and edge-case databases, written here with the exports' column names


def make(
    tmp_path: Path,
    kernels: list[tuple[Any, ...]],
    runtime: list[tuple[Any, ...]] | None = None,
    nvtx: list[tuple[Any, ...]] | None = None,
    strings: dict[int, str] | None = None,
    name: str = "report.sqlite",
) -> Path:
    """kernels: (start, end, deviceId, correlationId, globalPid, nameId); runtime: (start,
    end, globalTid, correlationId, nameId); nvtx: (start, end, globalTid, text)."""
    path = tmp_path / name
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId "
            "INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, "
            "shortName INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid "
            "INTEGER, correlationId INTEGER, nameId INTEGER, callchainId INTEGER);"
            "CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, text TEXT,"
            " globalTid INTEGER, textId INTEGER);"
        )
        names = strings if strings is not None else {1: "k1", 2: "k2", 3: "cudaLaunchKernel"}
        db.executemany("INSERT INTO StringIds VALUES (?, ?)", names.items())
        db.executemany(
            "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(*k, k[5]) for k in kernels],
        )
        db.executemany(
            "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, ?, ?, ?, NULL)", runtime or []
        )
        db.executemany(
            "INSERT INTO NVTX_EVENTS VALUES (?, ?, 59, ?, ?, NULL)",
            [(s, e, text, tid) for s, e, tid, text in nvtx or []],
        )
    return path


def test_processes_are_ranks_devices_threads_and_correlation_ids_stay_in_their_process(
    tmp_path: Path,
) -> None:
    two = 2 << 24
    path = make(
        tmp_path,
        kernels=[(10, 15, 0, 7, PID, 1), (20, 29, 1, 7, two, 2), (30, 31, 1, 8, two, 1)],
        runtime=[(5, 9, PID + 1, 7, 3), (16, 19, two + 3, 7, 3), (25, 26, two + 3, 8, 3)],
    )
    gf = nsys.read(path)
    assert list(gf.dataframe.index.names) == ["node", "rank", "thread"]
    assert roots(gf, "time (inc)") == {(1, 0): 5, (2, 1): 10}
    assert paths(gf, "time") == {("cudaLaunchKernel",): 0, ("cudaLaunchKernel", "k1"): 6,
                                 ("cudaLaunchKernel", "k2"): 9}  # fmt: skip
    assert gf.metadata[REPAIRS] == {}


def test_nvtx_ranges_nest_by_time_on_the_launching_thread(tmp_path: Path) -> None:
    tid, other = PID + 1, PID + 2
    path = make(
        tmp_path,
        kernels=[(50, 60, 0, 1, PID, 1), (80, 90, 0, 2, PID, 1), (95, 99, 0, 3, PID, 2)],
        runtime=[(20, 30, tid, 1, 3), (70, 75, tid, 2, 3), (92, 93, other, 3, 3)],
        # outer holds both calls; inner the first; crossing starts inside outer, ends after it;
        # a range on another thread; a range that ends before it starts (ignored, counted)
        nvtx=[
            (0, 100, tid, "outer"),
            (10, 40, tid, "inner"),
            (65, 200, tid, "crossing"),
            (60, 100, other, "elsewhere"),
            (5, 1, tid, "backwards"),
        ],
    )
    gf = nsys.read(path)
    found = {p: v for p, v in paths(gf, "time").items() if v}
    assert found == {
        ("outer", "inner", "cudaLaunchKernel", "k1"): 10,
        ("outer", "crossing", "cudaLaunchKernel", "k1"): 10,
        ("elsewhere", "cudaLaunchKernel", "k2"): 4,
    }
    assert gf.metadata[REPAIRS] == {"ranges that end before they start, ignored": 1}


def test_missing_launches_and_unknown_strings_are_repaired_and_counted(tmp_path: Path) -> None:
    path = make(
        tmp_path,
        kernels=[(0, 10, 0, 1, PID, 1), (10, 13, 0, 99, PID, 42)],
        runtime=[(0, 1, PID + 1, 1, 77)],
    )
    gf = nsys.read(path)
    assert {p: v for p, v in paths(gf, "time").items() if v} == {
        ("[string 77]", "k1"): 10,
        ("[launch not in file]", "[string 42]"): 3,
    }
    assert gf.metadata[REPAIRS] == {
        "kernels whose API call is not in the file, under [launch not in file]": 1,
        "string ids not in StringIds, named [string N]": 2,
    }
    assert roots(gf, "time (inc)") == {(): 13}


def test_kernels_ending_before_they_start_are_refused(tmp_path: Path) -> None:
    path = make(tmp_path, kernels=[(0, 10, 0, 1, PID, 1), (20, 19, 0, 2, PID, 1)])
    with pytest.raises(FormatError, match=r"KERNEL row 2 has start 20 and end 19"):
        nsys.read(path)
    null = make(tmp_path, kernels=[(5, None, 0, 1, PID, 1)], name="null.sqlite")
    with pytest.raises(FormatError, match="row 1 has start 5 and end None"):
        nsys.read(null)


def test_hostile_files_are_said(tmp_path: Path) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("start,end\n1,2\n")
    assert not nsys.sniff(head(text), text)
    with pytest.raises(FormatError, match=r"not an SQLite database .*Nsight Systems SQLite"):
        nsys.read(text)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE samples (t INTEGER)")
        db.execute("CREATE TABLE StringIds (id INTEGER, value TEXT)")
    with pytest.raises(
        FormatError, match=r"no table CUPTI_ACTIVITY_KIND_KERNEL; it holds StringIds, samples"
    ):
        nsys.read(other)
    assert not nsys.sniff(head(other), other)
    damaged = cut(SAXPY, tmp_path / "cut.sqlite", 0.3)
    with pytest.raises(FormatError, match=r"(cannot be read|no table)"):
        nsys.read(damaged)
    empty = make(tmp_path, kernels=[])
    with pytest.raises(FormatError, match="holds no kernel"):
        nsys.read(empty)
    with sqlite3.connect(empty) as db:
        db.execute("ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN deviceId")
    with pytest.raises(FormatError, match="has no column deviceId"):
        nsys.read(empty)


def test_hostile_names_are_text_of_bounded_length(tmp_path: Path) -> None:
    name = "<script>alert(1)</script>" + "x" * 5000
    path = make(tmp_path, kernels=[(0, 4, 0, 1, PID, 1)], strings={1: name})
    gf = nsys.read(path)
    (kernel,) = [n for n in gf.dataframe.index if n.frame["type"] == "kernel"]
    assert kernel.frame["name"].startswith("<script>") and len(kernel.frame["name"]) == 4097
    assert "names longer than 4096 characters cut" in gf.metadata[REPAIRS]


def test_the_sweep_finds_what_a_brute_force_search_finds() -> None:
    import random

    from cctviz.adapters.formats.ranges import enclose, per_thread

    rng = random.Random(57)
    for _ in range(200):
        rows = []
        for k in range(rng.randrange(0, 12)):
            start = rng.randrange(0, 100)
            rows.append((start, start + rng.randrange(0, 60), 1, f"r{k}"))
        ranges = per_thread(rows, Repairs()).get(1, [])
        calls = []
        for j in range(rng.randrange(1, 30)):
            start = rng.randrange(0, 120)
            calls.append((start, start + rng.randrange(0, 20), j, 1))
        want = {j: tuple(r[2] for r in ranges if r[0] <= s and r[1] >= e) for s, e, j, _ in calls}
        got: dict[int, tuple[str, ...]] = {}

        def note(key: tuple[Any, ...], _: int, got: dict[int, tuple[str, ...]] = got) -> None:
            got[key[1]] = key[0]

        enclose(ranges, list(calls), note)
        assert got == want


def test_values_of_the_wrong_type_are_refused_and_bad_text_replaced(tmp_path: Path) -> None:
    path = make(tmp_path, kernels=[(0, 10, 0, 1, PID, 1)], runtime=[(0, 1, PID + 1, 1, 3)])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE StringIds SET value = CAST(x'6bff31' AS TEXT) WHERE id = 1")
    gf = nsys.read(path)
    assert {n.frame["name"] for n in gf.dataframe.index} == {"cudaLaunchKernel", "k\ufffd1"}
    assert gf.metadata[REPAIRS] == {"texts that were not UTF-8, with U+FFFD for the bad bytes": 1}
    with sqlite3.connect(path) as db:
        db.execute("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET globalTid = 'main'")
    with pytest.raises(FormatError, match="RUNTIME row 1 has a start/end/globalTid that is not"):
        nsys.read(path)
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET globalTid = {PID + 1}")
        db.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'zero'")
    with pytest.raises(FormatError, match=r"KERNEL row 1 has start 'zero' and end 10"):
        nsys.read(path)
