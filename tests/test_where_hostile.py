"""Issue 53, point 3: ``where`` cannot reach outside the store. A hostile corpus (statements,
table functions, subqueries, comments, a ')' closing the WHERE, huge and deep texts, invisible
characters, pandas' operators, ...) is refused by ``cctviz.ensemble.engine.where.check``, by a real
store's ``Ensemble.where`` and, from the page, by the widget (which refuses any ``where``), with
no file written and no file's content in a message; a forged brush is refused with a short
error; benign conditions pass and select what pandas selects; ``harden`` keeps a DuckDB
connection in its folder."""

from __future__ import annotations

import secrets
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import cctviz

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from cctviz.ensemble.engine.where import FUNCTIONS, WhereError, check, harden

from .test_refusals import refusals, sent
from .where_corpus import EVIL, HOSTILE

COLUMNS = ["profile", "hash", "source", "nodes", "launchdate", "jobsize", "compiler"]
COLUMNS += ["problem_size", "run"]


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A store, a folder that must stay empty and a file whose content no message may hold."""
    root = tmp_path_factory.mktemp("where")
    (root / "loot").mkdir()
    secret = "canary-" + secrets.token_hex(16)
    (root / "canary.txt").write_text(secret + "\n")
    ens = cctviz.examples.ensemble(root / "s.cctviz", 12, 30)
    return {"root": root, "loot": root / "loot", "canary": root / "canary.txt", "secret": secret,
            "ens": ens}  # fmt: skip


def _text(key: str, place: dict[str, Any]) -> str:
    return HOSTILE[key].replace("LOOT", str(place["loot"])).replace("CANARY", str(place["canary"]))


def _written(place: dict[str, Any]) -> list[Path]:
    """The files the cases wrote, removed (the next case starts clean)."""
    written = [p for p in place["root"].rglob("*") if p.name.startswith(("evil", "exported"))]
    written += list(place["loot"].iterdir())
    for path in written:
        shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
    return written


def _nothing_escaped(place: dict[str, Any], message: str) -> None:
    """No file written, no file's content in the message."""
    assert _written(place) == []
    assert place["secret"] not in message


def test_the_corpus_is_large() -> None:
    assert len(HOSTILE) >= 40


@pytest.mark.parametrize("key", HOSTILE)
def test_check_refuses_each_hostile_text(key: str, place: dict[str, Any]) -> None:
    with pytest.raises(WhereError) as refused:
        check(_text(key, place), COLUMNS)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 700
    _nothing_escaped(place, message)


@pytest.mark.parametrize("key", HOSTILE)
def test_the_store_refuses_each_hostile_text(key: str, place: dict[str, Any]) -> None:
    """Ensemble.where runs the same check (it raises before any query of the store)."""
    try:
        with pytest.raises(WhereError) as refused:
            place["ens"].where(_text(key, place))
    finally:
        written = _written(place)
    assert written == []
    assert place["secret"] not in str(refused.value)


@pytest.mark.parametrize("value", [None, 128, b"jobsize >= 128", ["jobsize >= 128"], "", " \n"])
def test_what_is_not_a_condition_is_refused(value: Any) -> None:
    with pytest.raises(WhereError, match="jobsize >= 128"):
        check(value, COLUMNS)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('compiler == "gcc-12"', "a text value is single-quoted: compiler = 'gcc-12'"),
        ("jobsize >= 128 & problem_size == 30", "NOT: jobsize >= 128 AND problem_size = 30"),
        ("~(jobsize >= 128)", "NOT (jobsize >= 128)"),
        ("jbsize >= 128", "does not run: no column 'jbsize'; did you mean jobsize? columns: "),
        ("md5(compiler) = 'x'", "the function md5() is not accepted"),
        ("read_text('/etc/passwd') IS NULL", "the function read_text() is not accepted"),
        ("(SELECT 1) = 1", "a subquery (SELECT ..."),
        ("", "use the ensemble itself (ens)"),
        ("1=1; " + EVIL, "';' (a condition is one expression, not statements) is not accepted"),
    ],
)  # fmt: skip
def test_the_message_says_what_to_write(text: str, said: str) -> None:
    with pytest.raises(WhereError) as refused:
        check(text, COLUMNS)
    assert said in str(refused.value)


