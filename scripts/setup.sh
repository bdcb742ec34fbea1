#!/usr/bin/env bash
# Sets up a fresh machine for cctviz: Node packages and the JS bundle, the Python venv with UMD
# hatchet (.venv) and, with --tests, Debian's Chromium and a second venv with LLNL's
# llnl-hatchet + llnl-thicket (.venv-llnl). Safe to run again: finished steps are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
[ "${1:-}" = "--tests" ] && with_tests=1

PYTHON=${PYTHON:-python3}
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO="sudo"

say() { printf '\n== %s\n' "$*"; }

apt_install() {
  say "apt-get install $*"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

stamp_of() { sha1sum "$@" | sha1sum | cut -c1-16; }

# pip, without the machine's notes about find-links folders that do not exist
pip_quiet() {
  "$@" 2>&1 | { grep -v "^WARNING: Location .* is ignored" || true; }
  return "${PIPESTATUS[0]}"
}

# --- system packages -------------------------------------------------------------------------
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then apt_install nodejs npm; fi
if ! "$PYTHON" -m venv --help >/dev/null 2>&1; then apt_install python3-venv; fi
if [ "$with_tests" = 1 ] && [ ! -x /usr/bin/chromium ]; then apt_install chromium; fi

# --- front end ---------------------------------------------------------------------------------
stamp="node_modules/.cctviz-$(stamp_of package-lock.json)"
if [ ! -f "$stamp" ]; then
  say "npm ci"
  npm ci --no-audit --no-fund
  touch "$stamp"
fi
say "npm run build"
npm run build --silent

# --- Python environments -----------------------------------------------------------------------
make_venv() { # name lockfile
  local venv=$1 lock=$2
  local stamp="$venv/.cctviz-$(stamp_of "$lock" pyproject.toml)"
  if [ -f "$stamp" ]; then return; fi
  say "Python environment $venv from $lock"
  rm -rf "$venv"
  "$PYTHON" -m venv "$venv"
  pip_quiet "$venv/bin/python" -m pip install -q --upgrade pip
  pip_quiet "$venv/bin/python" -m pip install -q -r "$lock"
  # the bundle is already built above, so the jupyter-builder hook has nothing to do
  pip_quiet "$venv/bin/python" -m pip install -q --no-deps --no-build-isolation -e .
  touch "$stamp"
}

make_venv .venv requirements/umd.txt
if [ "$with_tests" = 1 ]; then make_venv .venv-llnl requirements/llnl.txt; fi
say "set-up done"
