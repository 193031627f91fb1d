"""The evening without internet, in Chromium: ``bitka serve --lan`` on 127.0.0.2, which stands
for the laptop's private address on the hall's Wi-Fi (only loopback addresses are used). Four
phones sign in by scanning their invitations' QR codes off the admin's screen; a phone cut off
mid-hand taps its card and a score sheet's result, comes back, and each is logged once (also
when the answer to a tap is lost on its way back); a phone offline while its card is played
from another device sees its queued tap refused and why; the server stopped and started again
mid-evening takes the taps made while it was down; a sign-out keeps what waits for its member
and never sends it as another; an installed bitka opens without a network and says so, and
its Cache Storage holds nothing of a hand, a page or a token; and on a name that is no secure
context (as a hall's address is to a phone) sign-in works without Secure cookies, and what
needs a secure context says so in a sentence. Every wait is for a state, never for time."""
from __future__ import annotations

import io
import json
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.e2e.conftest import arrive, bitka_command, call, stop_server, working_tree
from tests.e2e.test_browser import ARTIFACTS, CHROMIUM, browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.e2e
HOST = "127.0.0.2"  # the hall's private address, as the tests have it
HALL_NAME = "hall.test"  # a name for it, which no browser takes for a secure context
NAMES = ["Ala", "Bożena", "Cyprian", "Dorota"]
DEAL = [["QC", "QS", "AH", "10H"], ["JC", "AD", "10D", "QD"], ["JS", "JH", "JD", "AC"], ["10C", "AS", "10S", "QH"]]
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SLOW = 30_000  # a state reached after a retry, a restart or a live refresh (a busy machine)


class Hall:
    """``bitka serve --lan --host 127.0.0.2`` on one port, which it keeps when it is stopped
    and started again."""

    def __init__(self, db: Path, cwd: Path):
        with socket.socket() as s:
            s.bind((HOST, 0))
            self.port = s.getsockname()[1]
        self.db, self.cwd, self.proc = db, cwd, None
        self.base = f"http://{HOST}:{self.port}"

    def start(self) -> None:
        log = self.cwd / f"hall-{self.port}.log"
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [*bitka_command(), "--db", str(self.db), "serve", "--lan", "--host", HOST, "--port", str(self.port),
                 "--workers", "1", "--threads", "8"],
                stdout=subprocess.DEVNULL, stderr=out, cwd=self.cwd, start_new_session=True, env=working_tree())
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.base + "/v1/keys", timeout=2)
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    stop_server(self.proc, signal.SIGKILL)
                    pytest.fail(f"bitka serve --lan did not start: {log.read_text()[-2000:]}")
                time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None:
            stop_server(self.proc)
            self.proc = None


@pytest.fixture
def hall(tmp_path):
    served = Hall(tmp_path / "hall.db", tmp_path)
    served.start()
    yield served
    served.stop()


def _evening(hall: Hall, dealer: int = 3) -> dict:
    """A group of four, each invited by name; a Kop table where each phone logs its own cards,
    with a hand whose cards are all logged (Dorota deals, so Ala leads); and Scopa for two
    (Ala and Bożena) whose results a score sheet logs."""
    base = hall.base
    st, g = call(base, "POST", "/v1/groups", {"name": "Czwartek", "currency": "PLN"})
    admin, gid = g["admin_token"], g["id"]
    invited = [call(base, "POST", f"/v1/groups/{gid}/invitations", {"name": n}, admin)[1] for n in NAMES]
    for invitation in invited:
        assert invitation["url"].startswith(f"{base}/join/"), invitation  # the address the phones reach
    members = [i["member"] for i in invited]
    st, kop = call(base, "POST", f"/v1/groups/{gid}/tables",
                   {"game": "kop", "stake": "0.50", "rules": {"entry": "seats"}, "seats": members, "dealer": dealer},
                   admin)
    assert st == 201, kop
    st, scopa = call(base, "POST", f"/v1/groups/{gid}/tables", {"game": "scopa", "stake": "1.00", "seats": members[:2]},
                     admin)
    assert st == 201, scopa
    st, hand = call(base, "POST", f"/v1/groups/{gid}/tables/{kop['id']}/hands", {"deal": {"dealer": dealer}}, admin)
    assert st == 201, hand
    for seat, cards in enumerate(DEAL):
        st, body = call(base, "POST", f"/v1/groups/{gid}/hands/{hand['id']}/cards", {"seat": seat, "cards": cards},
                        admin)
        assert st == 201, body
    return {"base": base, "group": gid, "admin": admin, "members": members, "links": [i["url"] for i in invited],
            "kop": kop["id"], "scopa": scopa["id"], "hand": hand["id"],
            "hand_page": f"{base}/g/{gid}/hands/{hand['id']}"}


