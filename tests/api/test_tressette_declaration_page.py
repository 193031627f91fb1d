"""A Tressette phone offers its seat's declaration in the game's words: the button names the
accusa as players say it, in each language, never the API's code "accuse"."""
from __future__ import annotations

import pytest

from tests.api.test_evening_pages import _deal_by_phones, _new_hand, _open_table, evening  # noqa: F401 - the fixture

NAPOLETANA = [["AD", "2D", "3D", "KC", "QC", "JC", "7C", "6C", "5C", "4C"],
              ["AC", "2C", "3C", "KD", "QD", "JD", "7D", "6D", "5D", "4D"],
              ["AH", "2H", "3H", "KH", "QH", "JH", "7H", "6H", "5H", "4H"],
              ["AS", "2S", "3S", "KS", "QS", "JS", "7S", "6S", "5S", "4S"]]


@pytest.mark.parametrize("language, yes, declare", [
    ("en", "Yes, call accusa", "Declare a napoletana of diamonds"),
    ("pl", "Tak, zapowiadam: accusa", "Zamelduj napoletanę karo"),
    ("it", "Sì, chiamo accusa", "napoletana"),
    ("pt_BR", "Sim, chamar accusa", "napoletana")])
def test_the_declaration_button_names_the_accusa(app, evening, language, yes, declare):  # noqa: F811 - the fixture
    admin, group, phones, names = evening
    table = _open_table(admin, group, "tressette:2", names)
    hand = _new_hand(phones, group, table)
    _deal_by_phones(phones, group, hand, NAPOLETANA)
    if language != "en":
        assert phones[0].http.get(f"/language/{language}?next=/").status_code in (302, 303)
    page = phones[0].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    calls = page[page.index('class="my-calls"'):]
    calls = calls[:calls.index("</section>")]
    assert yes in calls and declare in calls, calls
    assert "call accuse" not in calls and ": accuse" not in calls and " accuse<" not in calls
