"""Modules import at their top: no import inside a function, where it would hide a cycle
(the design keeps its modules in one direction: games <- events <- projections <- service).
The one kind allowed is prometheus_client's, in service/metrics.py and service/health.py:
it chooses single- or multi-process counting from PROMETHEUS_MULTIPROC_DIR when it is
first imported, which gunicorn's server sets after bitka's modules are loaded. The command
line (cli/) loads the service only in the commands that need it, so that `bitka --help` and
the offline checks start fast."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ("games", "events", "projections", "service")
LATE_ON_PURPOSE = {"prometheus_client", "prometheus_client.core"}


def _imports_in_functions(source: str, name: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import):
                    names = [a.name for a in inner.names]
                elif isinstance(inner, ast.ImportFrom):
                    names = ["." * inner.level + (inner.module or "")]
                else:
                    continue
                late = [n for n in names if n not in LATE_ON_PURPOSE]
                if late:
                    found.append(f"{name}:{inner.lineno} in {node.name}: {', '.join(late)}")
    return found


def test_no_module_imports_inside_a_function():
    found = [line for top in CHECKED for path in sorted((ROOT / top).rglob("*.py"))
             for line in _imports_in_functions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, "\n".join(found)


def test_the_check_sees_an_import_inside_a_function_and_lets_prometheus_be_late():
    source = ("from . import base\n"
              "def page():\n    from . import pages\n    return pages\n"
              "def scrape():\n    from prometheus_client import generate_latest\n    return generate_latest\n")
    assert _imports_in_functions(source, "late.py") == ["late.py:3 in page: ."]
