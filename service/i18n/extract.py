"""A pybabel extractor for the log's sentences (``babel.cfg`` names it ``bitka_log``).

The rules write their sentences as f-strings: a refusal's detail, a settlement's
explanation, an event in words. They stay English in the log, so that a hash never depends
on who asked; each one becomes a catalog message (context ``log``) whose placeholders are
the f-string's fields, named after their expressions. ``phrases`` matches a logged
sentence against these templates to say it again in another language.
"""
from __future__ import annotations

import ast
import re
from typing import Iterator

CONTEXT = "log"
_NOT_A_NAME = re.compile(r"[^0-9A-Za-z]+")


def template(node: ast.AST) -> str | None:
    """The catalog template of a string expression: an f-string's fields become ``{name}``,
    and strings joined with ``+`` join; None for anything that is not text."""
    parts = _parts(node)
    if parts is None:
        return None
    out, names = [], set()
    for part in parts:
        if isinstance(part, str):
            out.append(part.replace("{", "{{").replace("}", "}}"))
            continue
        name = _NOT_A_NAME.sub("_", ast.unparse(_shown(part))).strip("_")[:28].strip("_") or "value"
        if name[0].isdigit():
            name = f"v_{name}"
        unique, n = name, 2
        while unique in names:
            unique, n = f"{name}_{n}", n + 1
        names.add(unique)
        out.append("{" + unique + "}")
    text = "".join(out)
    return text if _is_sentence(text) else None


def _shown(value: ast.AST) -> ast.AST:
    """The expression a field shows: a member's text marked ``typed(...)`` (projections/typed.py)
    is named by what it marks, so marking it leaves the message as it was."""
    if (isinstance(value, ast.Call) and getattr(value.func, "id", None) == "typed" and len(value.args) == 1
            and not value.keywords):
        return value.args[0]
    return value


def _parts(node: ast.AST) -> list | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        parts: list = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(value.value)
            else:
                parts.append(value.value)  # a FormattedValue: its expression
        return parts
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _parts(node.left), _parts(node.right)
        if left is None and right is None:
            return None
        return (left if left is not None else [node.left]) + (right if right is not None else [node.right])
    return None


def _text_nodes(node: ast.AST) -> set[int]:
    """The nodes a template is made of (its text and joins), not the values it shows."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return {id(node)} | _text_nodes(node.left) | _text_nodes(node.right)
    if isinstance(node, ast.JoinedStr):
        return {id(node)} | {id(v) for v in node.values if isinstance(v, ast.Constant)}
    return {id(node)}


def _is_sentence(text: str) -> bool:
    """Words a person reads: two words of letters outside the placeholders, or one beside a
    placeholder ("{who} deals."), and a space; not a key such as ``bonus_points``, nor a
    pattern, nor a seat's or a side's bare name ("seat {n}": the seat is named instead)."""
    if text.startswith(("(?", "^")) or " " not in text:
        return False
    bare = re.sub(r"\{[^{}]*\}", " ", text)
    words = re.findall(r"(?<![\w-])[^\W\d_]{2,}(?![\w-])", bare)
    if len(words) >= 2:
        return True
    return len(words) == 1 and "{" in text and words[0] not in ("seat", "seats", "side")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, (ast.Constant, ast.JoinedStr)):
                found.add(id(first.value))
    return found


# Calls whose text documents the API for client authors (the OpenAPI document), in English.
API_DOCUMENTATION = frozenset({"RuleField", "DealField"})


def _api_documentation(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        name = getattr(node.func, "id", getattr(node.func, "attr", None)) if isinstance(node, ast.Call) else None
        if name in API_DOCUMENTATION:
            found.update(id(inner) for inner in ast.walk(node))
        elif name == "Term":  # a game's own word and its language stay as they are; its meaning is said
            for kept in node.args[:1] + node.args[2:]:
                found.update(id(inner) for inner in ast.walk(kept))
    return found


def sentences(source: str) -> Iterator[tuple[int, str]]:
    """Every sentence a module writes, outermost expression first, with its line."""
    tree = ast.parse(source)
    skip = _docstrings(tree) | _api_documentation(tree)
    taken: set[int] = set()
    for node in ast.walk(tree):
        if id(node) in skip or id(node) in taken:
            continue
        if not isinstance(node, (ast.Constant, ast.JoinedStr, ast.BinOp)):
            continue
        text = template(node)
        if text is None:
            continue
        taken.update(_text_nodes(node))  # a value inside the sentence may be a sentence of its own
        yield node.lineno, text


def extract_log(fileobj, keywords, comment_tags, options):
    """The pybabel entry point: each sentence as ``pgettext("log", template)``."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, text in sentences(source):
        yield lineno, "pgettext", (CONTEXT, text), []
