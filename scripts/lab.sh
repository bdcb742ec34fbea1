#!/usr/bin/env bash
# Sets everything up, then opens JupyterLab on the quickstart notebook (bundled real profile).
# Extra arguments go to `jupyter lab` (e.g. --port 9999).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# the URL it prints opens the quickstart too (on a remote machine that URL is what a user pastes)
args=(--ServerApp.ip=127.0.0.1 --LabApp.default_url=/lab/tree/notebooks/quickstart.ipynb)
[ "$(id -u)" -eq 0 ] && args+=(--allow-root)
exec .venv/bin/jupyter lab "${args[@]}" "$@"
