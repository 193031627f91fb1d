"""Picking up one's cards on a phone (friction 7 of issue 43): a pick refused keeps its ticks,
said in the player's language with the card in names; the card the refusal named is no
longer offered (the phone was told it is not its own), and nothing else is taken away:
what another seat logged is never told by the picker (Bob may hold any card Ala has not
shown him)."""
from __future__ import annotations

import re

import pytest

from games.kop.pack import PACK
from tests.api.test_evening_pages import WESELE_DEAL, _form, _new_hand, _open_table, evening  # noqa: F401 - fixture

SEEN_ALREADY = {"en": "was already seen in this hand", "pl": "była już widziana", "it": "è già stata vista",
                "pt_BR": "já apareceu nesta mão"}


def _picker(page: str) -> tuple[list[str], list[str]]:
    """The cards the phone's picker offers, and those ticked."""
    form = re.search(r'<form[^>]*class="picker".*?</form>', page, re.S).group(0)
    inputs = re.findall(r'<input type="checkbox" name="card" value="([^"]+)"([^>]*)>', form)
    return [card for card, _ in inputs], [card for card, rest in inputs if re.search(r"\bchecked\b", rest)]


@pytest.mark.parametrize("language", ["en", "pl", "it", "pt_BR"])
def test_a_refused_pick_keeps_its_ticks_and_drops_only_the_card_it_named(app, evening, language):  # noqa: F811
    admin, group, phones, names = evening
    table = _open_table(admin, group, "kop:0", names)
    hand = _new_hand(phones, group, table)
    move = f"/g/{group}/hands/{hand}/move"
    page = phones[0].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    assert phones[0].http.post(move, data={**_form(page, move), "card": WESELE_DEAL[0]}).status_code == 303
    if language != "en":
        assert phones[1].http.get(f"/language/{language}?next=/").status_code in (302, 303)
    page = phones[1].http.get(f"/g/{group}/hands/{hand}").get_data(as_text=True)
    offered, ticked = _picker(page)
    assert sorted(offered) == sorted(PACK) and ticked == []  # Bob has seen no card: any may be his

    refused = phones[1].http.post(move, data={**_form(page, move), "card": ["QC", "AD", "10D", "QD"]})  # QC is Ala's
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422
    problem = re.search(r'<p class="problem" role="alert">(.*?)</p>', text, re.S).group(1)
    assert "Q♣" in problem and SEEN_ALREADY[language] in problem and "?" not in problem, problem
    offered, ticked = _picker(text)
    assert sorted(ticked) == ["10D", "AD", "QD"], ticked  # still ticked
    assert "QC" not in offered and sorted(offered) == sorted(set(PACK) - {"QC"})  # Ala's others: not told
    again = phones[1].http.post(move, data={**_form(text, move), "card": [*ticked, "JC"]})
    assert again.status_code == 303, again.get_data(as_text=True)
