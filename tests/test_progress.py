"""Long work says what it is doing once it takes a second, and stops cleanly when interrupted:
building the view of a big profile, changing its reducer, exporting a figure."""

from __future__ import annotations

import io
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ipywidgets.widgets.widget import _instances as open_widgets

import cctviz
from cctviz.core import progress
from cctviz.widget.reducers import STAGES


class Terminal(io.StringIO):
    """stderr as a terminal (progress draws its line only there, outside notebooks)."""

    def isatty(self) -> bool:
        return True


@pytest.fixture(scope="module")
def big() -> Any:
    return cctviz.examples.synthetic(200_000)


def on_terminal(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    """stderr a terminal from here on (in the test: pytest sets its own before each test)."""
    out = Terminal()
    monkeypatch.setattr(sys, "stderr", out)
    return out


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Progress shows from the start (as it does after a second of work)."""
    monkeypatch.setattr(progress, "DELAY", 0.0)


def drawn(out: Terminal) -> list[str]:
    """The lines drawn on the terminal, in order (each redraw starts with a carriage return)."""
    return [line.strip() for line in out.getvalue().replace("\n", "\r").split("\r")]


def stages_shown(out: Terminal, what: str) -> list[str]:
    prefix = f"cctviz: {what} — "
    shown: list[str] = []
    for line in drawn(out):
        if line.startswith(prefix):
            name = line[len(prefix) :].split(":")[0]
            if not shown or shown[-1] != name:
                shown.append(name)
    return shown


def interrupt_in(seconds: float) -> None:
    """A KeyboardInterrupt in ``seconds``, as Ctrl-C or Jupyter's "interrupt kernel" give."""

    def raise_interrupt(*_: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, raise_interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)


@pytest.fixture
def no_timer() -> Iterator[None]:
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)


