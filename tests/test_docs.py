"""What a reader is told: the README's first code block runs as it is (the profile it reads is
bundled with cctviz); ``help(cctviz.CCT)`` documents every argument."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import cctviz

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_first_code_block_runs_as_it_is() -> None:
    block = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert block is not None
    names: dict[str, object] = {}
    exec(compile(block.group(1), str(README), "exec"), names)
    w = names["w"]
    assert isinstance(w, cctviz.CCT)
    # what its comments say
    assert w.selection == (14,) and w.table.name(14) == "PMPI_Finalize"
    assert (w.color_by, w.reducer) == ("time (inc)", "max")


def test_help_of_cct_documents_every_argument() -> None:
    doc = inspect.getdoc(cctviz.CCT) or ""
    documented = set(re.findall(r"^(\*{0,2}\w+)$", doc, re.M))  # numpydoc: a name on its line
    parameters = inspect.signature(cctviz.CCT.__init__).parameters.values()
    stars = {inspect.Parameter.VAR_KEYWORD: "**", inspect.Parameter.VAR_POSITIONAL: "*"}
    named = {stars.get(p.kind, "") + p.name for p in parameters if p.name != "self"}
    assert named - documented == set()


def test_the_readme_is_short_and_its_links_lead_somewhere() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250  # the rest is the documentation site (docs/)
    links = re.findall(r"\]\(([^)#]+)\)", text)
    local = [link for link in links if "://" not in link]
    assert len(local) >= 20  # the site's pages, the notebooks
    missing = [link for link in local if not (README.parent / link).exists()]
    assert not missing, missing
