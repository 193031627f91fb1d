"""A whole evening in Chromium: four phones (390x844) and the admin's desktop (1280x800)
against a live ``bitka serve``. The admin starts a group and invites four players by link
(no token typed or shown), opens a Kop and a Scopa table; the four phones play a Kop hand
seat by seat with the table updating live on every phone (no reloads), each phone checked
after every card for another's unplayed cards; a Scopa result waits for its payer, who
confirms it; a Kop result is disputed and the admin corrects it, and its payers confirm the
correction; the settle-up transfers are marked paid, and each receiver says they got the
money. Every member's word is signed by the key their phone made as it joined. Then the
store is rewritten behind the server's back, and every phone that had visited says so on its
next visit. Every page passes axe-core and is photographed at 390 and 1280 px."""
from __future__ import annotations

import re

import pytest

from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.e2e.conftest import arrive, start_server, stop_server
from tests.e2e.test_browser import ARTIFACTS, _accessible, _words, browser  # noqa: F401 - the fixture
from tests.tampering import rewrite_log

pytestmark = pytest.mark.e2e
NAMES = ["Ala", "Bożena", "Cyprian", "Dorota"]
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}


@pytest.fixture
def server(tmp_path):
    db = tmp_path / "evening.db"
    proc, base = start_server(db, tmp_path)
    yield base, db
    stop_server(proc)


def _both(phone, desk, name: str) -> None:
    """axe-core and a screenshot of the page a phone shows, at 390 px and at 1280 px."""
    _accessible(phone, f"evening-{name}-390")
    arrive(desk, phone.url)
    _accessible(desk, f"evening-{name}-1280")


_SEEN = """() => {
    const shown = document.querySelector('main');
    if (!shown) return null;
    const main = shown.cloneNode(true);
    main.querySelectorAll('form.picker').forEach((f) => f.remove());
    const labels = [...main.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'));
    return main.innerText + '\\n' + labels.join('\\n');
}"""


def _seen_text(page) -> str:
    """What a phone shows of cards: its text and every label, leaving out the pack a phone
    picks its own cards from (every card it cannot see, all alike). A phone that has just
    tapped is loading its next page: it is read once that page is there."""
    while True:
        page.wait_for_load_state()
        page.locator("main").wait_for()
        try:
            text = page.evaluate(_SEEN)
        except Exception as e:  # playwright's Error: the page moved on while it was read
            if "context was destroyed" not in str(e) and "navigat" not in str(e):
                raise
            continue
        if text is not None:
            return text


def _no_peeking(phones, played: set[str]) -> None:
    for seat, page in enumerate(phones):
        text = _seen_text(page)
        for other, cards in enumerate(KOP_HANDS):
            for card in cards:
                if other != seat and card not in played:
                    assert _words(card) not in text, f"{NAMES[seat]}'s phone shows {NAMES[other]}'s {card}"


def _pick(page, cards) -> None:
    for card in cards:
        page.locator(f'label.pick:has(input[value="{card}"])').click()


