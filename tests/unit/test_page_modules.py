"""The pages' modules stay apart: each page module (one that puts routes on the blueprint)
imports base.py and the helper modules, never another page module; base.py imports no page
module; and no module of service/web imports inside a function, so that what a module
needs is said at its top and an import cycle cannot hide in a function body."""
from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "service" / "web"
PACKAGE = "service.web"
ROUTES = {"route", "get", "post", "put", "patch", "delete", "add_url_rule"}


def _modules() -> dict[str, ast.Module]:
    """Every module of service/web, parsed, by its name in the package (``__init__`` too)."""
    return {path.stem: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in sorted(WEB.glob("*.py"))}


def defines_routes(tree: ast.Module) -> bool:
    """Does the module put routes on ``bp`` (``@bp.get(...)``, ``@bp.route(...)``, ``bp.add_url_rule``)?"""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ROUTES \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "bp":
            return True
    return False


def imported(node: ast.Import | ast.ImportFrom, names: set[str]) -> set[str]:
    """The modules of service/web (of ``names``) an import statement in one of them imports."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    elif node.level:
        base = PACKAGE.rsplit(".", node.level - 1)[0] if node.level > 1 else PACKAGE
        module = f"{base}.{node.module}" if node.module else base
        targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
    else:
        targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    found = set()
    for target in targets:
        head, _dot, name = target.rpartition(".")
        if head == PACKAGE and name in names:
            found.add(name)
    return found


def imports_in_functions(tree: ast.Module) -> list[int]:
    """The lines of the import statements that sit inside a function (or a method)."""
    return sorted({inner.lineno for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                   for inner in ast.walk(node) if isinstance(inner, (ast.Import, ast.ImportFrom))})


def imports_of(tree: ast.Module, names: set[str]) -> set[str]:
    """Every module of service/web (of ``names``) a module imports, wherever the import is."""
    return {name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
            for name in imported(node, names)}


def page_modules(modules: dict[str, ast.Module]) -> set[str]:
    return {name for name, tree in modules.items() if defines_routes(tree)}


def test_no_module_of_the_pages_imports_inside_a_function():
    inside = {f"service/web/{name}.py": lines for name, tree in _modules().items()
              if (lines := imports_in_functions(tree))}
    assert not inside, f"imports inside a function (move them to the module's top), by line: {inside}"


def test_no_page_module_imports_another_page_module():
    modules = _modules()
    pages = page_modules(modules)
    assert {"admin", "evening", "phone", "sheet"} <= pages  # the scan finds the routes it is about
    crossing = {name: sorted(imports_of(modules[name], pages) - {name}) for name in sorted(pages)}
    crossing = {name: others for name, others in crossing.items() if others}
    assert not crossing, f"page modules importing page modules (share through base.py or a helper): {crossing}"


def test_base_holds_the_blueprint_and_imports_no_page_module():
    modules = _modules()
    assert "base" in modules, "service/web/base.py holds what the page modules share"
    pages = page_modules(modules)
    assert "base" not in pages, "base.py puts no route on the blueprint: the pages are in their own modules"
    assert not imports_of(modules["base"], pages), "base.py imports no page module"
    assert any(isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "bp" for t in node.targets)
               for node in modules["base"].body), "the blueprint bp is base.py's"


def test_the_modules_of_the_pages_import_one_another_without_a_cycle():
    """What each module imports at its top, followed from any module, never comes back to it."""
    modules = _modules()
    names = set(modules) - {"__init__"}
    graph = {name: imports_of(modules[name], names) - {name} for name in names}
    state: dict[str, str] = {}

    def cycle_from(name: str, path: list[str]) -> list[str] | None:
        state[name] = "open"
        for other in sorted(graph[name]):
            if state.get(other) == "open":
                return [*path, name, other]
            if other not in state and (found := cycle_from(other, [*path, name])):
                return found
        state[name] = "done"
        return None

    cycle = next((found for name in sorted(names) if name not in state and (found := cycle_from(name, []))), None)
    assert cycle is None, f"an import cycle among service/web's modules: {' -> '.join(cycle)}"


def test_the_scans_catch_what_the_old_pages_did():
    """The scans above would catch the old tangle: pages.py importing admin inside a function,
    and phone.py importing pages.py's hand page."""
    old_pages = ast.parse("from flask import Blueprint\nbp = Blueprint('web', __name__)\n\n"
                          "@bp.get('/g/<group>')\ndef group_page(group):\n    from .admin import admin_context\n")
    old_phone = ast.parse("from .pages import bp, hand_context\n\n@bp.route('/move', methods=['POST'])\n"
                          "def hand_move():\n    from .pages import hand_page\n")
    old_admin = ast.parse("from . import once, qr\nfrom .pages import bp\n\n@bp.post('/x')\ndef x():\n    pass\n")
    modules = {"pages": old_pages, "phone": old_phone, "admin": old_admin}
    assert page_modules(modules) == {"pages", "phone", "admin"}
    assert imports_in_functions(old_pages) == [6] and imports_in_functions(old_phone) == [5]
    assert imports_of(old_phone, set(modules)) == {"pages"}
    assert imports_of(old_admin, set(modules) | {"once", "qr"}) == {"once", "qr", "pages"}
    assert imports_of(ast.parse("from service.web import phone\nimport service.web.admin\n"), set(modules)) \
        == {"phone", "admin"}
