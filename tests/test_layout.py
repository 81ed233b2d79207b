"""The import rules of the package layout (docs/architecture.md, "The rooms").

- ``engine/`` imports nothing from Flask, SQLAlchemy or WTForms, nor from the web part;
- the engine lives in rooms, each importing only the rooms below it (:data:`ENGINE_ROOMS`:
  ``cards``, then ``rules/``, then ``melds``/``values``/``wild``, ``scoring/``, ``game/``,
  ``checker/``, ``bots/``); no engine module imports the engine's public face
  (``engine/__init__.py``), and no two engine modules import each other, however
  indirectly;
- a feature package (``table``, ``play``, ``rules``, ``api``, ``players``) never imports
  another one: features share through the engine or the shared modules (``house_rules``,
  ``groups/``, ``live/``, ``hosting/``, ``inputs``, ...);
- a feature's ``forms`` never import its ``services``;
- every module outside the engine and the migrations imports the engine only through
  its public face (``scorekeeper.engine``); only modules named ``services.py`` commit;
  migrations import nothing from the app; the top level holds at most 8 modules, and no
  module is named ``shared_*``;
- a module name has one meaning: no module basename twice in the package (its migrations
  aside), but ``__init__``, ``__main__``, ``views``, ``forms`` and ``services``;
- every function (its docstring aside) is under 40 lines of code, and no block is radon's
  grade D or worse (issue "One home per rule", item 5). Modules are split by meaning, not
  by length.

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
ENGINE = "scorekeeper.engine"
ENGINE_ROOMS = {
    "cards": 0,
    "messages": 0,
    "rules": 1,
    "melds": 2,
    "values": 2,
    "wild": 2,
    "scoring": 3,
    "game": 4,
    "checker": 5,
    "bots": 6,
    "replay": 6,
}
"""Each room of the engine (a module or a folder of ``engine/``) and its layer: a module
imports from its own layer or those below it."""
SHARED_NAMES = {"__init__", "__main__", "views", "forms", "services"}


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


def _face_names() -> set[str]:
    """The names ``engine/__init__.py`` offers (its ``__all__``)."""
    tree = ast.parse((PACKAGE / "engine" / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            return set(ast.literal_eval(node.value))
    return set()


WEB = [p for p in _modules() if "engine" not in p.parts and "migrations" not in p.parts]
"""Every module of the web half (the package but the engine and the migrations)."""


def _past_the_face(imported: set[str]) -> list[str]:
    """The imports that reach into the engine past its public face."""
    face = {ENGINE} | {f"{ENGINE}.{name}" for name in _face_names()}
    return sorted(n for n in imported if _under(n, ENGINE) and n not in face)


@pytest.mark.parametrize("path", WEB, ids=_ids(WEB))
def test_web_code_uses_the_engine_only_through_its_public_face(path: Path) -> None:
    bad = _past_the_face(_imports(path))
    assert bad == [], f"{_module_name(path)} reaches into the engine: {bad}"


def test_the_face_check_sees_an_import_past_the_face() -> None:
    assert _past_the_face({f"{ENGINE}.melds", f"{ENGINE}.Card", ENGINE}) == [f"{ENGINE}.melds"]


COMMITTING = [p for p in _modules() if "migrations" not in p.parts]


@pytest.mark.parametrize("path", COMMITTING, ids=_ids(COMMITTING))
def test_only_services_commit(path: Path) -> None:
    """Services are the only code that writes: every ``.commit(`` of the package stands in
    a module named ``services.py``."""
    if path.name != "services.py":
        assert ".commit(" not in path.read_text(), f"{_module_name(path)} commits"


MIGRATIONS = sorted((PACKAGE / "migrations").rglob("*.py"))


def _app_imports(path: Path) -> list[str]:
    """The imports of ``path`` (a migration) that name the app's own code: any absolute
    ``scorekeeper`` import, or any relative one."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and (
            node.level or _under(node.module or "", "scorekeeper")
        ):
            found.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if _under(a.name, "scorekeeper")]
    return found


@pytest.mark.parametrize("path", MIGRATIONS, ids=[p.name for p in MIGRATIONS])
def test_migrations_import_nothing_from_the_app(path: Path) -> None:
    """A migration carries its SQL (or a small frozen copy of what it needs), so an old
    migration never changes meaning when today's code does; data derived with today's
    code is the app's backfill (``hosting/schema.py``, ``BACKFILLS``)."""
    assert _app_imports(path) == []