def _link(e: dict, seat: int) -> str:
    """A new invitation for a member already in the group (another phone of theirs)."""
    st, made = call(e["base"], "POST", f"/v1/groups/{e['group']}/invitations", {"member": e["members"][seat]},
                    e["admin"])
    assert st == 201, made
    return made["url"]


def _join(page, link: str, name: str) -> None:
    arrive(page, link)
    page.get_by_role("button", name=f"I am {name}: sign me in on this phone").click()
    page.get_by_text(f"Signed in as {name}").wait_for()


@pytest.fixture
def phone_of(browser):  # noqa: F811 - the fixture
    """A new phone (a browser context of its own), signed in by an invitation link when given
    one, with bitka installed (its service worker) if asked; every phone is put away after the
    test."""
    made = []

    def phone(link: str | None = None, name: str | None = None, installed: bool = False):
        # A phone on the hall's address has no service worker (plain HTTP is no secure context);
        # 127.0.0.2 is one, so the worker is kept off but where a test installs bitka. (Chromium's
        # offline emulation also lets a request through a worker's network fallback.)
        context = browser.new_context(viewport=PHONE, service_workers="allow" if installed else "block")
        made.append(context)
        page = context.new_page()
        if link:
            _join(page, link, name)
        return page
    yield phone
    for context in made:
        context.close()


def _events(e: dict) -> list[dict]:
    st, body = call(e["base"], "GET", f"/v1/groups/{e['group']}/events?limit=1000", token=e["admin"])
    assert st == 200, body
    return body["events"]


def _plays(e: dict) -> list[tuple[str, str]]:
    """Every card played in the group, with who sent it: (card, actor)."""
    return [(ev["data"]["card"], ev["actor"]) for ev in _events(e) if ev["type"] == "play"]


def _results(e: dict, table: str) -> int:
    return sum(1 for ev in _events(e) if ev["type"] == "result" and ev.get("table") == table)


def _taps(page) -> str:
    return page.locator("#taps").inner_text()


def _decoded(png: bytes) -> str:
    """The text of the QR code in a screenshot, as a phone's camera reads it."""
    zxingcpp = pytest.importorskip("zxingcpp")
    [found] = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    return found.text


def _kept_shot(page, name: str, whole: bool = False) -> None:
    """A screenshot of what the phone shows (its screen, or the whole page), for the README,
    in artifacts/ (copied into docs/screenshots by hand when it changes)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=whole)


def _score_sheet_shown(page, e: dict) -> None:
    """Ala's score sheet of a Scopa hand she won, shown with its settlement (asked of bitka)."""
    arrive(page, f"{e['base']}/g/{e['group']}/tables/{e['scopa']}/result")
    for field in ("Who took the cards", "Who took the coins", "Who took the primiera", "Who took the settebello"):
        page.get_by_role("group", name=field).get_by_label("Ala").check()
    page.get_by_label("Ala", exact=True).last.fill("2")
    page.get_by_role("button", name="Show the settlement").click()
    page.get_by_role("button", name="Log this result").wait_for()


