#!/usr/bin/env bash
# Regenerates the Python lock files from requirements/*.in in throw-away venvs.
set -euo pipefail
cd "$(dirname "$0")/.."
for env in umd llnl; do
  tmp=$(mktemp -d)
  python3 -m venv "$tmp/venv"
  "$tmp/venv/bin/pip" install -q --upgrade pip
  "$tmp/venv/bin/pip" install -q -r "requirements/$env.in"
  {
    echo "# Locked from requirements/$env.in by scripts/lock.sh; install with pip install -r."
    "$tmp/venv/bin/pip" freeze --exclude-editable | grep -v '^cctviz'
  } > "requirements/$env.txt"
  rm -rf "$tmp"
done
