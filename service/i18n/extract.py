"""A pybabel extractor for the log's sentences (``babel.cfg`` names it ``bitka_log``).

The rules and the ledger write every sentence of the log with ``say(template, **values)``
(events/sentences.py): a refusal's detail, a settlement's explanation, an event in words.
They stay English in the log, so that a hash never depends on who asked; each template
becomes a catalog message whose placeholders are the names its author gave. Only what is
said is extracted: a code, a pack's cards, a field documented for the English OpenAPI
document are not sent to translators. ``phrases`` matches a logged sentence against these
templates to say it again in another language.

Whose sentence it is: a template written in a game's package (``games/<game>/``) is that
game's own, in the context ``log:<game>``, so that two games writing the same English each
have their translation (their players' terms differ); the engine's, the ledger's and the
service's are shared, in the context ``log``.

What a placeholder holds is declared by the template, not guessed from its name:
``{points:d}`` holds a whole number (``str.format`` refuses anything else, so the
declaration is checked each time the sentence is said), ``{points}`` holds words (which may
be a number). ``kinds`` reads the declarations; ``catalogs check`` refuses a template that
declares a placeholder two ways or with another format.
"""
from __future__ import annotations

import ast
import string
from pathlib import Path
from typing import Iterator

CONTEXT = "log"
SAY = "say"
HEARD = "heard"  # a template marked as it is, said where the log's sentences take it as a value
NUMBER = "d"  # the one format a placeholder may declare: a whole number
ROOT = Path(__file__).resolve().parents[2]
_GAMES = "games"
_SHARED = frozenset({"engine"})  # the package of games/ whose sentences every game says


def is_log(context: str | None) -> bool:
    """Whether a catalog message of ``context`` is a sentence of the log (shared or a game's)."""
    return context == CONTEXT or bool(context and context.startswith(CONTEXT + ":"))


def owner(context: str | None) -> str | None:
    """The game whose sentence a message of the log is (None: a shared one)."""
    return context.partition(":")[2] or None if context else None


def context_of(path: str | Path) -> str:
    """The context of the sentences written in the module at ``path``: ``log:<game>`` in a
    game's package, ``log`` anywhere else (the engine, the registry, the ledger, the service)."""
    parts = Path(path).resolve().relative_to(ROOT).parts if Path(path).resolve().is_relative_to(ROOT) else ()
    if len(parts) > 2 and parts[0] == _GAMES and parts[1] not in _SHARED:
        return f"{CONTEXT}:{parts[1]}"
    return CONTEXT


def kinds(template: str) -> dict[str, bool]:
    """Each placeholder of ``template`` and whether it declares a whole number (``{n:d}``).
    ValueError: a placeholder declared two ways, or with another format than ``d``."""
    found: dict[str, bool] = {}
    for _text, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            continue
        if conversion or spec not in ("", NUMBER):
            raise ValueError(f"{{{name}}} in {template!r}: a placeholder is {{{name}}} (words) or "
                             f"{{{name}:{NUMBER}}} (a whole number), nothing else")
        if found.setdefault(name, spec == NUMBER) != (spec == NUMBER):
            raise ValueError(f"{{{name}}} in {template!r} is declared a number once and words once")
    return found


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
    """The pybabel entry point: each sentence as ``pgettext(context, template)``, the
    context its module's (``context_of``)."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    context = context_of(getattr(fileobj, "name", ""))
    for lineno, text in sentences(source):
        yield lineno, "pgettext", (context, text), []
