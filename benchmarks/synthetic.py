"""Synthetic trees for the benchmarks: ``cctviz.examples.synthetic`` (one implementation, in
the package so that example notebooks can use it too), and notebook sources that build one."""

from __future__ import annotations

from pathlib import Path

from cctviz.examples._synthetic import graphframe, parents

__all__ = ["graphframe", "notebook_source", "parents"]


def notebook_source(n: int, then: str = "", names: int | None = None) -> str:
    """Notebook cell source that builds ``gf``, a synthetic GraphFrame of ``n`` nodes (``names``
    distinct names, see ``graphframe``), in a kernel started anywhere (it imports this module by
    path), followed by ``then``."""
    here = str(Path(__file__).resolve().parent)
    return (
        f"import sys; sys.path.insert(0, {here!r})\n"
        f"import cctviz, synthetic\ngf = synthetic.graphframe({n}, names={names})\n{then}"
    )
