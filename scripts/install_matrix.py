"""What each install line gives in a fresh venv (issue 59): extra × fresh venv × result × time.

Builds the wheel of this checkout, then for each extra makes a new venv (no system site
packages), ``pip install "<wheel>[<extra>]"`` (dependencies from the configured indexes), and
in it reads the LULESH scaling runs into an ensemble and shows it. Prints one table row per
extra: what installed (pandas, Hatchet), whether ``import cctviz``, ``Ensemble.add`` and
``cctviz.CCT(ens)`` worked or what they said, and how long the install and ``import cctviz``
took. Slow (each venv downloads DuckDB, pyarrow, …): run by hand, not by the test suite.

    .venv/bin/python scripts/install_matrix.py                 # the default extras
    .venv/bin/python scripts/install_matrix.py ensemble umd,ensemble
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIP_WHEEL = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
EXTRAS = ("ensemble", "umd,ensemble", "llnl,ensemble")
CALI = ROOT / "cctviz" / "examples" / "data" / "lulesh-mpi-scaling"
# run inside the fresh venv: one JSON line of what happened
PROBE = r"""
import json, sys, tempfile, time, warnings
from importlib import metadata
out = {}
t = time.perf_counter()
import cctviz
out["import_s"] = round(time.perf_counter() - t, 2)
out["modules"] = len(sys.modules)
for dist in ("pandas", "hatchet", "llnl-hatchet", "caliper-reader"):
    try:
        out[dist] = metadata.version(dist)
    except metadata.PackageNotFoundError:
        out[dist] = None
try:
    ens = cctviz.Ensemble(tempfile.mkdtemp() + "/store")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        ens.add(sys.argv[1], progress=False)
    out["add"] = f"{len(ens)} profiles" + "".join(f"; {w.message}" for w in seen)
    try:
        cctviz.CCT(ens)
        out["view"] = "ok"
    except Exception as error:
        out["view"] = f"{type(error).__name__}: {error}"
except Exception as error:
    out["add"] = f"{type(error).__name__}: {error}"
print(json.dumps(out))
"""


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload, no-any-return]


def wheel(into: Path) -> Path:
    done = run([*PIP_WHEEL, "-w", str(into), str(ROOT)])
    if done.returncode != 0:
        raise SystemExit(f"building the wheel failed:\n{done.stderr}")
    return next(into.glob("cctviz-*.whl"))


def one(extra: str, built: Path, scratch: Path) -> dict[str, object]:
    where = scratch / extra.replace(",", "-")
    venv.create(where, with_pip=True, system_site_packages=False)
    python = str(where / "bin" / "python")
    start = time.perf_counter()
    done = run([python, "-m", "pip", "install", "-q", f"{built}[{extra}]"])
    row: dict[str, object] = {"extra": extra, "install_s": round(time.perf_counter() - start)}
    if done.returncode != 0:
        row["install"] = "failed: " + done.stderr.strip().splitlines()[-1]
        return row
    row["install"] = "ok"
    probe = run([python, "-c", PROBE, str(CALI)], cwd=scratch)
    if probe.returncode != 0:
        row["probe"] = "failed: " + probe.stderr.strip().splitlines()[-1]
        return row
    row.update(json.loads(probe.stdout.strip().splitlines()[-1]))
    return row


def main(extras: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="cctviz-install-") as folder:
        scratch = Path(folder)
        built = wheel(scratch / "dist")
        print(f"{built.name}: {built.stat().st_size // 1024} KB")
        print("| extra | fresh venv | pandas | Hatchet | add | CCT(ens) | install | import |")
        print("|---|---|---|---|---|---|---|---|")
        for extra in extras:
            r = one(extra, built, scratch)
            hatchet = r.get("hatchet") or (r.get("llnl-hatchet") and f"llnl {r['llnl-hatchet']}")
            print(
                f"| `cctviz[{extra}]` | {r['install']} | {r.get('pandas')} | {hatchet or '—'} | "
                f"{r.get('add', r.get('probe'))} | {r.get('view', '—')} | {r['install_s']} s | "
                f"{r.get('import_s', '—')} s, {r.get('modules', '—')} modules |",
                flush=True,
            )


if __name__ == "__main__":
    main(sys.argv[1:] or list(EXTRAS))
