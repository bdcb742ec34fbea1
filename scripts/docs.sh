#!/usr/bin/env bash
# Builds the documentation site into build/site/ (MkDocs Material, mkdocs.yml), strictly: a
# broken link, a docstring the API reference cannot read or a notebook cell that fails stops it.
# The notebooks are shown executed (scripts/docs_notebooks.py runs those not run since they
# changed). Offline: nothing is downloaded. Open build/site/index.html.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1
.venv/bin/python scripts/docs_notebooks.py
.venv/bin/mkdocs build --strict --quiet
echo "the site: $(pwd)/build/site/index.html"
