"""Words that say the rule as it is (friction 6 of issue 43): a result counts once every
player who pays in it agrees, not once one of them confirms it. The log, a disputed hand,
the admin's setting and the new-group form say so, in all four languages: none of them
says the old rule in any language."""
from __future__ import annotations

import re

from tests.api.test_evening_pages import _hidden, _open_table, evening  # noqa: F401 - the fixture

LANGUAGES = ("en", "pl", "it", "pt_BR")
# The old rule as each language said it (the log; a disputed hand; the admin's setting).
OLD = {
    "en": ("counts once a member who pays in it confirms it", "until a player who pays in it confirms it",
           "Once a player who pays in it confirms it"),
    "pl": ("gdy potwierdzi je ktoś, kto w nim płaci", "dopóki nie potwierdzi go ktoś, kto w nim płaci",
           "Gdy potwierdzi go ktoś, kto w nim płaci"),
    "it": ("dopo la conferma di un membro che paga", "finché non la conferma un giocatore che paga",
           "Quando lo conferma un giocatore che paga"),
    "pt_BR": ("quando um membro que paga nele confirmar", "até um jogador que paga nela confirmar",
              "Quando um jogador que paga confirmar"),
}
NOW = {  # the setting's words, in each language (the catalogs had them for the new-group form)
    "en": "Once every player who pays in it agrees (recommended)",
    "pl": "Gdy zgodzi się każdy gracz, który w nim płaci (zalecane)",
    "it": "Quando ogni giocatore che ci paga ha dato il suo assenso (consigliato)",
    "pt_BR": "Quando todo jogador que paga nele concordar (recomendado)",
}


def _in(browser, language: str, path: str) -> str:
    assert browser.http.get(f"/language/{language}?next=/").status_code in (302, 303)
    return re.sub(r"\s+", " ", browser.http.get(path).get_data(as_text=True))


def test_every_page_says_every_payer_must_agree(app, evening):  # noqa: F811 - the fixture
    admin, group, phones, names = evening
    table = _open_table(admin, group, "scopa:0", names[:2], entry="scorer")
    sheet = phones[1].http.get(f"/g/{group}/tables/{table}/result").get_data(as_text=True)
    values = {"form_token": _hidden(sheet, "form_token"), "once": _hidden(sheet, "once"), "cards": "1", "coins": "1",
              "primiera": "1", "settebello": "1", "scopas0": "0", "scopas1": "11"}  # Bob's side wins: Ala pays
    shown = phones[1].http.post(f"/g/{group}/tables/{table}/result", data={**values, "confirm": "no"})
    logged = phones[1].http.post(f"/g/{group}/tables/{table}/result", data={
        **values, "confirm": "yes", "previewed": _hidden(shown.get_data(as_text=True), "previewed")})
    hand = f"/g/{group}/hands/{logged.headers['Location'].split('/')[-1]}"
    pages = {language: _in(phones[0], language, hand) for language in LANGUAGES}
    assert "it counts once every player who pays in it confirms it" in pages["en"]  # the log's settlement

    page = phones[0].http.get(hand).get_data(as_text=True)
    disputed = phones[0].http.post(f"{hand}/verdict", data={
        "form_token": _hidden(page, "form_token"), "once": _hidden(page, "once"), "action": "dispute",
        "reason": "Bob took that last trick"})
    assert disputed.status_code == 303, disputed.get_data(as_text=True)
    for language in LANGUAGES:
        pages[language] += _in(phones[1], language, hand)
    assert "It does not count in the balances until every player who pays in it confirms it, or the admin " \
           "corrects it." in pages["en"]

    for language in LANGUAGES:
        settings = _in(admin, language, f"/g/{group}")
        new_group = _in(phones[2], language, "/new")
        assert NOW[language] in settings and NOW[language] in new_group, language
        said = pages[language] + settings + new_group
        for old in OLD[language]:
            assert old not in said, (language, old)
