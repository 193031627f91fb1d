"""What a member typed (a reason, a name) inside the ledger's sentences, kept as typed.

The audit trail writes its sentences in English with what members typed inside them
("hand voided: misdeal", "seat 1 (Ala) leads"). Another language says such a sentence again
from the catalog's templates, and a page puts names for seats; neither may read typed text
as the rules' words: a reason that looks like a clause of the rules would be translated,
and a long one made each reading cost minutes. So while a sentence is on its way to be said,
each typed value stands between the Unicode isolates U+2068 and U+2069, which no typed text
holds (the schemas refuse them in names and reasons). ``set_aside`` puts a token of three
characters in the place of each (no rule reads it), ``restored`` puts the text back as it
was typed, and ``plain`` drops the marks where the sentence is shown as it is.

Example::

    >>> marked = f"hand voided: {typed('a; then they draw: 2C')}"
    >>> shown, kept = set_aside(marked)
    >>> shown == "hand voided: \\u2068\\ue000\\u2069", kept
    (True, ('a; then they draw: 2C',))
    >>> restored(shown, kept) == plain(marked) == "hand voided: a; then they draw: 2C"
    True
"""
from __future__ import annotations

import re

OPEN, CLOSE = "\u2068", "\u2069"  # FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE
_PIECE = re.compile(f"{OPEN}([^{OPEN}{CLOSE}]*){CLOSE}|[{OPEN}{CLOSE}]")  # a typed value, or a mark alone
_TOKEN = re.compile(f"{OPEN}([\ue000-\uf8ff]){CLOSE}")  # a character of the Private Use Area: no rule writes one
_FIRST, _LAST = 0xE000, 0xF8FF


def typed(text: str) -> str:
    """``text`` marked as a member's, to be shown as typed in every language."""
    return f"{OPEN}{text}{CLOSE}"


def plain(text: str) -> str:
    """``text`` without the marks (what is shown where nothing is said again)."""
    return text.replace(OPEN, "").replace(CLOSE, "")


def set_aside(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` with each typed value replaced by a token, and the values in their order; a
    mark alone is dropped. Past the tokens there are (6,400, far more than any sentence
    holds), a value stays in the text unmarked."""
    kept: list[str] = []

    def token(match: re.Match) -> str:
        value = match.group(1)
        if value is None:
            return ""
        if _FIRST + len(kept) > _LAST:
            return value
        kept.append(value)
        return f"{OPEN}{chr(_FIRST + len(kept) - 1)}{CLOSE}"
    return _PIECE.sub(token, text), tuple(kept)


def restored(text: str, kept: tuple[str, ...], marked: bool = False) -> str:
    """``text`` with each token put back as the value it stands for (``marked``: still
    marked as typed, for another reader to set aside again), and no other mark left."""
    out = []
    for i, piece in enumerate(_TOKEN.split(text)):  # text, token, text, ...: a mark outside a token is dropped
        if i % 2 == 0:
            out.append(plain(piece))
            continue
        n = ord(piece) - _FIRST
        value = kept[n] if n < len(kept) else ""
        out.append(typed(value) if marked else value)
    return "".join(out)