def _cache_storage(page) -> dict[str, str]:
    """Everything this phone's Cache Storage holds: each URL and its body as text."""
    return page.evaluate("""async () => {
        const kept = {};
        for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
                const answer = await cache.match(request);
                kept[name + ' ' + request.url] = answer ? await answer.clone().text() : '';
            }
        }
        return kept;
    }""")


def test_four_phones_scan_in_and_a_phone_cut_off_mid_hand_loses_and_doubles_nothing(phone_of, hall):
    e = _evening(hall)
    # The admin's screen: the hall's address as a QR code, and each player's invitation as one.
    desk = phone_of()
    arrive(desk, e["base"] + "/")
    desk.get_by_text("Sign in with a token").click()
    desk.get_by_label("Your token").fill(e["admin"])
    desk.get_by_role("button", name="Sign in").click()
    desk.get_by_text("Signed in as the admin").wait_for()
    arrive(desk, f"{e['base']}/g/{e['group']}/members")
    desk.get_by_role("link", name="The hall's address as a QR code, for phones to open bitka").click()
    desk.get_by_role("heading", name="The hall's address").wait_for()
    assert _decoded(desk.locator("svg.qr").screenshot()) == e["base"] + "/"
    assert "Served over plain HTTP" in desk.locator("main").inner_text()
    desk.mouse.move(0, 400)  # no button under the pointer in the picture
    _kept_shot(desk, "hall-address", whole=True)
    phones = []
    for name in NAMES:
        arrive(desk, f"{e['base']}/g/{e['group']}/members")
        desk.get_by_role("button", name=f"New link for {name}").click()
        code = desk.locator("section[aria-labelledby=link-h] svg.qr")
        phones.append(phone_of(_decoded(code.screenshot()), name))  # scanned off the admin's screen
    for page in phones:
        [cookie] = [c for c in page.context.cookies() if c["name"] == "bitka_session"]
        assert not cookie["secure"] and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert "protected only by the hall's Wi-Fi" in page.locator("footer").inner_text()
        arrive(page, e["hand_page"])
    ala, bozena = phones[0], phones[1]
    ala.get_by_text("Your turn.", exact=True).wait_for()
    sheet = ala.context.new_page()  # Ala's second tab: the Scopa result she won, shown before she logs it
    _score_sheet_shown(sheet, e)

    # Cut off: her card and her result are kept on the phone, and say so.
    ala.context.set_offline(True)
    ala.get_by_role("button", name="play the ace of hearts").click()
    ala.locator("#taps").get_by_text("1 not sent yet").wait_for()
    assert "Play the ace of hearts (Hand 1, Dorota dealt)" in _taps(ala)
    assert ala.locator("#live form.waiting button").is_disabled()
    sheet.get_by_role("button", name="Log this result").click()
    sheet.locator("#taps").get_by_text("2 not sent yet").wait_for()
    ala.locator("#taps").get_by_text("2 not sent yet").wait_for()  # every tab of the phone says it
    assert "This phone has no network now." in _taps(ala)
    ala.mouse.move(0, 400)
    _kept_shot(ala, "not-sent-yet")
    assert _plays(e) == [] and _results(e, e["scopa"]) == 0
    bozena.get_by_text("Ala's turn.").wait_for()

    # Back: each goes once, in order, and the page says what became of it; the table catches up.
    ala.context.set_offline(False)
    done = ala.locator("#taps .taps-done")
    done.get_by_text("Play the ace of hearts (Hand 1, Dorota dealt): logged.").wait_for(timeout=SLOW)
    done.get_by_text(re.compile(r"Log this result \(Score sheet: a Scopa hand's result\): logged\.")).wait_for(
        timeout=SLOW)
    assert "not sent yet" not in _taps(ala)
    assert _plays(e) == [("AH", e["members"][0])] and _results(e, e["scopa"]) == 1
    ala.locator("#live .trick-so-far").get_by_text("Ala").wait_for(timeout=SLOW)  # her own table, caught up
    for page in (ala, *phones[2:]):
        page.get_by_text("Bożena's turn.").wait_for(timeout=SLOW)

    # An answer lost on its way back: the tap reached bitka, the phone did not hear it; sent
    # again, bitka knows its one-time key, and it is logged once.
    def lost(route):
        route.fetch()
        route.abort("connectionreset")
    bozena.get_by_text("Your turn.", exact=True).wait_for(timeout=SLOW)  # live, on her phone too
    bozena.route("**/move", lost, times=1)
    card = bozena.locator("#live form.inline input[name=card]").first.get_attribute("value")
    bozena.locator("#live form.inline button.play").first.click()
    bozena.locator("#taps .taps-done").get_by_text("logged (it had reached bitka already)").wait_for(timeout=SLOW)
    assert _plays(e) == [("AH", e["members"][0]), (card, e["members"][1])]


