"""Move cctviz modules to new places and rewrite every import of them.

    python scripts/move_modules.py old.dotted=new.dotted ...   (names relative to ``cctviz``)

A renovation tool, kept for the next one: it moves the files with ``git mv``, rewrites every
``import``/``from … import`` in ``cctviz/`` (relative imports stay relative, computed from the
importing module's new place), and rewrites dotted names (``cctviz.core.table``) and paths
(``cctviz/core/table.py``) in the text of Python, Markdown, notebooks, TOML and JSON files. Run
``ruff format`` afterwards: rewritten imports lose their line breaks.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(
    subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True
    ).stdout.strip()
    or Path(__file__).resolve().parent.parent
)
"""The checkout to work on: the one the command runs in (a worktree has its own)."""
TEXT_DIRS = ("cctviz", "tests", "benchmarks", "scripts", "docs", "notebooks")
TEXT_FILES = ("README.md", "pyproject.toml")
IMPORT = re.compile(r"\s*(from|import)\s+(\.|cctviz)")
SUFFIXES = {".py", ".md", ".ipynb", ".toml", ".json", ".js", ".mjs", ".txt", ".cfg"}


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def resolve(importer: str, importer_is_package: bool, level: int, module: str | None) -> str:
    """The absolute module a ``from`` import names."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not importer_is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def relative(importer_new: str, importer_is_package: bool, target: str) -> str:
    """``target`` as a relative name from the importer's new place (absolute outside cctviz)."""
    if not target.startswith("cctviz"):
        return target
    here = importer_new.split(".")
    if not importer_is_package:
        here = here[:-1]
    there = target.split(".")
    common = 0
    while common < min(len(here), len(there)) and here[common] == there[common]:
        common += 1
    dots = "." * (len(here) - common + 1)
    return dots + ".".join(there[common:])


def rewrite_imports(path: Path, moves: dict[str, str], new_module: str) -> str:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    old_module = module_of(path)
    package = is_package(path)
    edits: list[tuple[int, int, int, int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            absolute = resolve(old_module, package, node.level, node.module)
            groups: dict[str, list[str]] = {}
            for alias in node.names:
                full = f"{absolute}.{alias.name}"
                if full in moves:  # a module imported by name from its package
                    new_full = moves[full]
                    parent, _, leaf = new_full.rpartition(".")
                    asname = alias.asname or (alias.name if leaf != alias.name else None)
                    text = leaf + (f" as {asname}" if asname and asname != leaf else "")
                    groups.setdefault(parent, []).append(text)
                else:
                    target = moves.get(absolute, absolute)
                    text = alias.name + (f" as {alias.asname}" if alias.asname else "")
                    groups.setdefault(target, []).append(text)
            unchanged = (
                list(groups) == [absolute] and absolute not in moves and new_module == old_module
            )
            if unchanged:
                continue
            lines = []
            for target, names in groups.items():
                name = relative(new_module, package, target) if node.level else target
                if not node.level and not target.startswith("cctviz"):
                    name = target
                lines.append(f"from {name} import {', '.join(names)}")
            indent = " " * node.col_offset
            edits.append(
                (
                    node.lineno,
                    node.col_offset,
                    node.end_lineno or node.lineno,
                    node.end_col_offset or 0,
                    ("\n" + indent).join(lines),
                )
            )
        elif isinstance(node, ast.Import):
            names = []
            changed = False
            for alias in node.names:
                target = moves.get(alias.name, alias.name)
                changed |= target != alias.name
                names.append(target + (f" as {alias.asname}" if alias.asname else ""))
            if changed:
                edits.append(
                    (
                        node.lineno,
                        node.col_offset,
                        node.end_lineno or node.lineno,
                        node.end_col_offset or 0,
                        "import " + ", ".join(names),
                    )
                )
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line.encode("utf-8")))
    data = source.encode("utf-8")
    for l0, c0, l1, c1, text in sorted(edits, reverse=True):
        start = offsets[l0 - 1] + c0
        end = offsets[l1 - 1] + c1
        data = data[:start] + text.encode("utf-8") + data[end:]
    return data.decode("utf-8")


def shadowed(moves: dict[str, str]) -> set[str]:
    """Moved modules whose name the package also gives to something else (``cctviz.compare``
    is the public function, not the module): in text, only ``cctviz.analysis.compare.name`` is the
    module's."""
    import importlib
    import types

    out = set()
    for old in moves:
        parent, _, leaf = old.rpartition(".")
        value = getattr(importlib.import_module(parent), leaf, None)
        if value is not None and not isinstance(value, types.ModuleType):
            out.add(old)
    return out


SHADOWED: set[str] = set()
LIST_ITEM = re.compile(r"\s*([-*]|\d+\.|>>>|\.\.\.)\s+")
PYTHON_DIRS = ("cctviz", "tests", "benchmarks", "scripts")


def rewrite_text(text: str, moves: dict[str, str]) -> str:
    ordered = sorted(moves, key=len, reverse=True)
    names = [re.escape(m) + (r"(?=\.\w)" if m in SHADOWED else "") for m in ordered]
    dotted = re.compile(r"(?<![\w.])(" + "|".join(names) + r")(?![\w])")
    text = dotted.sub(lambda m: moves[m.group(1)], text)

    def as_path(module: str) -> str:
        return module.replace(".", "/") + ".py"

    paths = {as_path(m): as_path(moves[m]) for m in ordered}
    pattern = re.compile(r"(?<![\w/])(" + "|".join(re.escape(p) for p in paths) + r")")
    text = pattern.sub(lambda m: paths[m.group(1)], text)
    # paths written relative to the package ("ensemble/engine/duckdb_engine.py", "widget/cct.py")
    short = {
        p[len("cctviz/") :]: q[len("cctviz/") :] for p, q in paths.items() if p.count("/") >= 2
    }
    if short:
        pattern = re.compile(r"(?<![\w/])(" + "|".join(re.escape(p) for p in short) + r")")
        text = pattern.sub(lambda m: short[m.group(1)], text)
    return text


