"""Two frictions of issue 43 on phones in Chromium, with their scripts, against a live
``bitka serve``: a pick refused keeps its ticks (the card the refusal named no longer
offered) and a live refresh does not clear them; a double that would count once with the
double before it is not offered, and the one that counts says what the doubles make."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import call
from tests.e2e.test_browser import browser  # noqa: F401 - the fixture
from tests.e2e.test_phone_calls import _log_cards, _phone, seats_table  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e


def test_a_refused_pick_keeps_its_ticks_through_a_live_refresh(browser, seats_table):  # noqa: F811
    t = seats_table
    _log_cards(t, 0)  # Ala's QC QS AH 10H
    phone = _phone(browser, t["base"], t["members"][1]["token"])
    phone.goto(f"{t['base']}/g/{t['group']}/hands/{t['hand']}")
    for card in ("QC", "AD", "10D", "QD"):  # QC is Ala's
        phone.locator(f'label.pick:has(input[value="{card}"])').click()
    phone.get_by_role("button", name="These are my cards").click()
    phone.locator("#live .problem").wait_for()
    ticked = phone.locator("form.picker input:checked")
    expect(ticked).to_have_count(3)
    assert sorted(ticked.evaluate_all("(inputs) => inputs.map((i) => i.value)")) == ["10D", "AD", "QD"]
    expect(phone.locator('form.picker input[value="QC"]')).to_have_count(0)
    _log_cards(t, 2)  # the log moves: the phone is busy with its ticks, so it says so and keeps them
    expect(phone.locator("#live-news")).not_to_be_empty(timeout=15_000)
    expect(ticked).to_have_count(3)
    phone.locator('label.pick:has(input[value="JC"])').click()
    phone.get_by_role("button", name="These are my cards").click()
    phone.get_by_role("heading", name="Your cards, Bożena").wait_for()
    expect(phone.locator("form.picker")).to_have_count(0)


def test_only_a_double_that_counts_is_offered_saying_what_it_makes(browser, seats_table):  # noqa: F811
    t = seats_table
    for seat in range(4):
        _log_cards(t, seat)
    for seat, bid in ((1, "zolo"), (2, "kontra")):  # Bożena alone against three; Cyprian doubles
        st, body = call(t["base"], "POST", f"/v1/groups/{t['group']}/hands/{t['hand']}/bids",
                        {"seat": seat, "call": bid}, t["members"][seat]["token"])
        assert st == 201, body
    address = f"{t['base']}/g/{t['group']}/hands/{t['hand']}"
    dorota, bozena = (_phone(browser, t["base"], t["members"][s]["token"]) for s in (3, 1))
    dorota.goto(address)
    bozena.goto(address)
    bozena.get_by_text("Re: you double what this hand pays again; the doubles make ×4").wait_for()
    dorota.get_by_text(r"Zolo-du: you play alone against three").wait_for()
    expect(dorota.locator("details.call")).to_have_count(1)  # Cyprian's partner: no re
    expect(dorota.get_by_text("Re:", exact=False)).to_have_count(0)
