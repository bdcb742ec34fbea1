"""Writes js/test/data/*.json: node tables of real profiles from ../shared/data, for vitest.

The JS tests cannot run Hatchet; these files carry what cctviz's adapter made of real profiles
(parent, names, metrics with kinds; NaN as null). Run with the UMD venv after adapter changes:

    .venv/bin/python scripts/make_js_fixtures.py
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cctviz import from_graphframe  # noqa: E402
from tests.profiles import readable  # noqa: E402

FIXTURES = {
    # name: (folder, reducer)
    "hpctoolkit-allgather": ("hatchet/hpctoolkit-allgather-database", "sum"),
    "caliper-sw4-cuda": ("hatchet/caliper-sw4-cuda-activity-profile-cali", "mean"),
    "gprof2dot-cpi": ("hatchet/gprof2dot-cpi", "mean"),
    "tau-cpi-mpi": ("hatchet/tau-cpi-mpi", "sum"),
}


def _clean(values) -> list[float | None]:
    return [None if math.isnan(v) else float(v) for v in values]


def main() -> None:
    out = REPO / "js" / "test" / "data"
    out.mkdir(parents=True, exist_ok=True)
    for name, (folder, reducer) in FIXTURES.items():
        profile = next(p for p in readable() if p.folder == folder)
        table = from_graphframe(profile.load(), reducer=reducer)
        doc = {
            "source": f"../shared/data/{folder} (reducer={reducer}); see PROVENANCE.tsv there",
            "parent": table.parent.tolist(),
            "names": [table.name(i) for i in range(table.size)],
            "metrics": {m.name: _clean(m.values) for m in table.metrics.values()},
            "kinds": {m.name: m.kind for m in table.metrics.values()},
            "partners": {m.name: m.partner for m in table.metrics.values() if m.partner},
        }
        (out / f"{name}.json").write_text(json.dumps(doc, separators=(",", ":")))
        print(f"{name}: {table.size} nodes")


if __name__ == "__main__":
    main()
