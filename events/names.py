"""Names people read: a member's name as stored (NFC), the key two names are compared by,
and what a name looks like (its skeleton), so that a name cannot pass for another's.

"Ala" and "Al\u200ba" (a zero-width space inside), "Zoé" written with a combining accent
and "Zoé" precomposed, or a name wrapped in direction overrides all look alike on a phone:
they have one key. "Ala", "Аla" (a Cyrillic А) and "AIa" (a capital I) look alike too: they
have one skeleton; and a name that mixes Latin letters with Cyrillic or Greek ones is how
one passes for another. A name with nothing visible in it is no name.
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


# Letters of Cyrillic and Greek drawn like a Latin one (after Unicode's confusables, the
# common ones), and the Latin ones drawn alike in many fonts: capital I and small l.
_LOOK_ALIKE = str.maketrans({
    **dict(zip("АВЕЅІЈКМНОРСТУХаеѕіјорсухһԁԛԝӏ", "ABESIJKMHOPCTYXaesijopcyxhdqwl", strict=True)),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαγικνορτυχ", "ABEZHIKMNOPTYXayikvoptux", strict=True)),
    "I": "l", "1": "l", "|": "l", "0": "o",
})
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")  # the alphabets whose letters pass for each other's


def skeleton(name: str) -> str:
    """What a name looks like: its key (above), each letter drawn like a Latin one written
    as that letter, then case set aside. Two names with one skeleton read alike on a phone:
    "Ala" and "Аla" (a Cyrillic А), "Bob" and "ВОВ"."""
    drawn = unicodedata.normalize("NFD", key(name)).translate(_LOOK_ALIKE)
    return unicodedata.normalize("NFC", drawn.casefold())


def mixed_scripts(name: str) -> bool:
    """Whether the name's letters come from more than one of Latin, Cyrillic and Greek (a
    Cyrillic а among Latin letters is how a name passes for another)."""
    found = set()
    for ch in key(name):
        if unicodedata.category(ch).startswith("L"):
            found.update(s for s in _SCRIPTS if unicodedata.name(ch, "").startswith(s))
    return len(found) > 1