BENIGN: dict[str, Callable[[pd.DataFrame], Any]] = {
    "jobsize >= 128": lambda p: p.jobsize >= 128,
    "compiler = 'gcc-12' and problem_size in (20, 30)": lambda p: (
        (p.compiler == "gcc-12") & p.problem_size.isin([20, 30])
    ),
    "compiler == 'gcc-12' and jobsize >= 128": lambda p: (
        (p.compiler == "gcc-12") & (p.jobsize >= 128)
    ),
    "launchdate >= '2025-01-05'": lambda p: p.launchdate >= pd.Timestamp("2025-01-05"),
    "compiler like 'gcc%'": lambda p: p.compiler.str.startswith("gcc"),
    "lower(compiler) = 'gcc-12'": lambda p: p.compiler.str.lower() == "gcc-12",
    "jobsize between 64 and 256": lambda p: p.jobsize.between(64, 256),
    "compiler is not null": lambda p: p.compiler.notna(),
    "not (jobsize = 64)": lambda p: p.jobsize != 64,
    "  JOBSIZE * 2 > 200\n": lambda p: p.jobsize * 2 > 200,
    "launchdate >= TIMESTAMP '2025-01-10' - INTERVAL 3 DAY": lambda p: (
        p.launchdate >= pd.Timestamp("2025-01-07")
    ),
    "launchdate::date = '2025-01-05' or jobsize in (-1, 64)": lambda p: (
        (p.launchdate == pd.Timestamp("2025-01-05")) | (p.jobsize == 64)
    ),
}


@pytest.mark.parametrize("text", BENIGN)
def test_a_benign_condition_passes_and_selects_what_pandas_does(
    text: str, place: dict[str, Any]
) -> None:
    ens = place["ens"]
    assert check(text, ["profile", *map(str, ens.profiles.columns)]) == text.strip()
    profiles = ens.profiles
    expected = set(profiles.index[BENIGN[text](profiles).to_numpy()])
    assert expected  # the synthetic store has such profiles
    assert set(ens.where(text).profiles.index) == expected


def test_the_functions_accepted_are_plain_scalar_functions() -> None:
    import duckdb

    kinds = dict(
        duckdb.connect(":memory:")
        .execute(
            "SELECT function_name, any_value(function_type) FROM duckdb_functions() GROUP BY 1"
        )
        .fetchall()
    )
    assert {f: kinds.get(f) for f in FUNCTIONS} == dict.fromkeys(FUNCTIONS, "scalar")


@pytest.mark.parametrize(
    "text",
    [
        '"figure of merit" > 1',
        "launchdate > DATE '2025-01-05' - INTERVAL 7 DAY",
        "compiler not ilike 'GCC%' or compiler similar to 'gcc.*'",
        "jobsize is distinct from 64 and try_cast(compiler as int) is null",
        "coalesce(compiler, '') || 'x' <> 'x'",
        "round(jobsize / 3, 1) > 2 and jobsize % 2 = 0",
        "year(launchdate) = 2025 and date_trunc('month', launchdate) = DATE '2025-01-01'",
        "strftime(launchdate, '%Y') = '2025' or starts_with(compiler, 'gcc')",
        "regexp_matches(compiler, '^gcc') and contains(compiler, 'cc')",
        "length(trim(compiler)) > 0 and substring(compiler, 1, 3) = 'gcc'",
        "TRUE",
    ],
)
def test_what_docs_where_md_shows_passes(text: str) -> None:
    assert check(text, [*COLUMNS, "figure of merit"]) == text


def test_a_brush_of_a_run_total_lists_many_ids() -> None:
    """The strip's condition for a metric axis lists profile ids: longer than 4,000 characters."""
    listed = ", ".join(f"'synthetic-0-{i:06d}'" for i in range(10_000))
    assert check(f"profile IN ({listed})", COLUMNS).startswith("profile IN (")
    with pytest.raises(WhereError, match="at most 4,000"):
        check(f"profile IN ({listed}) AND " + "jobsize > 1 AND " * 300 + "TRUE", COLUMNS)


# -- from the page ---------------------------------------------------------------------------
FROM_THE_PAGE = [*list(HOSTILE)[::6], "double-quoted", "paren-union"]


