"""Session-wide JupyterLab server and Chromium; a fresh page per test, screenshot on failure."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .lab import Lab, NotebookPage, launch_browser, running_lab, views_drawn

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def lab() -> Iterator[Lab]:
    with running_lab() as server:
        yield server


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_browser(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
        (ARTIFACTS / f"{request.node.name}.page-errors.txt").write_text("\n".join(errors))
    context.close()


@pytest.fixture
def notebook_kernels(lab: Lab) -> Iterator[list[str]]:
    """The notebooks a test opened, whose kernels end with the test (after its page closed and
    a failing test's screenshot was taken: ``open_notebook`` asks for this before ``page``)."""
    opened: list[str] = []
    yield opened
    for name in opened:
        lab.shut_down(name)


@pytest.fixture
def open_notebook(lab: Lab, notebook_kernels: list[str], page: Any, request: pytest.FixtureRequest):
    """Write a notebook of the given cells, open it, run it; return the NotebookPage."""

    def _open(cells: list[str], *, notebook7: bool = False) -> NotebookPage:
        name = lab.write_notebook(
            f"{request.node.name}.ipynb".replace("[", "-").replace("]", ""), cells
        )
        notebook_kernels.append(name)
        notebook = NotebookPage(page, lab, name, notebook7=notebook7).open()
        notebook.run_all()
        views_drawn(page)
        return notebook

    return _open