def main(argv: list[str]) -> None:
    moves = {}
    for arg in argv:
        old, new = arg.split("=")
        moves["cctviz." + old] = "cctviz." + new
    SHADOWED.update(shadowed(moves))
    files = sorted(
        p for d in TEXT_DIRS for p in (ROOT / d).rglob("*.py") if "node_modules" not in p.parts
    )
    new_text = {}
    for path in files:
        mod = module_of(path)
        new_module = moves.get(mod, mod)
        new_text[path] = rewrite_imports(path, moves, new_module)
    for path, text in new_text.items():
        path.write_text(text, encoding="utf-8")
    for old, new in moves.items():
        src = ROOT / (old.replace(".", "/") + ".py")
        dst = ROOT / (new.replace(".", "/") + ".py")
        dst.parent.mkdir(parents=True, exist_ok=True)
        init = dst.parent / "__init__.py"
        if not init.exists():
            init.write_text(f'"""{dst.parent.name}."""\n', encoding="utf-8")
            subprocess.run(["git", "add", str(init)], cwd=ROOT, check=True)
        subprocess.run(["git", "mv", str(src), str(dst)], cwd=ROOT, check=True)
    targets = [ROOT / f for f in TEXT_FILES]
    for d in TEXT_DIRS:
        targets += [
            p
            for p in (ROOT / d).rglob("*")
            if p.suffix in SUFFIXES
            and p.is_file()
            and "node_modules" not in p.parts
            and "static" not in p.parts
        ]
    for path in targets:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":  # its import statements are rewritten already
            out = "".join(
                line if IMPORT.match(line) else rewrite_text(line, moves)
                for line in text.splitlines(keepends=True)
            )
        else:
            out = rewrite_text(text, moves)
        if out != text:
            path.write_text(out, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "ruff", "check", "--fix", "-q", *PYTHON_DIRS], cwd=ROOT)
    subprocess.run([sys.executable, "-m", "ruff", "format", "-q", *PYTHON_DIRS], cwd=ROOT)
    wrap_long_lines(ROOT)


def wrap_long_lines(root: Path, width: int = 100) -> None:
    """Lines the longer names made too long, in comments and docstrings only (code is ruff
    format's), wrapped with the rest of their paragraph."""
    import io
    import textwrap
    import tokenize

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--select",
            "E501",
            "--output-format",
            "concise",
            *PYTHON_DIRS,
        ],
        cwd=root,
        capture_output=True,
        text=True,
    ).stdout
    hits: dict[str, list[int]] = {}
    for line in out.splitlines():
        m = re.match(r"(.+?):(\d+):\d+: E501", line)
        if m:
            hits.setdefault(m.group(1), []).append(int(m.group(2)))
    for name, numbers in hits.items():
        path = root / name
        source = path.read_text(encoding="utf-8")
        strings: set[int] = set()  # lines inside triple-quoted strings
        comments: set[int] = set()
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.STRING and tok.string.lstrip("rbuRBUfF").startswith(
                ('"""', "'''")
            ):
                strings.update(range(tok.start[0], tok.end[0] + 1))
            elif tok.type == tokenize.COMMENT and source.splitlines()[
                tok.start[0] - 1
            ].lstrip().startswith("#"):
                comments.add(tok.start[0])
        lines = source.split("\n")
        for n in sorted(numbers, reverse=True):
            if n in comments:
                marker = re.match(r"(\s*#:?\s?)", lines[n - 1]).group(1)
                end = n
                while (
                    end < len(lines)
                    and end + 1 in comments
                    and lines[end].startswith(marker)
                    and lines[end][len(marker) :].strip()
                    and not lines[end][len(marker) :].startswith(" ")
                ):
                    end += 1
                words = " ".join(ln[len(marker) :].strip() for ln in lines[n - 1 : end])
                new = textwrap.wrap(
                    words,
                    width,
                    initial_indent=marker,
                    subsequent_indent=marker,
                    break_long_words=False,
                    break_on_hyphens=False,
                )
            elif n in strings:
                first = lines[n - 1]
                indent = re.match(r"\s*", first).group(0)
                item = LIST_ITEM.match(first)
                end = n  # the paragraph: lines[n - 1 : end]
                while (
                    not first.rstrip().endswith('"""') and end < len(lines) and end + 1 in strings
                ):
                    following = lines[end]
                    if not following.strip() or following.strip() == '"""':
                        break
                    if LIST_ITEM.match(following):
                        break
                    end += 1
                    if following.rstrip().endswith('"""'):
                        break
                if end > n:
                    follow = re.match(r"\s*", lines[n]).group(0)
                else:
                    follow = indent + " " * (len(item.group(0)) - len(indent) if item else 0)
                words = " ".join(ln.strip() for ln in lines[n - 1 : end])
                new = textwrap.wrap(
                    words,
                    width,
                    initial_indent=indent,
                    subsequent_indent=follow,
                    break_long_words=False,
                    break_on_hyphens=False,
                )
            else:
                print(f"{name}:{n}: too long, and code: left to ruff format")
                continue
            lines[n - 1 : end] = new
        path.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
