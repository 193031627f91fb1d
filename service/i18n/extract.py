"""A pybabel extractor for the log's sentences (``babel.cfg`` names it ``bitka_log``).

The rules and the ledger write every sentence of the log with ``say(template, **values)``
(events/sentences.py): a refusal's detail, a settlement's explanation, an event in words.
They stay English in the log, so that a hash never depends on who asked; each template
becomes a catalog message (context ``log``) whose placeholders are the names its author
gave. Only what is said is extracted: a code, a pack's cards, a field documented for the
English OpenAPI document are not sent to translators. ``phrases`` matches a logged sentence
against these templates to say it again in another language.
"""
from __future__ import annotations

import ast
from typing import Iterator

CONTEXT = "log"
SAY = "say"
HEARD = "heard"  # a template marked as it is, said where the log's sentences take it as a value


def said(node: ast.AST) -> ast.Call | None:
    """The call, when ``node`` says a sentence: ``say("...", name=value...)``."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (SAY, HEARD):
        return node
    return None


def template(call: ast.Call) -> str | None:
    """The template a ``say`` call writes; None when it is not one literal string."""
    if len(call.args) == 1 and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def sentences(source: str) -> Iterator[tuple[int, str]]:
    """Every template a module says, with its line."""
    for node in ast.walk(ast.parse(source)):
        call = said(node)
        text = template(call) if call is not None else None
        if text is not None:
            yield node.lineno, text


def extract_log(fileobj, keywords, comment_tags, options):
    """The pybabel entry point: each sentence as ``pgettext("log", template)``."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, text in sentences(source):
        yield lineno, "pgettext", (CONTEXT, text), []
