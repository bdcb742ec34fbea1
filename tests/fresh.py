"""Python code run in a fresh interpreter, as a user's script or another process would run it:
the tests of what ``import cctviz`` loads, of an installed wheel, and of processes killed or
racing on an ensemble store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_json(code: str, cwd: Path, **env: str) -> Any:
    """Runs ``code`` to its end (``env`` added to the environment); the JSON object it printed
    last. Fails with the end of its stderr when it fails."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def started(code: str, *args: object, **env: str) -> subprocess.Popen[str]:
    """``code`` started with ``args`` as its ``sys.argv[1:]``, its output read as text."""
    return subprocess.Popen(
        [sys.executable, "-c", code, *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )
