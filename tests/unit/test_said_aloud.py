"""A card a call names aloud (the partner's jack a wesele caller chooses) is no secret in
that call, and only there: the same field name anywhere else is a card like any other,
sealed when hidden (a game that named a view's field "jack" must not leak through it)."""
from __future__ import annotations

from games.engine.seen import cards_in, mask


def test_a_card_named_aloud_in_a_call_stays_in_the_call():
    call = {"seat": 1, "call": "wesele", "jack": "JH"}
    assert mask(call, {"JH"}) == call and cards_in(call) == set()


def test_the_same_name_outside_a_call_is_sealed_like_any_card():
    assert mask({"jack": "AH", "held": ["AH", "KS"]}, {"AH"}) == {"jack": None, "held": [None, "KS"]}
    assert cards_in({"jack": "AH"}) == {"AH"}
    assert mask({"calls": [{"call": "wesele", "jack": "JH"}], "jack": "JH"}, {"JH"}) == \
        {"calls": [{"call": "wesele", "jack": "JH"}], "jack": None}
