"""Runs prog.py in two child processes (for py-spy --subprocesses)."""

import subprocess
import sys

children = [subprocess.Popen([sys.executable, "prog.py"]) for _ in range(2)]
for child in children:
    child.wait()