def test_a_tap_kept_offline_is_refused_when_its_card_was_played_from_another_device(phone_of, hall):
    """Ala's tap waits offline; meanwhile the scorer's desk logs her ace at her seat (the admin
    may log anything at a table of seats): her tap, sent later, is refused and said."""
    e = _evening(hall)
    phone = phone_of(e["links"][0], "Ala")
    watching = phone_of(e["links"][1], "Bożena")
    for page in (phone, watching):
        arrive(page, e["hand_page"])
        page.get_by_text("Ala's turn." if page is watching else "Your turn.", exact=True).wait_for()
    phone.context.set_offline(True)
    phone.get_by_role("button", name="play the ace of hearts").click()
    phone.locator("#taps").get_by_text("1 not sent yet").wait_for()
    st, played = call(e["base"], "POST", f"/v1/groups/{e['group']}/hands/{e['hand']}/plays",  # first, from the desk
                      {"seat": 0, "card": "AH"}, e["admin"])
    assert st == 201, played
    watching.get_by_text("Your turn.", exact=True).wait_for(timeout=SLOW)
    phone.context.set_offline(False)
    refused = phone.locator("#taps .taps-done li.refused")
    refused.wait_for(timeout=SLOW)
    assert refused.inner_text() == \
        "Play the ace of hearts (Hand 1, Dorota dealt): not logged. A♥ was already played, by Ala."
    assert _plays(e) == [("AH", "admin")]
    phone.get_by_text("Bożena's turn.").wait_for(timeout=SLOW)  # and the table as it is
    phone.locator("#taps").get_by_role("button", name="OK, hide this").click()
    phone.locator("#taps .taps-done").wait_for(state="detached")


def _seats_hand(e: dict, cards: bool) -> str:
    """Another Kop table where each phone logs its own cards, Ala dealing (Bożena calls first),
    and its hand's page; every seat's cards logged, or none yet."""
    base, gid, admin = e["base"], e["group"], e["admin"]
    st, table = call(base, "POST", f"/v1/groups/{gid}/tables",
                     {"game": "kop", "stake": "0.50", "rules": {"entry": "seats"}, "seats": e["members"]}, admin)
    assert st == 201, table
    st, hand = call(base, "POST", f"/v1/groups/{gid}/tables/{table['id']}/hands", {"deal": {"dealer": 0}}, admin)
    assert st == 201, hand
    for seat, dealt in enumerate(DEAL if cards else ()):
        st, body = call(base, "POST", f"/v1/groups/{gid}/hands/{hand['id']}/cards", {"seat": seat, "cards": dealt},
                        admin)
        assert st == 201, body
    return hand["id"]