@pytest.mark.parametrize("text", [*(HOSTILE[k] for k in FROM_THE_PAGE), "jobsize >= 128", ""])
def test_the_page_cannot_set_where(
    text: str, place: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    w = cctviz.CCT(place["ens"])
    messages = sent(w, monkeypatch)
    w.set_state({"where": text.replace("LOOT", str(place["loot"]))})
    assert w.where == ""
    said = refusals(messages)
    assert len(said) == 1 and said[0].startswith("Python refused where=")
    assert "written by Python only" in said[0]
    assert w.front_end_errors == [f"update: {said[0]}"]
    back = [m["state"] for m in messages if m["method"] == "update"]
    assert back and back[-1]["where"] == ""  # the page's model gets Python's value back
    _nothing_escaped(place, said[0])


def test_the_rest_of_the_update_applies(
    place: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    w = cctviz.CCT(place["ens"])
    w.where = "jobsize >= 128"  # from Python: fine
    messages = sent(w, monkeypatch)
    w.set_state({"where": "", "palette": "magma"})
    assert (w.where, w.palette) == ("jobsize >= 128", "magma")
    assert len(refusals(messages)) == 1
    w.set_state({"where": "1=1", "palette": "nope"})  # both refused, each said
    assert (w.where, w.palette) == ("jobsize >= 128", "magma")
    assert len(refusals(messages)) == 3


BRUSHES = [
    "1=1; " + EVIL,
    ["0; " + EVIL, 1],
    [float("nan"), 1.0],
    [1.0, float("inf")],
    [True, False],
    [10**400, 1],
    [[1], [2]],
    {"low": 1, "high": 2},
    [1, 2, 3],
    list(range(1_000_000)),
    ["x" * 1_000_000, 1],
]


@pytest.mark.parametrize("side", ["x", "y"])
@pytest.mark.parametrize("value", BRUSHES, ids=lambda v: repr(v)[:30])
def test_a_forged_brush_is_refused_briefly(
    side: str, value: Any, place: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    w = cctviz.CCT(place["ens"])
    replies: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: replies.append(content))
    w._on_message(w, {"type": "brush", "id": 1, side: value}, [])
    assert not replies[-1]["ok"] and replies[-1]["error"].startswith(f"brush: {side} is ")
    assert len(replies[-1]["error"]) < 300 and w.where == ""
    _nothing_escaped(place, replies[-1]["error"])


def test_a_brush_is_numbers_only(place: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    w = cctviz.CCT(place["ens"])
    replies: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: replies.append(content))
    forged = {"type": "brush", "id": 1, "where": "1=1; " + EVIL, "x": None, "y": None}
    w._on_message(w, forged, [])  # a field of no use is ignored: the brush is cleared
    assert replies[-1] == {"type": "reply", "id": 1, "ok": True, "where": ""}
    assert w.strip_x == "launchdate"
    w._on_message(w, {"type": "brush", "id": 2, "x": [1e300, 1e301]}, [])
    assert not replies[-1]["ok"] and "past the dates" in replies[-1]["error"]
    _nothing_escaped(place, str(replies))


# -- the second wall -------------------------------------------------------------------------
def test_harden_keeps_duckdb_in_its_folder(tmp_path: Path) -> None:
    import duckdb

    store, outside = tmp_path / "store", tmp_path / "outside"
    store.mkdir(), outside.mkdir()
    pd.DataFrame({"a": [1, 2]}).to_parquet(store / "part.parquet")
    secret = "canary-" + secrets.token_hex(16)
    (outside / "canary.txt").write_text(secret)
    hidden = pd.DataFrame({"s": [secret]})  # noqa: F841 - what a replacement scan would read
    con = duckdb.connect(":memory:")
    harden(con, [str(store)])
    assert con.execute(f"SELECT sum(a) FROM read_parquet('{store}/*.parquet')").fetchall() == [(3,)]
    con.register("small", pd.DataFrame({"b": [5]}))  # the engine's registered tables still work
    assert con.execute("SELECT b FROM small").fetchall() == [(5,)]
    refused = [
        f"SELECT * FROM read_text('{outside}/canary.txt')",
        f"SELECT * FROM read_text('{store}/../outside/canary.txt')",
        f"SELECT * FROM read_csv('{outside}/canary.txt')",
        "SELECT * FROM glob('/etc/*')",
        "SELECT * FROM read_text('/etc/hostname')",
        f"COPY (SELECT 42) TO '{outside}/evil.csv'",
        f"ATTACH '{outside}/evil.db' AS evil",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SELECT * FROM hidden",
        "SET enable_external_access = true",
        "RESET enable_external_access",
        "SET allowed_directories = ['/']",
        "SET temp_directory = '/tmp'",
    ]
    for sql in refused:
        with pytest.raises(duckdb.Error) as error:
            con.execute(sql)
        assert secret not in str(error.value), sql
    assert sorted(p.name for p in outside.iterdir()) == ["canary.txt"]
    [(temp,)] = con.execute("SELECT current_setting('temp_directory')").fetchall()
    assert "cctviz-duckdb-" in temp and not temp.startswith(str(Path.cwd()))