def test_the_migration_check_sees_an_import_of_the_app(tmp_path: Path) -> None:
    migration = tmp_path / "m.py"
    migration.write_text("def upgrade():\n    from scorekeeper.groups.facts import store_facts\n")
    assert _app_imports(migration) == ["scorekeeper.groups.facts"]


def test_the_top_level_holds_at_most_eight_modules_and_no_shared_prefix() -> None:
    """The package's top level is no drawer: its modules are at most 8, the rest lives in
    rooms (packages); no module is named ``shared_*`` (a folder says what is shared)."""
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 8, top
    assert [p for p in _modules() if p.name.startswith("shared_")] == []


def test_the_checks_above_see_relative_imports() -> None:
    """The reader resolves ``from ..engine import x`` in a feature module."""
    names = _imports(PACKAGE / "api" / "answers.py")
    assert "scorekeeper.engine.check_meld" in names
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
def test_functions_are_under_40_lines(path: Path) -> None:
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


ENGINE_MODULES = [p for p in _modules("engine") if p != PACKAGE / "engine" / "__init__.py"]


def _room(name: str) -> str:
    """The room of an engine module or of a name inside it: the first part after
    ``scorekeeper.engine`` (``scorekeeper.engine.game.state.GameState`` -> ``game``)."""
    return name.removeprefix(ENGINE + ".").split(".")[0]


def _layer_breaches(module: str, imported: set[str]) -> list[str]:
    """The imports of engine ``module`` that break the rooms' order: the public face, or a
    room of a higher layer than the module's own."""
    own = ENGINE_ROOMS[_room(module)]
    return sorted(
        name
        for name in imported
        if name == ENGINE or (_under(name, ENGINE) and ENGINE_ROOMS[_room(name)] > own)
    )


def test_every_room_of_the_engine_has_a_layer() -> None:
    rooms = {
        p.stem if p.suffix == ".py" else p.name
        for p in (PACKAGE / "engine").iterdir()
        if p.name != "__init__.py" and (p.suffix == ".py" or (p / "__init__.py").exists())
    }
    assert rooms == set(ENGINE_ROOMS)


@pytest.mark.parametrize("path", ENGINE_MODULES, ids=_ids(ENGINE_MODULES))
def test_the_engine_imports_only_the_rooms_below(path: Path) -> None:
    module = _module_name(path)
    assert _layer_breaches(module, _imports(path)) == [], f"{module} imports a higher room"


def test_the_layer_check_sees_a_higher_room_and_the_face() -> None:
    melds = f"{ENGINE}.melds"
    assert _layer_breaches(melds, {f"{ENGINE}.game.state", f"{ENGINE}.cards.Card"}) == [
        f"{ENGINE}.game.state"
    ]
    assert _layer_breaches(f"{ENGINE}.bots.why", {ENGINE, f"{ENGINE}.game"}) == [ENGINE]


def _engine_graph() -> dict[str, set[str]]:
    """Each engine module and the engine modules it imports."""
    modules = {_module_name(p) for p in ENGINE_MODULES}
    return {
        _module_name(p): {n for n in _imports(p) if n in modules} - {_module_name(p)}
        for p in ENGINE_MODULES
    }


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (its modules in order), or ``[]`` when none."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str]:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return []
        for nxt in sorted(graph.get(node, ())):
            if found := visit(nxt, [*path, node]):
                return found
        done.add(node)
        return []

    for start in sorted(graph):
        if found := visit(start, []):
            return found
    return []


def test_no_import_cycle_inside_the_engine() -> None:
    """Inside a room too, imports run one way (rules: options, then ruleset, then
    dealers_joker)."""
    assert _cycle(_engine_graph()) == []


def test_the_cycle_check_sees_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_no_module_name_has_two_meanings() -> None:
    names: dict[str, list[str]] = {}
    for path in SIZED:
        names.setdefault(path.stem, []).append(_module_name(path))
    twice = {name: where for name, where in names.items() if len(where) > 1}
    assert {name: where for name, where in twice.items() if name not in SHARED_NAMES} == {}