def test_a_seats_cards_a_call_and_a_confirmation_are_kept_as_a_card_is(phone_of, hall):
    e = _evening(hall)
    base, gid = e["base"], e["group"]
    code = _link(e, 0).rsplit("/", 1)[1]
    st, ala = call(base, "POST", f"/v1/invitations/{code}")  # Ala's app: a token of hers
    assert st == 201, ala
    st, won = call(base, "POST", f"/v1/groups/{gid}/tables/{e['scopa']}/hands", {"result": {
        "cards": 0, "coins": 0, "primiera": 0, "settebello": 0, "scopas": [11, 0]}}, ala["token"])
    assert st == 201 and won["confirmation"]["waiting_for"] == [e["members"][1]], won  # Bożena pays: it waits for her
    picked, called = _seats_hand(e, cards=False), _seats_hand(e, cards=True)
    cards = phone_of(e["links"][1], "Bożena")
    arrive(cards, f"{base}/g/{gid}/hands/{picked}")
    calls, group = cards.context.new_page(), cards.context.new_page()  # her three tabs
    arrive(calls, f"{base}/g/{gid}/hands/{called}")
    kontra = calls.get_by_text("Kontra: you double what this hand pays")
    arrive(group, f"{base}/g/{gid}")
    cards.context.set_offline(True)
    for card in DEAL[1]:
        cards.locator(f'label.pick:has(input[value="{card}"])').click()
    cards.get_by_role("button", name="These are my cards").click()
    cards.locator("#taps").get_by_text("1 not sent yet").wait_for()
    assert "These are my cards: J♣ A♦ Q♦ 10♦ (Hand 1, Ala dealt)" in _taps(cards)  # the pack's order
    kontra.click()
    calls.get_by_role("button", name="Yes, call kontra").click()
    calls.locator("#taps").get_by_text("2 not sent yet").wait_for()
    group.get_by_role("button", name="Confirm").click()
    group.locator("#taps").get_by_text("3 not sent yet").wait_for()
    cards.context.set_offline(False)
    expect(group.locator("#taps .taps-done li.logged")).to_have_count(3, timeout=SLOW)
    bozena = e["members"][1]
    sent = [(ev["type"], ev.get("hand")) for ev in _events(e) if ev["actor"] == bozena and ev["type"] != "device_added"]
    assert sent == [("seat_cards", picked), ("bid", called), ("confirmation", won["id"])], sent  # each once, in order
    calls.get_by_text("Bożena: kontra").wait_for(timeout=SLOW)  # her call, on her own table's page


def test_taps_made_while_the_server_was_down_go_through_once_it_is_back(phone_of, hall):
    e = _evening(hall)
    phones = [phone_of(link, name) for link, name in zip(e["links"], NAMES, strict=True)]
    for page in phones:
        arrive(page, e["hand_page"])
    ala = phones[0]
    ala.get_by_text("Your turn.", exact=True).wait_for()
    hall.stop()  # mid-evening: the laptop's server restarts
    ala.get_by_role("button", name="play the ace of hearts").click()
    ala.locator("#taps").get_by_text("1 not sent yet").wait_for(timeout=SLOW)
    ala.locator("#taps").get_by_text("bitka did not answer the last try.").wait_for()
    hall.start()
    ala.locator("#taps .taps-done").get_by_text("logged.").wait_for(timeout=SLOW)
    assert _plays(e) == [("AH", e["members"][0])]
    for page in (ala, *phones[2:]):
        page.get_by_text("Bożena's turn.").wait_for(timeout=SLOW)


