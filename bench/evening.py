"""An evening as four friends play it, through the pages in Chromium, every tap counted
(issue 43): four phones (390 x 844) and the admin's desk against a live ``bitka serve``.

    .venv/bin/python -m bench.evening                   # about three minutes; prints the table
    .venv/bin/python -m bench.evening --card-hands 1    # one hand card by card instead of two
    .venv/bin/python -m bench.evening --confirm end     # payers confirm at the end, not hand by hand
    .venv/bin/python -m bench.evening --json out.json --actions   # and every counted action
    git archive c4d5d00 | tar -x -C /tmp/before        # (an empty folder) an earlier commit's pages:
    .venv/bin/python -m bench.evening --tree /tmp/before          # served from there, played from here
    .venv/bin/python -m bench.evening --headed --keep   # watch it; keep the store and the log

The evening: the admin starts a group on the desk and invites four players, each phone
opening its link (its one typed address) and making its key as it joins, Dorota's phone then
set to Polish by the pages' language links; the admin opens a Kop table for the score sheet,
a Kop table where each phone logs its own cards, and a Scopa table for four. Then:

- a Kop hand by score sheet, a normal game with a kontra, logged by Ala; its payers confirm;
- a Kop hand by score sheet whose card points are twice impossible before they are right;
- Kop hands card by card (``--card-hands``, two by default: the second shows what moving
  from one hand to the next costs): the dealer deals, each phone picks up its four cards and
  plays them, Cyprian calls a kontra in the first;
- a Scopa game to 11, four hands by score sheet, logged by Cyprian; its payers confirm;
- settling up: each receiver gives a Polish IBAN and a BLIK phone, each payer opens the
  settle-up list (the Polish banks' QR code and the BLIK phone, copied in one tap), the admin
  marks the first payment paid and its receiver says they got it, the other receivers mark
  theirs paid; then everyone is square.

Nothing is opened by a typed address but each device's first link: every other page is
reached by tapping, as a person does, and the tap counted (bench/taps.py). A list counts two
taps (open, choose), a text field a tap and a key per character changed. Each step prefers a
quicker way where the pages offer one and says which it took (bench/evening_steps.py).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright  # noqa: E402 - the repository's root comes first

from bench import evening_steps as steps  # noqa: E402
from bench.run import free_port  # noqa: E402
from bench.taps import Count, Counted, Tally, raw  # noqa: E402
from games.registry import GAMES  # noqa: E402

NAMES = ("Ala", "Bożena", "Cyprian", "Dorota")
POLISH = "Dorota"
DESK = "desk (admin)"
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
# The cards of the hands played card by card, seat by seat (the first dealt by Ala, the next
# by Bożena...): the black queens apart, so that each is a normal game.
CARD_DEALS = (
    (("10D", "JH", "JD", "AS"), ("AH", "10H", "QC", "AD"), ("QH", "QD", "JC", "10C"), ("QS", "JS", "AC", "10S")),
    (("QS", "JS", "AC", "10S"), ("10D", "JH", "JD", "AS"), ("AH", "10H", "QC", "AD"), ("QH", "QD", "JC", "10C")),
)
# Scopa for four: Ala and Cyprian (side 0) against Bożena and Dorota (side 1), to 11 in four hands.
SCOPA_HANDS = (
    {"cards": 0, "coins": 0, "primiera": 1, "settebello": 0},  # 3-1
    {"cards": 1, "coins": 0, "primiera": 0, "settebello": 0, "scopas0": 1},  # 7-2
    {"cards": 0, "coins": 1, "primiera": 1, "settebello": 1},  # 8-5
    {"cards": 0, "coins": 0, "primiera": 0, "settebello": 1},  # 11-6: the game
)
PAY_TO = {name: {"iban": iban, "blik": blik} for name, iban, blik in (
    ("Ala", "PL61 1090 1014 0000 0712 1981 2874", "600100200"),
    ("Bożena", "PL27 1140 2004 0000 3002 0135 5387", "600100201"),
    ("Cyprian", "PL83 1010 1023 0000 2613 9510 0000", "600100202"),
    ("Dorota", "PL10 1050 0099 7603 1234 5678 9123", "600100203"))}
TARGETS = [
    "A Kop or Baśka hand by score sheet: the logger's taps at most 6 for a game without doubles "
    "(contract, players, points, tricks, show, log), one more per double; each payer confirms an "
    "evening's results in one tap from whichever page they open.",
    "A hand card by card: each phone's taps are its cards and its calls, nothing to move between hands.",
    "A Scopa hand's score sheet in at most 8.",
]


def first_double(game: str) -> str:
    """The game's own word for the first double, from its declarations."""
    g = GAMES[game]
    field = next(f for f in g.forms.result_fields(g.parse_rules({})) if f.kind == "doubles")
    return field.options[0]


