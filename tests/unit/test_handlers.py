"""The handlers stay one per command and apart: every command of service/commands.py has
exactly one handler in the dispatch table (``service.handlers.HANDLERS``), the function that
takes it; and no handler module imports another handler module: what they share comes from
the shared modules (lookups.py, planning.py), which import no handler module either. The
scans read the modules' source (ast), so an import inside a function counts too, and is
refused in itself."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from service import handlers

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "service.handlers"
HANDLERS_DIR = ROOT / "service" / "handlers"
SHARED = {"lookups", "planning"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _modules() -> dict[str, ast.Module]:
    """Every module of service/handlers, parsed, by its name in the package (``__init__`` too)."""
    return {path.stem: _tree(path) for path in sorted(HANDLERS_DIR.glob("*.py"))}


def command_classes() -> set[str]:
    """The classes service/commands.py defines that no handler gives back: the commands."""
    defined = {node.name for node in _tree(ROOT / "service" / "commands.py").body if isinstance(node, ast.ClassDef)}
    return defined - results()


def handler_functions() -> dict[str, list[str]]:
    """Each class a public function of a handler module takes first (its annotation), with the
    functions (``module.name``) that take it."""
    taken: dict[str, list[str]] = {}
    for name, tree in _modules().items():
        if name in SHARED or name == "__init__":
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and node.args.args:
                annotation = node.args.args[0].annotation
                if isinstance(annotation, ast.Name):
                    taken.setdefault(annotation.id, []).append(f"{name}.{node.name}")
    return taken


def results() -> set[str]:
    """The classes the handlers of the dispatch table give back (their return annotations)."""
    wanted = {(fn.__module__.rpartition(".")[2], fn.__name__) for fn in handlers.HANDLERS.values()}
    found = set()
    for name, tree in _modules().items():
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and (name, node.name) in wanted and node.returns is not None:
                found |= {n.id for n in ast.walk(node.returns) if isinstance(n, ast.Name)}
    return found


def imported(node: ast.Import | ast.ImportFrom) -> set[str]:
    """The modules of service/handlers an import statement in one of them imports (the
    package itself as ``__init__``)."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    elif node.level:
        base = PACKAGE.rsplit(".", node.level - 1)[0] if node.level > 1 else PACKAGE
        module = f"{base}.{node.module}" if node.module else base
        targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
    else:
        targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    names = set(_modules())
    found = set()
    for target in targets:
        if target == PACKAGE:
            found.add("__init__")
        head, _dot, name = target.rpartition(".")
        if head == PACKAGE and name in names:
            found.add(name)
    return found


def imports_of(tree: ast.Module) -> set[str]:
    """Every module of service/handlers a module imports, wherever the import is."""
    return {name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
            for name in imported(node)}


def handler_modules() -> set[str]:
    """The modules the dispatch table's handlers are in."""
    return {fn.__module__.rpartition(".")[2] for fn in handlers.HANDLERS.values()}


def test_every_command_has_exactly_one_handler_in_the_dispatch_table():
    commands = command_classes()
    assert {"CreateGroup", "Play", "Correct", "Pay"} <= commands  # the scan finds what it is about
    assert {"GroupCreated", "Credential", "HandMoved", "Recorded"} <= results()
    table = {kind.__name__: fn for kind, fn in handlers.HANDLERS.items()}
    assert set(table) == commands, f"commands without a handler: {sorted(commands - set(table))}; " \
                                   f"handled but no command: {sorted(set(table) - commands)}"
    taken = handler_functions()
    for command, fn in sorted(table.items()):
        assert taken.get(command) == [f"{fn.__module__.rpartition('.')[2]}.{fn.__name__}"], \
            f"{command} is taken by {taken.get(command)}, dispatched to {fn.__module__}.{fn.__name__}"
    handled = list(handlers.HANDLERS.values())
    assert len(set(handled)) == len(handled), "a handler carries out one command"


def test_each_handler_takes_its_command_and_the_writer():
    for kind, fn in handlers.HANDLERS.items():
        node = next(n for n in _modules()[fn.__module__.rpartition(".")[2]].body
                    if isinstance(n, ast.FunctionDef) and n.name == fn.__name__)
        annotations = [ast.unparse(a.annotation) for a in node.args.args if a.annotation is not None]
        assert annotations == [kind.__name__, "Writer"], f"{fn.__name__}({', '.join(annotations)})"


def test_a_command_no_handler_takes_is_refused():
    with pytest.raises(TypeError):
        handlers.handle(object(), None)


def test_no_handler_module_imports_another_handler_module():
    modules = _modules()
    own = handler_modules()
    assert {"groups", "tables", "hands", "verdicts", "money"} <= own and not own & SHARED
    crossing = {name: sorted(imports_of(modules[name]) & own - {name}) for name in sorted(own)}
    crossing = {name: others for name, others in crossing.items() if others}
    assert not crossing, f"handler modules importing handler modules (share through lookups or planning): {crossing}"


def test_the_shared_modules_import_no_handler_module_nor_the_dispatcher():
    modules = _modules()
    for name in sorted(SHARED):
        assert not imports_of(modules[name]) & (handler_modules() | {"__init__"}), name
    assert not imports_of(modules["lookups"]), "lookups.py is the bottom: it imports no other handlers module"


def test_no_module_of_the_handlers_imports_inside_a_function():
    inside = {name: sorted({inner.lineno for node in ast.walk(tree)
                            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                            for inner in ast.walk(node) if isinstance(inner, (ast.Import, ast.ImportFrom))})
              for name, tree in _modules().items()}
    inside = {name: lines for name, lines in inside.items() if lines}
    assert not inside, f"imports inside a function (move them to the module's top), by line: {inside}"


def test_the_scans_catch_a_handler_module_importing_another():
    bad = ast.parse("from . import money\nfrom .hands import play\nfrom service.handlers import verdicts\n"
                    "from ..commands import Pay\nfrom .lookups import group_row\nimport service.handlers.tables\n")
    assert imports_of(bad) == {"money", "hands", "verdicts", "lookups", "tables", "__init__"}