def test_a_sign_out_keeps_what_waits_and_never_sends_it_as_another_member(phone_of, hall):
    e = _evening(hall)
    phone = phone_of(e["links"][0], "Ala")
    arrive(phone, e["hand_page"])
    phone.get_by_text("Your turn.", exact=True).wait_for()
    phone.route("**/move", lambda route: route.abort("internetdisconnected"))  # the Wi-Fi drops under the tap
    phone.get_by_role("button", name="play the ace of hearts").click()
    phone.locator("#taps").get_by_text("1 not sent yet").wait_for()
    phone.get_by_role("button", name="Sign out").click()
    held = "1 tap made on this phone by Ala (Czwartek) is not sent yet: it goes only while Ala is signed in here"
    phone.locator("#taps").get_by_text(held).wait_for()
    _join(phone, e["links"][1], "Bożena")  # the phone handed over: Bożena signs in on it
    phone.unroute("**/move")
    phone.route("**/live", lambda route: route.fulfill(status=304))  # the live part's wait would never go idle
    arrive(phone, e["hand_page"])
    phone.locator("#taps").get_by_text(held).wait_for()
    phone.wait_for_load_state("networkidle")
    phone.unroute("**/live")
    assert _plays(e) == []  # not sent as Bożena
    # Ala again, on the phone that holds her key: no invitation can sign anyone in as a member who
    # holds a key, so she signs in with a token the admin gave her (her key stays on this phone).
    st, token = call(e["base"], "POST", f"/v1/groups/{e['group']}/members/{e['members'][0]}/token", None, e["admin"])
    assert st == 201, token
    phone.get_by_role("button", name="Sign out").click()
    arrive(phone, f"{e['base']}/")
    phone.locator("details.token-sign-in summary").click()
    phone.locator("#token").fill(token["token"])
    phone.locator("details.token-sign-in").get_by_role("button", name="Sign in").click()
    phone.get_by_text("Signed in as Ala").wait_for()
    phone.goto(e["hand_page"])  # sent once Ala is signed in: on the page she lands on, or here
    phone.locator("#taps .taps-done").get_by_text(re.compile(r"logged( \(it had reached bitka already\))?\.")) \
        .wait_for(timeout=SLOW)
    assert _plays(e) == [("AH", e["members"][0])]


def _face(card: str) -> str:
    """A card as its face says it to a screen reader: "ace of hearts"."""
    words = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
    return f"{words.get(card[:-1], card[:-1])} of {dict(S='spades', C='clubs', H='hearts', D='diamonds')[card[-1]]}"


def _assert_kept_nothing_of(page, e: dict, hand: str) -> None:
    """The phone's Cache Storage holds the files anyone gets (each as the server gives it to a
    stranger), the manifest and the page without a network, and nothing of the group, its hand,
    its members, its cards, a session or the API."""
    kept = _cache_storage(page)
    assert kept, "the installed files are kept"
    for entry, text in kept.items():
        url = entry.split(" ", 1)[1]
        path = url.removeprefix(e["base"])
        if re.fullmatch(r"/static/(?:vendor/(?:[\w-]+/)?)?[\w.-]+", path):  # its files and the vendored libraries
            with urllib.request.urlopen(url) as anyone:
                assert anyone.read() == text.encode() or path.endswith(".png"), url
            continue
        assert path in ("/offline", "/manifest.webmanifest"), url
        cards = [_face(c) for c in KOP_HANDS[0] + KOP_HANDS[1]]
        for secret in (e["group"], hand, e["admin"], "form_token", "Czwartek", *NAMES, *cards, "/v1/", "/g/"):
            assert secret not in text, f"{url} holds {secret}"
    assert not any(cookie["value"] in "".join(kept.values()) for cookie in page.context.cookies())