class Evening:
    """The four phones, the desk, the group and its tables, and the tally of every tap."""

    def __init__(self, browser, base: str, follow_wait: float, confirm_at_end: bool = False):
        self.base, self.tally = base, Tally((*NAMES, DESK))
        self.confirm_at_end, self.waiting = confirm_at_end, []  # (table, hand, names) confirmed at the end
        self.desk = self._device(browser, DESK, DESKTOP, follow_wait)
        self.phones = {name: self._device(browser, name, PHONE, follow_wait) for name in NAMES}
        self.look = self.desk.raw.context.new_page()  # the bench's own look, as the admin: never counted
        self.group = self.kop_sheet = self.kop_cards = self.scopa = ""

    def _device(self, browser, name: str, viewport: dict, follow_wait: float) -> steps.Device:
        context = browser.new_context(viewport=viewport)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=self.base)
        return steps.Device(name, Counted(context.new_page(), name, self.tally), self.tally, follow_wait)

    # --- setting up -------------------------------------------------------------------------

    def set_up(self) -> None:
        self.tally.begin("Setting up: a group, four players invited, three tables", "pages")
        desk = self.desk
        desk.page.goto(self.base + "/")
        desk.tap(desk.visible('a[href="/new"]'))
        desk.page.locator("#name").fill("Czwartek")
        desk.tap(desk.visible('form[data-make-key] button[type="submit"]'))
        self.group = "/".join(desk.path.split("/")[:3])
        steps.reach(desk, [self.group, f"{self.group}/members"])
        for name in NAMES:
            desk.page.locator("#name").fill(name)
            desk.tap(desk.visible('form:has(#name) button[type="submit"]'))
            link = desk.raw.locator("section.keep-link a.link").first.inner_text()
            phone = self.phones[name]
            phone.page.goto(link)  # the invitation, sent to the phone: its one typed address
            phone.tap(phone.visible('form[data-make-key] button[type="submit"]'))
            assert phone.path == self.group, phone.raw.url
        polish = self.phones[POLISH]
        polish.tap(polish.visible('footer a[hreflang="pl"]'))
        assert polish.raw.locator("html").get_attribute("lang") == "pl"
        self.kop_sheet = self._open_table("kop:0", "0.50", "scorer")
        self.kop_cards = self._open_table("kop:0", "1.00", "seats")
        self.scopa = self._open_table("scopa:2", "5.00", "scorer")

    def _open_table(self, preset: str, stake: str, entry: str) -> str:
        desk = self.desk
        steps.reach(desk, [self.group, f"{self.group}/tables/new"])
        desk.page.locator(f'input[name="preset"][value="{preset}"]').check()
        ids = {o.inner_text().strip(): o.get_attribute("value") for o in desk.raw.locator("#seat0 option").all()}
        for seat, name in enumerate(NAMES):
            select = desk.page.locator(f"#seat{seat}")
            if select.input_value() != ids[name]:
                select.select_option(ids[name])
        desk.page.locator("#stake").fill(stake)
        entry_radio = desk.page.locator(f'input[name="entry"][value="{entry}"]')
        if not entry_radio.is_checked():
            entry_radio.check()
        desk.tap(desk.visible('main form button[type="submit"]'))
        assert "/tables/" in desk.path and not desk.path.endswith("/new"), desk.raw.url
        return desk.path

    # --- hands ------------------------------------------------------------------------------

    def confirmations(self, logger: steps.Device, table: str, hand: str) -> None:
        """Everyone the hand on ``logger``'s page still waits for confirms it (now, or with
        ``--confirm end`` once every hand is played)."""
        names = steps.waiting_for(logger, list(NAMES))
        if self.confirm_at_end:
            self.waiting.append((table, hand, names))
            return
        for name in names:
            steps.confirm(self.phones[name], self.group, table, hand)

    def confirm_the_evening(self) -> None:
        """With ``--confirm end``: each payer confirms every result that waits for them."""
        if not self.confirm_at_end:
            return
        self.tally.begin("Payers confirm the evening's results", "pages")
        for name in NAMES:
            mine = [(table, hand) for table, hand, names in self.waiting if name in names]
            for number, (table, hand) in enumerate(mine):
                if number and self._done(self.phones[name], hand):
                    continue
                steps.confirm(self.phones[name], self.group, table, hand)
        self.check_nothing_waits()

    @staticmethod
    def _done(dev: steps.Device, hand: str) -> bool:
        """Did the last tap (the banner's) confirm ``hand`` too? The page it led to says so by
        showing nothing more to confirm of it."""
        return not dev.visible(f'#waiting form, form[action="{hand}/verdict"]')

    def check_nothing_waits(self) -> None:
        """The bench's own look at the group page, as the admin (on a page of its own, no tap of
        anyone's): no result waits, no payment is left to make."""
        self.look.goto(self.base + self.group)
        left = self.look.locator("section.verdict ul.waiting > li")
        if left.count():
            raise RuntimeError(f"results still wait: {left.all_inner_texts()}")

    def kop_by_score_sheet(self) -> None:
        self.tally.begin("Kop, normal with kontra", "score sheet")
        ala = self.phones["Ala"]
        # Ala deals; Ala and Cyprian hold the black queens; Bożena (młodzi) gives a kontra; 70 in 3 tricks.
        hand = steps.score_sheet(ala, self.group, self.kop_sheet, [
            {"contract": "normal", "stare": [0, 2], "doubles": [1], "points": 70, "tricks": 3}])
        self.confirmations(ala, self.kop_sheet, hand)

        self.tally.begin("Kop, with two impossible entries first", "score sheet")
        # Bożena deals; Bożena and Dorota hold the queens, take 3 tricks: Ala types 30, then 55, then 70.
        hand = steps.score_sheet(ala, self.group, self.kop_sheet, [
            {"contract": "normal", "stare": [1, 3], "points": 30, "tricks": 3}, {"points": 55}, {"points": 70}])
        self.confirmations(ala, self.kop_sheet, hand)

    def kop_card_by_card(self, hands: int) -> None:
        double = first_double("kop")
        for number in range(hands):
            deal = CARD_DEALS[number % len(CARD_DEALS)]
            dealer = self.phones[NAMES[number % 4]]
            self.tally.begin(f"Kop, hand {number + 1}" + (" (a kontra)" if number == 0 else ""), "card by card")
            before = {name: phone.path for name, phone in self.phones.items()}
            hand = steps.deal_by_seats(dealer, self.group, self.kop_cards)
            last = dealer
            for seat in [(number + 1 + i) % 4 for i in range(4)]:
                phone = self.phones[NAMES[seat]]
                steps.pick_up(phone, self.group, self.kop_cards, hand, list(deal[seat]))
                if phone is not dealer and not self.tally.step.counts[phone.name].moves and before[phone.name] != hand:
                    phone.note(f"its {steps.kind(before[phone.name])} went to the hand by itself")
                last = phone
            if number == 0:  # Cyprian, of the młodzi (the queens are Bożena's and Dorota's), doubles
                steps.call(self.phones["Cyprian"], double)
                last = self.phones["Cyprian"]
            for _ in range(16):
                name = steps.whose_turn(last, list(NAMES))
                if name is None:
                    raise RuntimeError(f"nobody's turn on {last.name}'s page: {last.raw.url}")
                last = self.phones[name]
                steps.play_a_card(last)
            expect(raw(last.page.locator("#why-h"))).to_be_visible(timeout=steps.SHOWN)
            self.confirmations(last, self.kop_cards, hand)

    def scopa_by_score_sheet(self) -> None:
        self.tally.begin(f"Scopa, {len(SCOPA_HANDS)} hands to 11", "score sheet")
        cyprian, each = self.phones["Cyprian"], []
        for fields in SCOPA_HANDS:
            before = self.tally.step.counts.get("Cyprian", Count()).taps
            hand = steps.score_sheet(cyprian, self.group, self.scopa, [fields])
            each.append(str(self.tally.step.counts["Cyprian"].taps - before))
            self.confirmations(cyprian, self.scopa, hand)
        self.tally.note(f"Cyprian's taps hand by hand: {', '.join(each)}")

    # --- settling up --------------------------------------------------------------------------

    def settle_up(self) -> None:
        self.tally.begin("Settling up: the Polish banks' code and BLIK", "pages")
        desk = self.desk
        if desk.path == self.group:  # shown before the evening's hands: out of date
            desk.reload("reloaded the group page to see who pays whom")
        steps.reach(desk, [self.group])
        owed = steps.transfers(desk)
        for receiver in dict.fromkeys(r for _payer, r in owed):
            steps.pay_to(self.phones[receiver], self.group, PAY_TO[receiver])
        for number, (payer, receiver) in enumerate(owed):
            offered = steps.pay(self.phones[payer], self.group, receiver)
            self.tally.note(f"{payer} was shown: {', '.join(offered) or 'nothing to pay with'}")
            if number == 0:  # the admin marks it paid; its receiver says they got it
                steps.mark_paid(desk, self.group, payer, receiver)
                steps.got_it(self.phones[receiver], self.group)
            else:
                steps.mark_paid(self.phones[receiver], self.group, payer, receiver)
        self.check_nothing_waits()
        left = self.look.locator("ul.transfers > li:has(span.amount)")
        if left.count():
            raise RuntimeError(f"not square after settling up: {left.all_inner_texts()}")


