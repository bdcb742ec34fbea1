"""``bash scripts/lab.sh`` (the README's first command) opens the quickstart: the URL JupyterLab
prints, which a user on a remote machine pastes, leads to it, not to the Launcher (issue 59)."""

from __future__ import annotations

import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.once  # a JupyterLab server started: once is enough


def test_the_url_jupyterlab_prints_opens_the_quickstart() -> None:
    script = (ROOT / "scripts" / "lab.sh").read_text()
    found = re.search(r"^args=\((.*)\)$", script, re.M)
    assert found is not None, "scripts/lab.sh sets no args=(...)"
    args = shlex.split(found.group(1))
    assert (ROOT / "notebooks" / "quickstart.ipynb").exists()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    lab = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            *args,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert lab.stdout is not None
        for line in lab.stdout:
            if "?token=" in line and "http://" in line:
                url = line.strip().split()[-1]
                break
        else:
            raise AssertionError("JupyterLab printed no URL")
    finally:
        lab.terminate()
        lab.wait(timeout=30)
    assert url.startswith(f"http://127.0.0.1:{port}/lab/tree/notebooks/quickstart.ipynb?token="), (
        url
    )