def interrupted_at(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The work is interrupted when it reaches stage ``name``."""
    report = progress.stage

    def stage(reached: str) -> None:
        report(reached)
        if reached == name:
            raise KeyboardInterrupt

    monkeypatch.setattr(progress, "stage", stage)


def test_a_big_view_says_each_stage_in_order_then_clears_its_line(
    big: Any, at_once: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = on_terminal(monkeypatch)
    cctviz.CCT(big)
    assert stages_shown(terminal, "reading the GraphFrame") == ["starting", *STAGES]
    assert f"{len(STAGES) - 1}/{len(STAGES)} stages" in terminal.getvalue()
    assert drawn(terminal)[-1] == ""  # done: the line is wiped


def test_quick_work_shows_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_terminal(monkeypatch)
    w = cctviz.CCT(cctviz.examples.load("hpctoolkit-cpi"))
    w.reducer = "max"
    w.close()
    assert terminal.getvalue() == ""


def test_a_log_that_is_not_a_terminal_gets_no_line(
    big: Any, at_once: None, capsys: pytest.CaptureFixture[str]
) -> None:
    cctviz.CCT(big)
    assert capsys.readouterr() == ("", "")


def test_an_interrupt_stops_the_building_and_leaves_no_widget(
    big: Any, at_once: None, no_timer: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = on_terminal(monkeypatch)
    before = set(open_widgets)
    interrupt_in(0.05)  # building 200k nodes takes several times that
    with pytest.raises(KeyboardInterrupt):
        cctviz.CCT(big)
    assert set(open_widgets) == before
    last = [line for line in drawn(terminal) if line][-1]
    assert last.startswith("cctviz: reading the GraphFrame — interrupted while "), last
    assert last.split(" while ")[1].split(" (after")[0] in STAGES


def test_an_interrupt_after_the_widget_opened_closes_it(
    big: Any, at_once: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = on_terminal(monkeypatch)
    state = cctviz.CCT(cctviz.examples.load("hpctoolkit-cpi")).view_state
    before = set(open_widgets)
    interrupted_at(monkeypatch, "applying the saved view")
    with pytest.raises(KeyboardInterrupt):
        cctviz.CCT(cctviz.examples.load("hpctoolkit-cpi"), state=state)
    assert set(open_widgets) == before
    assert "interrupted while applying the saved view" in terminal.getvalue()


def test_an_interrupted_reducer_change_keeps_the_view_as_it_was(
    big: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = on_terminal(monkeypatch)
    w = cctviz.CCT(big)
    table, payload = w.table, w._payload
    monkeypatch.setattr(progress, "DELAY", 0.0)
    interrupted_at(monkeypatch, "reducing the metrics")
    with pytest.raises(KeyboardInterrupt):
        w.reducer = "max"
    assert (w.reducer, w.size_reducer) == ("mean", "auto")
    assert w.table is table and w._payload is payload
    assert "combining rows by max — interrupted while reducing the metrics" in terminal.getvalue()
    monkeypatch.undo()
    w.reducer = "max"  # and the next change is made
    assert w.table is not table and w.reducer == "max"


def test_an_interrupted_swap_keeps_the_data_shown(
    big: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = cctviz.examples.load("hpctoolkit-cpi")
    w = cctviz.CCT(small)
    table = w.table
    interrupted_at(monkeypatch, "reading names")
    with pytest.raises(KeyboardInterrupt):
        w.data = big
    assert w.data is small and w.table is table
    monkeypatch.undo()
    w.data = big
    assert w.table.size == 200_000


def chromium_children() -> list[int]:
    """This process's descendants running Chromium or Playwright's driver."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            commands[int(entry.name)] = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])

    def below(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    return [p for p, cmd in commands.items() if below(p) and ("chrom" in cmd or "driver" in cmd)]


def test_an_interrupted_export_stops_chromium(
    tmp_path: Path,
    at_once: None,
    no_timer: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("playwright", reason="figures need Playwright")
    terminal = on_terminal(monkeypatch)
    from cctviz.figure import browser

    ready = browser.Browser._ready

    def slow_start(self: browser.Browser) -> Any:  # on the browser's thread: Chromium is busy
        time.sleep(1.0)
        return ready(self)

    monkeypatch.setattr(browser.Browser, "_ready", slow_start)
    # the figures' Chromium of an earlier test stops: this export starts its own; Chromium that
    # runs for something else in this process (the end-to-end tests' browser) is not the export's
    browser.shared().close()
    earlier = set(chromium_children())
    interrupt_in(0.5)
    with pytest.raises(KeyboardInterrupt):
        cctviz.export(cctviz.examples.load("hpctoolkit-cpi"), tmp_path / "cpi.pdf")
    assert "cctviz: exporting cpi.pdf — interrupted while " in terminal.getvalue()
    assert not (tmp_path / "cpi.pdf").exists()
    deadline = time.monotonic() + 20
    while set(chromium_children()) - earlier and time.monotonic() < deadline:
        time.sleep(0.2)
    assert set(chromium_children()) - earlier == set()
    monkeypatch.undo()  # the next figure starts Chromium again
    cctviz.export(cctviz.examples.load("hpctoolkit-cpi"), tmp_path / "cpi.svg")
    assert (tmp_path / "cpi.svg").read_text().startswith("<?xml")


def test_in_a_notebook_the_line_is_an_output_of_the_running_cell() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cells = [
        "import signal, cctviz\nfrom cctviz.core import progress\n"
        "gf = cctviz.examples.synthetic(200_000)",
        "cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'));",  # quick: no output
        "progress.DELAY = 0.05  # drawn from the progress thread\nw = cctviz.CCT(gf)",
        # the tree walked slowly: the alarm comes in that stage on any machine (a fast one made
        # the 200k-node table before a 0.15 s alarm)
        "import time\nimport cctviz.adapters.graphframe as made\nreal = made.spanning_tree\n"
        "def slow(*args, **kwargs):\n    time.sleep(2)\n    return real(*args, **kwargs)\n"
        "made.spanning_tree = slow\n"
        "def interrupt(*_):\n    raise KeyboardInterrupt\n"
        "signal.signal(signal.SIGALRM, interrupt)\nsignal.setitimer(signal.ITIMER_REAL, 0.3)\n"
        "try:\n    cctviz.CCT(gf)\nexcept KeyboardInterrupt:\n    pass\n"
        "made.spanning_tree = real",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3").execute()
    quick, done, stopped = (c.outputs for c in notebook.cells[1:])
    assert quick == []
    # shown while it ran (a display updated in place), empty once done
    assert [o.output_type for o in done] == ["display_data"]
    assert done[0].data == {}
    assert [o.output_type for o in stopped] == ["display_data"]
    text = stopped[0].data["text/plain"]
    assert text.startswith("cctviz: reading the GraphFrame — interrupted while "), text
    # plain text only: an HTML output would make JupyterLab load MathJax while the work runs
    assert set(stopped[0].data) == {"text/plain"}
    assert "█" not in text and "stages" not in text  # no bar: it is over


def test_the_notebook_line_is_plain_text_with_a_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """The notebook's line is one text/plain output (no HTML: JupyterLab would load MathJax to
    typeset it while the work runs), tqdm's bar growing with the stages done."""
    import IPython.display

    shown: list[dict[str, str]] = []

    class Handle:
        def update(self, bundle: dict[str, str], raw: bool = False) -> None:
            assert raw
            shown.append(bundle)

    monkeypatch.setattr(IPython.display, "display", lambda *a, **k: Handle())
    line = progress.NotebookLine()
    line.show("cctviz: reading the GraphFrame — reading names", 1, 4, 2.0)
    line.show("cctviz: reading the GraphFrame — reading names", 3, 4, 3.0)
    line.end(None)
    assert [set(b) for b in shown] == [{"text/plain"}, {"text/plain"}, set()]
    first, later = shown[0]["text/plain"], shown[1]["text/plain"]
    assert first.startswith("cctviz: reading the GraphFrame — reading names")
    assert "1/4 stages [00:02]" in first and "3/4 stages [00:03]" in later
    assert later.count("█") > first.count("█") > 0
