"""The import rules of the package layout (README, "A tour of the code").

- ``engine/`` imports nothing from Flask, SQLAlchemy or WTForms, nor from the web part;
- a feature package (``table``, ``play``, ``rules``, ``api``, ``players``) never imports
  another one: features share through the engine or the shared modules (``house_rules``,
  ``groups``, ``requests``, ...);
- a feature's ``forms`` never import its ``services``;
- a feature's ``views`` import the engine only through its public faces (``engine.rules.ruleset``
  and ``engine``), and never commit: services are the only request-path code that
  writes;
- every module of the package (its migrations aside) is under 400 lines, every function
  under 40 lines of code (its docstring aside), and no block is radon's grade D or worse
  (issue "One home per rule", item 5).

Imports are read from the source (every ``import`` statement, at any depth), so an import
inside a function counts as much as one at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
FEATURES = ("table", "play", "rules", "api", "players")
WEB_LIBRARIES = ("flask", "flask_sqlalchemy", "flask_wtf", "flask_migrate", "sqlalchemy", "wtforms")
ENGINE_FACES = {"scorekeeper.engine"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved to absolute names (a
    ``from X import name`` counts as ``X`` and as ``X.name``, which may be a module)."""
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _modules(folder: str = "") -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


def _ids(paths: list[Path]) -> list[str]:
    return [_module_name(p) for p in paths]


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_every_feature_package_exists_with_views() -> None:
    for feature in FEATURES:
        assert (PACKAGE / feature / "views.py").exists(), feature


@pytest.mark.parametrize("path", _modules("engine"), ids=_ids(_modules("engine")))
def test_the_engine_imports_no_web_library_and_no_web_module(path: Path) -> None:
    bad = sorted(
        name
        for name in _imports(path)
        if any(_under(name, lib) for lib in WEB_LIBRARIES)
        or (_under(name, "scorekeeper") and not _under(name, "scorekeeper.engine"))
    )
    assert bad == [], f"{_module_name(path)} imports {bad}"


FEATURE_MODULES = [p for f in FEATURES for p in _modules(f)]


@pytest.mark.parametrize("path", FEATURE_MODULES, ids=_ids(FEATURE_MODULES))
def test_features_do_not_import_each_other(path: Path) -> None:
    own = _module_name(path).split(".")[1]
    others = [f"scorekeeper.{f}" for f in FEATURES if f != own]
    bad = sorted(n for n in _imports(path) if any(_under(n, o) for o in others))
    assert bad == [], f"{_module_name(path)} imports another feature: {bad}"


FORMS = [PACKAGE / f / "forms.py" for f in FEATURES if (PACKAGE / f / "forms.py").exists()]


@pytest.mark.parametrize("path", FORMS, ids=_ids(FORMS))
def test_forms_never_import_services(path: Path) -> None:
    bad = sorted(n for n in _imports(path) if n.endswith(".services") or ".services." in n)
    assert bad == [], f"{_module_name(path)} imports {bad}"


VIEWS = [PACKAGE / f / "views.py" for f in FEATURES]


@pytest.mark.parametrize("path", VIEWS, ids=_ids(VIEWS))
def test_views_use_the_engine_only_through_its_public_faces(path: Path) -> None:
    engine = {n for n in _imports(path) if _under(n, "scorekeeper.engine")}
    bad = sorted(
        n
        for n in engine
        if not any(_under(n, face) for face in ENGINE_FACES) and n != "scorekeeper.engine"
    )
    assert bad == [], f"{_module_name(path)} reaches into the engine: {bad}"


@pytest.mark.parametrize("path", VIEWS, ids=_ids(VIEWS))
def test_views_never_commit(path: Path) -> None:
    assert ".commit(" not in path.read_text(), f"{_module_name(path)} commits"


def test_the_checks_above_see_relative_imports() -> None:
    """The reader resolves ``from ..engine.melds import x`` in a feature module."""
    names = _imports(PACKAGE / "api" / "answers.py")
    assert "scorekeeper.engine.melds" in names
    assert "scorekeeper.house_rules" in names


def _function_lengths(path: Path) -> list[tuple[str, int]]:
    """Each function of ``path`` with its length in lines, its docstring left out."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                length -= (first.end_lineno or first.lineno) - first.lineno + 1
            found.append((node.name, length))
    return found


SIZED = [p for p in _modules() if "migrations" not in p.parts]


@pytest.mark.parametrize("path", SIZED, ids=_ids(SIZED))
def test_modules_are_under_400_lines_and_functions_under_40(path: Path) -> None:
    assert len(path.read_text().splitlines()) < 400
    assert [(name, n) for name, n in _function_lengths(path) if n > 40] == []


def test_no_block_is_radon_grade_d_or_worse() -> None:
    from radon.complexity import cc_rank, cc_visit

    graded = [
        (_module_name(path), block.name, cc_rank(block.complexity))
        for path in SIZED
        for block in cc_visit(path.read_text())
        if cc_rank(block.complexity) >= "D"
    ]
    assert graded == []


def test_the_size_checks_see_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(41))
    long = tmp_path / "long.py"
    long.write_text(f'def long() -> None:\n    """Doc."""\n{body}\n')
    assert _function_lengths(long) == [("long", 42)]  # the def line and 41 of code