def test_an_installed_bitka_opens_without_a_network_and_keeps_nothing_of_a_hand(phone_of, hall):
    e = _evening(hall)
    base, gid, admin = e["base"], e["group"], e["admin"]
    st, table = call(base, "POST", f"/v1/groups/{gid}/tables",
                     {"game": "kop", "stake": "0.50", "rules": {"entry": "seats"}, "seats": e["members"]}, admin)
    st, hand = call(base, "POST", f"/v1/groups/{gid}/tables/{table['id']}/hands", {"deal": {"dealer": 0}}, admin)
    for seat, cards in enumerate(KOP_HANDS):
        assert call(base, "POST", f"/v1/groups/{gid}/hands/{hand['id']}/cards", {"seat": seat, "cards": cards},
                    admin)[0] == 201
    phone = phone_of(e["links"][1], "Bożena", installed=True)  # seat 1: she leads
    assert phone.evaluate("window.isSecureContext")  # a loopback address is one, as HTTPS is
    manifest = json.loads(phone.evaluate("fetch('/manifest.webmanifest').then(r => r.text())"))
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    phone.locator("html[data-installed]").wait_for(state="attached")  # its files kept on the phone
    page = f"{base}/g/{gid}/hands/{hand['id']}"
    arrive(phone, page)
    phone.locator("html[data-installed=serving]").wait_for(state="attached")  # and its worker serves the pages
    phone.locator("#live[data-awake=on]").wait_for()  # the screen kept on through her hand
    for number, trick in enumerate(KOP_TRICKS):
        for card in trick:
            seat = next(s for s, held in enumerate(KOP_HANDS) if card in held)
            if seat != 1:  # the others play from their own phones (their tokens: here, the admin's)
                st, body = call(base, "POST", f"/v1/groups/{gid}/hands/{hand['id']}/plays",
                                {"seat": seat, "card": card}, admin)
                assert st == 201, body
                continue
            phone.get_by_text("Your turn.", exact=True).wait_for(timeout=SLOW)
            if number == 0:  # her first card, tapped with no network: then bitka opened from the home screen
                phone.context.set_offline(True)
                phone.get_by_role("button", name=f"play the {_face(card)}").click()
                phone.locator("#taps").get_by_text("1 not sent yet").wait_for()
                arrive(phone, base + "/")
                phone.get_by_role("heading", name="No network").wait_for()
                said = phone.locator("main").inner_text()
                assert "kept on this phone and sent as soon as bitka answers again" in said
                phone.locator("#taps").get_by_text("1 tap made on this phone by Bożena (Czwartek) is not sent yet") \
                    .wait_for()
                assert _face(card) not in _taps(phone)  # whose and how many, not which card
                phone.context.set_offline(False)
                arrive(phone, page)
                phone.locator("#taps .taps-done li.logged").wait_for(timeout=SLOW)
            else:
                phone.get_by_role("button", name=f"play the {_face(card)}").click()
            phone.locator(f'#live .trick-so-far [aria-label="{_face(card)}"]').wait_for(timeout=SLOW)
    phone.get_by_text("This hand is over.").wait_for(timeout=SLOW)
    phone.locator("#live[data-awake=off]").wait_for()  # and the screen let go
    assert [card for card, _actor in _plays(e)] == [c for trick in KOP_TRICKS for c in trick]  # each once
    _assert_kept_nothing_of(phone, e, hand["id"])


@pytest.fixture
def named_browser(browser):  # noqa: F811 - the fixture
    """Chromium that reaches 127.0.0.2 by a name (as a phone reaches the hall's address): an
    origin that is no secure context."""
    chromium = browser.browser_type.launch(executable_path=CHROMIUM,
                                           args=[f"--host-resolver-rules=MAP {HALL_NAME} {HOST}"])
    yield chromium
    chromium.close()


def test_on_a_hall_address_that_is_no_secure_context_each_missing_feature_says_so(named_browser, hall):
    e = _evening(hall)
    named = e["base"].replace(HOST, HALL_NAME)
    phone = named_browser.new_context(viewport=PHONE).new_page()
    _join(phone, e["links"][0].replace(HOST, HALL_NAME), "Ala")  # the cookie without Secure is kept: signed in
    assert phone.evaluate("[window.isSecureContext, 'serviceWorker' in navigator, 'wakeLock' in navigator]") == \
        [False, False, False]
    assert "protected only by the hall's Wi-Fi" in phone.locator("footer").inner_text()
    phone.locator("#witness").get_by_text("This phone does not check the group's log at this address").wait_for()
    arrive(phone, f"{named}/g/{e['group']}/hands/{e['hand']}")
    phone.get_by_text("This phone keeps its screen on for bitka only where bitka is served over HTTPS").wait_for()
    phone.locator("#verify-result").get_by_text("Not verified: this browser computes hashes only over HTTPS").wait_for()
    phone.context.set_offline(True)  # and a tap kept while offline goes, without a service worker
    phone.get_by_role("button", name="play the ace of hearts").click()
    phone.locator("#taps").get_by_text("1 not sent yet").wait_for()
    phone.context.set_offline(False)
    phone.locator("#taps .taps-done").get_by_text("logged.").wait_for(timeout=SLOW)
    assert _plays(e) == [("AH", e["members"][0])]
