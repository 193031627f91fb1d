"""Names people read: a member's name as stored (NFC), and the key two names are compared
by, so that a name cannot pass for another's.

"Ala" and "Al\u200ba" (a zero-width space inside), "Zoé" written with a combining accent
and "Zoé" precomposed, or a name wrapped in direction overrides all look alike on a phone:
they have one key. A name with nothing visible in it is no name.
"""
from __future__ import annotations

import unicodedata

_UNSEEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})  # nothing to see alone
_DROPPED = frozenset({"Cc", "Cf"})  # zero-width, bidi controls, BOM: removed before comparing


def stored(name: str) -> str:
    """The name as bitka keeps it: NFC, without spaces around it."""
    return unicodedata.normalize("NFC", name).strip()


def visible(name: str) -> bool:
    """Whether the name shows anything at all."""
    return any(unicodedata.category(ch) not in _UNSEEN for ch in name)


def key(name: str) -> str:
    """What two names are compared by: NFKC, invisible formatting removed, spaces collapsed."""
    folded = unicodedata.normalize("NFKC", name)
    kept = "".join(ch for ch in folded if unicodedata.category(ch) not in _DROPPED)
    return " ".join(kept.split())
