#!/usr/bin/env bash
# Sets everything up and runs every test: lint and types (JS and Python), vitest in jsdom,
# the wheel check, a benchmark smoke run, pytest against LLNL's llnl-hatchet + llnl-thicket
# (adapter and widget model), and last the full pytest suite against UMD hatchet, including the
# end-to-end tests in a real JupyterLab driven by Playwright + Debian Chromium.
# Any failure, including pytest's exit 5 (no tests collected), fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
# the tests read the real profiles of ../shared/data; without it they fall back to the small
# in-repo copies and skip the rest: here (and in CI) missing shared data is a failure instead
export CCTVIZ_REQUIRE_SHARED=1
# a missing SVG snapshot fails here (js/test/support/snapshot.js writes one only outside CI)
export CI="${CI:-1}"
bash scripts/setup.sh --tests

say() { printf '\n== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }  # with the time since the start

say "JS: lint, types, unit tests (vitest + jsdom)"
npm run --silent lint
npm run --silent typecheck
npm test --silent

say "Python: lint and types"
.venv/bin/ruff check cctviz tests benchmarks
.venv/bin/ruff format --check cctviz tests benchmarks
.venv/bin/mypy

say "wheel ships the built bundle"
rm -rf dist
.venv/bin/python -m pip wheel -q --no-deps --no-build-isolation -w dist .
.venv/bin/python - <<'PY'
import glob, zipfile
wheel = glob.glob("dist/cctviz-*.whl")[0]
names = zipfile.ZipFile(wheel).namelist()
# the bundle once: packed (widgets carry it, figures unpack it), not also plain
assert "cctviz/widget/static/widget.js" not in names, f"{wheel} ships the bundle twice"
for needed in ("cctviz/widget/static/widget-packed.js",
               "cctviz/widget/static/widget-packed.b64",
               "cctviz/widget/static/widget.css",
               "cctviz/examples/data/hatchet+hatchet-LICENSE",
               "cctviz/examples/data/LLNL+thicket-LICENSE",
               "cctviz/examples/data/lulesh-mpi-scaling/343_cores.cali", "cctviz/py.typed",
               "cctviz/examples/data/formats/nsys-cloverleaf-cuda.sqlite",
               "cctviz/examples/data/hpcgroup+pipit-LICENSE"):
    assert needed in names, f"{needed} missing from {wheel}"
print(f"{wheel}: bundle (once), example data and licence present")
PY

say "benchmark smoke run"
.venv/bin/python benchmarks/serialize.py --smoke
.venv/bin/python benchmarks/large.py --smoke
.venv/bin/python benchmarks/export.py --sizes 1000 --repeat 1
.venv/bin/python benchmarks/ensemble.py --smoke
.venv/bin/python benchmarks/engines.py --smoke
.venv/bin/python benchmarks/formats.py --quick

say "pytest with LLNL llnl-hatchet + llnl-thicket (adapter, errors, widget model)"
# (the store's fault tests kill and race processes that use no Hatchet: run once, below)
.venv-llnl/bin/python -m pytest -m "not e2e and not faults and not once" -p no:cacheprovider --durations=15

say "pytest with UMD hatchet (everything, end to end in JupyterLab and the other hosts included)"
.venv/bin/python -m pytest -p no:cacheprovider --durations=30

say "the documentation site, built strictly (the notebooks as the tests above executed them)"
bash scripts/docs.sh
say "done"
