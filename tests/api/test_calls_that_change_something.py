"""A phone offers only calls that change something, in words that say what (friction 5 of
issue 43: after Cyprian's kontra his partner was offered "Re: you double what this hand
pays", which counted once with it). The sides are known to every phone in a contract
played alone; in a normal game a phone knows only its own queens, so its double says whom
it depends on. In all four languages: the calls offered, and whom and what they name."""
from __future__ import annotations

import re

from tests.api.test_evening_pages import (WESELE_DEAL, _calls_offered, _deal_by_phones, _form, _new_hand,  # noqa: F401
                                          _open_table, evening)
from tests.conftest import KOP_HANDS

LANGUAGES = ("en", "pl", "it", "pt_BR")


def _call(phone, group: str, hand: str, call: str) -> None:
    move = f"/g/{group}/hands/{hand}/move"
    page = phone.http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    made = phone.http.post(move, data={**_form(page, move), "action": "bid", "call": call})
    assert made.status_code == 303, made.get_data(as_text=True)


def _offered(phone, group: str, hand: str, language: str) -> list[tuple[str, str]]:
    assert phone.http.get(f"/language/{language}?next=/").status_code in (302, 303)
    return _calls_offered(phone.http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True))


def test_a_double_is_offered_only_where_it_counts_and_says_so(app, evening):  # noqa: F811 - the fixture
    admin, group, phones, names = evening
    # Bob plays zolo alone; Cyd, a defender, doubles: Dan and Ala defend with him, and their
    # double would count once with his. Bob's answer counts: the doubles make it x4.
    hand = _new_hand(phones, group, _open_table(admin, group, "kop:0", names))
    _deal_by_phones(phones, group, hand, WESELE_DEAL)
    _call(phones[1], group, hand, "zolo")
    _call(phones[2], group, hand, "kontra")
    for language in LANGUAGES:
        for defender in (0, 2, 3):
            assert [call for _, call in _offered(phones[defender], group, hand, language)] == ["zolo-du"], language
        [(raise_, _), (answer, call)] = _offered(phones[1], group, hand, language)
        assert call == "re" and "×4" in answer, (language, answer)
    said = dict((call, words) for words, call in _offered(phones[1], group, hand, "en"))
    assert said["re"] == "Re: you double what this hand pays again; the doubles make ×4"
    assert said["zolo-du"].endswith("; the doubles called so far no longer count")

    # A normal game: QC with Bob, QS with Dan. Cyd doubles: Ala plays with him, but neither
    # may know it (the queens tell, and they hold none); Bob and Dan neither. Each phone but
    # Cyd's offers the answer, saying it counts only if Cyd plays against it.
    hand = _new_hand(phones, group, _open_table(admin, group, "kop:0", names))
    _deal_by_phones(phones, group, hand, KOP_HANDS)
    _call(phones[2], group, hand, "kontra")
    for language in LANGUAGES:
        assert "re" not in [call for _, call in _offered(phones[2], group, hand, language)]
        for seat in (0, 1, 3):
            answer = dict((call, words) for words, call in _offered(phones[seat], group, hand, language))["re"]
            assert "Cyd" in answer and "kontra" in answer and not re.search(r"\bseat \d", answer), (language, answer)
            assert language == "en" or not re.search(r"\b(you|again|plays|with|against)\b", answer), (language, answer)
    answer = dict((call, words) for words, call in _offered(phones[0], group, hand, "en"))["re"]
    assert answer == ("Re: you double what this hand pays again if Cyd plays against you, and change nothing if "
                      "Cyd plays with you (it counts once with their kontra)")