# --- the table ----------------------------------------------------------------------------------

def cell(count: Count) -> str:
    if not count.taps and not count.typed:
        return ""
    return f"{count.taps}" + (f" + {count.typed} typed" if count.typed else "")


def table(tally: Tally) -> str:
    phones = list(NAMES)
    head = ["hand", "how", *[f"{n} (pl)" if n == POLISH else n for n in phones], DESK, "taps (all phones)",
            "typed (all phones)", "ways taken, what slowed it"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for step in tally.steps:
        total = tally.total(step, phones)
        moved = [f"{who.split()[0]} {c.moves}" for who, c in step.counts.items() if c.moves]
        said = "; ".join(([f"taps moving between pages: {', '.join(moved)}"] if moved else []) +
                         ([Tally.said(step)] if step.notes else []))
        lines.append("| " + " | ".join([step.name, step.how, *[cell(step.counts.get(n, Count())) for n in phones],
                                         cell(step.counts.get(DESK, Count())), str(total.taps), str(total.typed),
                                         said]) + " |")
    return "\n".join(lines)


def figures(tally: Tally, seconds: float, actions: bool) -> dict:
    out = {"seconds": round(seconds, 1), "steps": [
        {"step": s.name, "how": s.how, "notes": Tally.said(s),
         "devices": {who: {"taps": c.taps, "typed": c.typed, "moves": c.moves} for who, c in s.counts.items()}}
        for s in tally.steps]}
    if actions:
        out["actions"] = [{"step": s, "device": d, "action": a, "taps": t, "typed": k}
                          for s, d, a, t, k in tally.actions]
    return out


# --- the server ---------------------------------------------------------------------------------

def serve(tree: Path, where: Path, options: list[str]) -> tuple[subprocess.Popen, str]:
    """``bitka serve`` of ``tree`` on a new store in ``where``, on a free loopback port."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("BITKA_SETUP_TOKEN", None)
    with open(where / "serve.log", "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "cli", "--db", str(where / "evening.db"), "serve", "--port",
                                 str(port), *options], cwd=where, env=env, stdout=subprocess.DEVNULL, stderr=log,
                                start_new_session=True)
    base, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(base + "/v1/keys", timeout=2)
            return proc, base
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                stop(proc)
                raise RuntimeError(f"bitka serve did not start: {(where / 'serve.log').read_text()[-2000:]}") from None
            time.sleep(0.1)


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    proc.wait(timeout=20)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--card-hands", type=int, default=2, help="Kop hands played card by card (default 2)")
    ap.add_argument("--follow-wait", type=float, default=5.0,
                    help="seconds a live page is given to bring news by itself before it is reloaded (default 5)")
    ap.add_argument("--confirm", choices=("each", "end"), default="each",
                    help="payers confirm each result as it is logged (default), or all at the end of the evening")
    ap.add_argument("--tree", type=Path, default=ROOT, help="serve the pages of this checkout (default: this one)")
    ap.add_argument("--serve", default="", help="more options for bitka serve, as one string: '--workers 1'")
    ap.add_argument("--chromium", default=os.environ.get("BITKA_CHROMIUM", "/usr/bin/chromium"))
    ap.add_argument("--headed", action="store_true", help="show the browser's windows")
    ap.add_argument("--keep", action="store_true", help="keep the store and the server's log (their folder is said)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--actions", action="store_true", help="print (and write) every counted action")
    args = ap.parse_args()
    where = Path(tempfile.mkdtemp(prefix="bitka-evening-"))
    proc, base = serve(args.tree.resolve(), where, args.serve.split())
    started, evening = time.monotonic(), None
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, headless=not args.headed)
            evening = Evening(browser, base, args.follow_wait, args.confirm == "end")
            try:
                evening.set_up()
                evening.kop_by_score_sheet()
                evening.kop_card_by_card(args.card_hands)
                evening.scopa_by_score_sheet()
                evening.confirm_the_evening()
                evening.settle_up()
            except Exception:
                args.keep = True
                for dev in (evening.desk, *evening.phones.values()):  # where each stood, for the one reading why
                    shown = " ".join(dev.raw.locator("main").inner_text().split())[:800]
                    print(f"{dev.name}: {dev.raw.url}\n  {shown}")
                    dev.raw.screenshot(path=str(where / f"{dev.name.split()[0]}.png"), full_page=True)
                raise
            browser.close()
    finally:
        stop(proc)
        if evening and args.actions:
            for step, who, action, taps, typed in evening.tally.actions:
                print(f"{step[:28]:28} {who:13} {taps} {typed:2} {action}")
        if args.keep:
            print(f"the store and the server's log: {where}")
        else:
            shutil.rmtree(where, ignore_errors=True)
    seconds = time.monotonic() - started
    print(f"An evening through the pages ({args.tree.resolve()}), {seconds:.0f} s. Each cell: taps, and the "
          "characters typed; a list counts two taps, a text field one and a key per character.\n")
    print(table(evening.tally))
    print("\nTargets (issue 43):\n" + "\n".join(f"- {t}" for t in TARGETS))
    if args.json:
        args.json.write_text(json.dumps(figures(evening.tally, seconds, args.actions), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