def test_a_whole_evening_on_four_phones_and_a_desktop(browser, server):  # noqa: F811 - the fixture
    base, db = server
    desk = browser.new_context(viewport=DESKTOP).new_page()
    shots = desk  # the same pages at 1280, as the admin sees them
    phones = [browser.new_context(viewport=PHONE).new_page() for _ in NAMES]

    # Start: the group, the admin signed in at once and handed a link to keep.
    arrive(desk, base + "/")
    _accessible(desk, "evening-01-start-1280")
    desk.get_by_role("link", name="Start a new group").click()
    _accessible(desk, "evening-01b-new-group-1280")
    desk.get_by_label("The group's name").fill("Czwartek")
    desk.get_by_role("button", name="Start the group").click()
    desk.get_by_role("heading", name="Keep your link").wait_for()
    assert desk.locator("svg.qr").count() == 1 and "/join/" in desk.locator("a.link").inner_text()
    _accessible(desk, "evening-02-welcome-1280")
    group = desk.url.split("/")[4]

    # Invitations: a link (and its QR code) each; opening it signs that player in.
    desk.get_by_role("link", name="Invite the players").click()
    for name, phone in zip(NAMES, phones, strict=True):
        desk.get_by_label("Their name, as the group calls them").fill(name)
        desk.get_by_role("button", name="Add and invite").click()
        link = desk.locator("a.link").inner_text()
        arrive(phone, link)
        if name == NAMES[0]:
            _accessible(phone, "evening-03b-join-390")
        phone.get_by_role("button", name=f"I am {name}: sign me in on this phone").click()
        phone.wait_for_url(f"{base}/g/{group}")
        assert f"Signed in as {name}" in phone.locator("header").inner_text()
        assert phone.evaluate("document.cookie") == ""  # the token is in an HttpOnly cookie, never on a page
    _accessible(desk, "evening-03-members-1280")
    _both(phones[0], shots, "04-join-group")

    # Tables: Kop, each phone its own cards; Scopa for two (Cyprian and Dorota).
    arrive(desk, f"{base}/g/{group}")
    desk.get_by_role("link", name="Open a table").first.click()
    _accessible(desk, "evening-05-open-table-1280")
    desk.get_by_role("radio", name="Kop (4 players):").check()
    for seat, name in enumerate(NAMES):
        desk.get_by_label(f"Seat {seat + 1}", exact=True).select_option(label=name)
    desk.get_by_label("Stake (PLN)").fill("0.50")
    desk.get_by_role("button", name="Open the table").click()
    kop_table = desk.url
    arrive(desk, f"{base}/g/{group}/tables/new")
    desk.get_by_role("radio", name="Scopa for two (2 players):").check()
    desk.get_by_label("Seat 1", exact=True).select_option(label="Cyprian")
    desk.get_by_label("Seat 2", exact=True).select_option(label="Dorota")
    desk.get_by_label("Stake (PLN)").fill("1.00")
    desk.get_by_label(re.compile("One scorer types them in")).check()
    desk.get_by_role("button", name="Open the table").click()
    scopa_table = desk.url

    # The Kop hand, seat by seat: Ala deals, every phone picks up its cards.
    arrive(phones[0], kop_table)
    phones[0].get_by_role("button", name="Deal: each phone enters its own cards").click()
    hand = phones[0].url.split("#")[0]
    for phone in phones[1:]:
        arrive(phone, hand)
    phones[1].get_by_text("Waiting for the cards of Ala, Bożena, Cyprian, Dorota.").wait_for()
    _both(phones[1], shots, "06-pick-up-cards")
    for seat, phone in enumerate(phones):
        _pick(phone, KOP_HANDS[seat])
        phone.get_by_role("button", name="These are my cards").click()
        phone.get_by_role("heading", name=f"Your cards, {NAMES[seat]}").wait_for()
        _no_peeking(phones, set())
    # Live: Dorota's phone, never reloaded since, learns that Bożena leads.
    phones[3].get_by_text("Bożena's turn.").wait_for(timeout=10_000)
    played: set[str] = set()
    for number, trick in enumerate(KOP_TRICKS, 1):
        for card in trick:
            seat = next(s for s, h in enumerate(KOP_HANDS) if card in h)
            phone = phones[seat]
            phone.get_by_text("Your turn.", exact=True).wait_for(timeout=10_000)  # the live part, no reload
            if number == 1 and card == trick[1]:
                _both(phone, shots, "07-your-turn")
            phone.get_by_role("button", name=f"play the {_words(card)}").click()
            played.add(card)
            _no_peeking(phones, played)
        watcher = phones[(seat + 1) % 4]
        watcher.get_by_text(re.compile(r"(Last trick|This hand is over)")).first.wait_for(timeout=10_000)
    phones[2].get_by_text("This hand is over.").wait_for(timeout=10_000)
    for phone in phones:  # the tricks and the settlement come live too, not only the table's line
        phone.get_by_role("heading", name="Why it paid what it paid").wait_for(timeout=10_000)
        assert phone.locator("ol.tricks > li").count() == 4
    _both(phones[2], shots, "08-hand-over")

    # A Scopa result Cyprian logs and wins: it waits for Dorota, who pays in it.
    arrive(phones[2], scopa_table)
    phones[2].get_by_role("link", name="Score sheet: enter a result").click()
    for field, value in (("Who took the cards", "Cyprian"), ("Who took the coins", "Cyprian"),
                         ("Who took the primiera", "Cyprian"), ("Who took the settebello", "Cyprian")):
        phones[2].get_by_role("group", name=field).get_by_label(value).check()
    phones[2].get_by_label("Cyprian", exact=True).last.fill("11")
    phones[2].get_by_role("button", name="Show the settlement").click()
    phones[2].get_by_role("button", name="Log this result").click()
    phones[2].wait_for_url(f"{base}/g/{group}/hands/*")  # the tap is sent by the page's script, then its hand shown
    arrive(phones[3], f"{base}/g/{group}")
    waiting = phones[3].get_by_role("region", name="Results that do not count yet")
    assert "Hand 1 at Scopa for two at" in phones[3].locator("main").inner_text()
    _both(phones[3], shots, "09-waiting-for-you")
    phones[3].get_by_role("button", name="Confirm").click()
    waiting.wait_for(state="detached")  # the group page again, once the confirmation is logged

    # A Kop result from the score sheet (at this seats table the admin's); Ala disputes it; the admin corrects it.
    arrive(desk, kop_table)
    desk.get_by_role("link", name="Score sheet: enter a result").click()
    desk.get_by_label("normal game (no call)").check()
    stare = desk.get_by_role("group", name="who held Q♣ and Q♠")
    stare.get_by_label("Bożena").check()
    stare.get_by_label("Dorota").check()
    desk.get_by_label("Card points of the stare (who held Q♣ and Q♠), 0 to 104").fill("70")
    desk.get_by_role("group", name="Tricks they took, 0 to 4").get_by_label("3", exact=True).check()
    desk.get_by_role("button", name="Show the settlement").click()
    desk.get_by_role("button", name="Log this result").click()
    desk.wait_for_url(f"{base}/g/{group}/hands/*")
    disputed = desk.url.split("?")[0]
    arrive(phones[0], disputed)
    phones[0].get_by_label("What is wrong?").fill("Bożena and Dorota took 40, not 70")
    phones[0].get_by_role("button", name="Dispute it").click()
    phones[0].get_by_role("heading", name="Disputed").wait_for()
    _both(phones[0], shots, "10-disputed")
    arrive(desk, disputed)
    desk.get_by_role("link", name="Correct this hand").click()
    desk.get_by_label("Why (the group reads it in the hand's audit trail)").fill("counted again at the table")
    stare = desk.get_by_role("group", name="who held Q♣ and Q♠")
    stare.get_by_label("Bożena").check()
    stare.get_by_label("Dorota").check()
    desk.get_by_label("Card points of the stare (who held Q♣ and Q♠), 0 to 104").fill("40")
    desk.get_by_role("group", name="Tricks they took, 0 to 4").get_by_label("1", exact=True).check()
    desk.get_by_role("button", name="Show what it would change").click()
    _accessible(desk, "evening-11-correct-1280")
    desk.get_by_role("button", name="Log this correction").click()
    desk.get_by_text("Corrected: counted again at the table").wait_for()
    # The hand was still disputed, so its correction is a new result: its payers, Bożena and
    # Dorota, confirm it on their phones, each signing it with the key their phone holds.
    arrive(phones[1], disputed)
    phones[1].get_by_role("button", name="Confirm: it is right").click()
    phones[1].get_by_text("Still to agree: Dorota.").wait_for(timeout=10_000)
    arrive(phones[3], disputed)
    phones[3].get_by_role("button", name="Confirm: it is right").click()
    phones[3].get_by_role("heading", name="Waiting for a confirmation").wait_for(state="detached", timeout=10_000)

    # Settle up: each transfer marked paid at the admin's desk counts once the one who receives
    # it says so on their phone (signed).
    for _ in range(6):
        arrive(desk, f"{base}/g/{group}")
        if "Everyone is square" in desk.locator("main").inner_text():
            break
        desk.get_by_role("button", name="Mark as paid").first.click()
        desk.wait_for_url(f"{base}/g/{group}")
        for phone in phones:
            arrive(phone, f"{base}/g/{group}")
            if phone.get_by_role("button", name="I got it").count():
                phone.get_by_role("button", name="I got it").first.click()
                phone.wait_for_url(f"{base}/g/{group}")
    assert "Everyone is square" in desk.locator("main").inner_text()
    arrive(phones[0], f"{base}/g/{group}")
    _both(phones[0], shots, "12-group")
    arrive(phones[0], kop_table)
    assert "1 Ala dealt" in phones[0].locator("table.score").inner_text()
    _both(phones[0], shots, "13-score-table")
    arrive(phones[0], f"{base}/g/{group}/summary")
    _both(phones[0], shots, "14-summary")
    for phone in phones:  # each phone keeps what it saw last
        arrive(phone, f"{base}/g/{group}")
        phone.locator(".witness.ok").wait_for(timeout=10_000)

    # Behind the server's back: the first member renamed, every hash, link and Merkle node
    # recomputed; the server signs whatever its log now is.
    rewrite_log(str(db), lambda seq, data: {**data, "name": "Alicja"} if seq == 2 else data)
    for name, phone in zip(NAMES, phones, strict=True):
        arrive(phone, f"{base}/g/{group}")
        alarm = phone.locator(".witness.alarm")
        alarm.wait_for(timeout=10_000)
        assert "history was rewritten since this phone's last visit" in alarm.inner_text(), name
        assert alarm.get_by_role("link", name="checkpoint-seen-before.json").count() == 1
    _both(phones[3], shots, "15-rewritten")
