"""The catalogs stay true to the code: every string a page shows is marked for translation,
messages.pot holds exactly what pybabel extracts today, and each language translates every
message with the same placeholders (``python -m service.i18n.catalogs check``)."""
from __future__ import annotations

import ast
import html
import re
from pathlib import Path

from jinja2 import Environment

from service.i18n import catalogs

WEB = Path(__file__).resolve().parents[2] / "service" / "web"
_TAG = re.compile(r"<!--.*?-->|<[^>]*>", re.DOTALL)
_WORDS = re.compile(r"[^\W\d_]{2,}")
# Words a page shows as they are in every language: the product, the games' names.
UNTRANSLATED = {"bitka", "Kop", "Baśka", "Scopa", "Bisca"}
# Card codes (A♠, 10H) and attributes a macro writes outside a tag (aria-invalid="true"): not words.
_NOT_WORDS = re.compile(r'(?<!\w)(?:10|[2-9AKQJT])[CSHD♠♣♥♦](?!\w)|[\w-]+="[^"]*"?|[\w-]*"')
# Attributes whose text a person reads (or hears, with a screen reader).
_READ_ATTRIBUTES = re.compile(r"""\b(?:aria-label|placeholder|title|alt|aria-description)=(["'])([^"'\0]*?)\1""")


def test_the_catalogs_hold_every_message_and_translate_each_with_its_placeholders():
    wrong = catalogs.check()
    assert not wrong, "\n".join(wrong[:40]) + f"\n({len(wrong)} in all)"


def _template_text(source: str) -> list[str]:
    """The text of a template outside its tags and expressions: what a page shows as written.
    Each expression, tag or {% trans %} block is a break (NUL) in the text, so a tag cut by
    an expression (``<a href="{{ url }}">``) is still one tag."""
    env = Environment(extensions=["jinja2.ext.i18n"])
    pieces, translated, after_block = [], False, False
    for _, kind, value in env.lex(source):
        if kind == "whitespace":
            continue
        if after_block and kind == "name":  # {% trans %} ... {% endtrans %}: a message as a whole
            translated = value == "trans" or (translated and value != "endtrans")
        after_block = kind == "block_begin"
        pieces.append(value if kind == "data" and not translated else "\0")
    page = "".join(pieces)
    found = [attribute for _, attribute in _READ_ATTRIBUTES.findall(page) if _WORDS.search(attribute)]
    for text in html.unescape(_TAG.sub("\0", page)).split("\0"):
        text = _NOT_WORDS.sub(" ", text)
        if [w for w in _WORDS.findall(text) if w not in UNTRANSLATED]:
            found.append(" ".join(text.split()))
    return found


def test_every_template_string_is_marked_for_translation():
    unmarked = {path.name: text for path in sorted((WEB / "templates").glob("*.html"))
                if (text := _template_text(path.read_text(encoding="utf-8")))}
    assert not unmarked, unmarked


def test_the_template_scan_finds_an_unmarked_sentence():
    """The scan above would catch a page string left out of the catalog."""
    assert _template_text("<p>{{ _('Marked') }}</p><h2>Who is up</h2>") == ["Who is up"]
    assert _template_text('<input placeholder="Your name">') == ["Your name"]
    assert _template_text("<p>{{ name }} · bitka</p>") == []
    assert _template_text("<p>{% trans n=3 %}{{ n }} hands{% endtrans %} left</p>") == ["left"]


_GETTEXT = {"_", "gettext", "ngettext", "lazy_gettext", "pgettext", "_l", "lazy_ngettext"}


def _python_strings(source: str) -> list[str]:
    """Sentences in a page module's code that no gettext call wraps (docstrings aside)."""
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in _GETTEXT or name in _NOT_FOR_PEOPLE:
                skip.update(id(inner) for inner in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip or not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if re.search(r"[^\W\d_]{2,}[,.:;]? [^\W\d_]{2,}", node.value) and not _is_code(node.value):
            found.append(node.value)
    return found


# Calls whose strings are for the log, the machine or the operator, not for a page's reader,
# and a game's own words (glossary.term), which are the same in every language.
_NOT_FOR_PEOPLE = {"getLogger", "debug", "info", "warning", "exception", "get", "route", "post", "Blueprint",
                   "execute", "compile", "set_cookie", "delete_cookie", "Response", "redirect", "url_for",
                   "render_template", "Preview", "term"}


def _is_code(text: str) -> bool:
    """SQL, CSS, SVG, a media type, a form field's name: not words for a person."""
    return bool(re.match(r"\s*(<|SELECT|INSERT|[a-z_]+/[a-z+.-]+|font|stroke|fill)", text))


def test_every_page_module_string_is_marked_for_translation():
    unmarked = {path.name: strings for path in sorted(WEB.glob("*.py"))
                if (strings := _python_strings(path.read_text(encoding="utf-8")))}
    assert not unmarked, unmarked
