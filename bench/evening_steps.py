"""What a person does on bitka's pages during an evening, one small step each, for
bench/evening.py: reach a page by tapping links, confirm a result, fill a score sheet, pick up
cards and play them, give pay-to details, mark a payment paid.

Each step finds its controls as a person does, by what they are and not by the page's words
(one phone reads Polish): a link by where it goes, a form by where it posts and its stable
field names. Where the pages offer a quicker way (the banner that confirms everything waiting
for the reader, a page that follows the table to its next hand), the step takes it, and says
which way it took; else it does what today's pages need (a reload where a page is out of
date, a tap through the group and the table). Every action goes through the device's counted
page (bench/taps.py): nothing a step does is left uncounted.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from .taps import Counted, Tally, raw

NAVIGATION = 30_000  # ms a tap may take to open its page
SHOWN = 30_000  # ms a page may take to show what the step waits for (a live part polls every 2 s today)
ERROR = ".field-error, main .problem"


@dataclass
class Device:
    """A phone or the admin's desk: its person's name and the counted page it shows."""
    name: str
    page: Counted
    tally: Tally
    follow_wait: float = 5.0  # seconds a live page is given to bring news by itself before a reload

    @property
    def raw(self):
        return raw(self.page)

    @property
    def path(self) -> str:
        return urlsplit(self.raw.url).path

    def query(self) -> dict:
        return parse_qs(urlsplit(self.raw.url).query)

    def note(self, text: str) -> None:
        self.tally.note(text, self.name)

    def visible(self, css: str):
        """The first visible element ``css`` finds on the page now, or None."""
        found = self.page.locator(css).locator("visible=true")
        return found.first if found.count() else None

    def mark(self, css: str) -> None:
        """Mark what ``css`` finds now, so that ``new`` finds only what a tap brings after it."""
        self.raw.evaluate("css => document.querySelectorAll(css).forEach((e) => { e.dataset.benchBefore = '1'; })",
                          css)

    def new(self, css: str):
        """The first visible element ``css`` finds that was not there at the last ``mark``, or None."""
        return self.visible(", ".join(f"{one.strip()}:not([data-bench-before])" for one in css.split(",")))

    def tap(self, control, done=None) -> None:
        """Tap a control and wait for what it leads to: a new page loaded (a link, a form sent
        as a form or by the page's script, which may first change the address in place), or,
        where the page's script answers in place, ``done()`` true of the page."""
        self.raw.evaluate("window.benchTapped = true")
        control.click()
        deadline = time.monotonic() + NAVIGATION / 1000
        loaded = "document.readyState === 'complete'"
        while not (self._safely(lambda: self.raw.evaluate(f"!window.benchTapped && {loaded}"))
                   or done and self._safely(lambda: self.raw.evaluate(loaded) and done())):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: the tap at {self.raw.url} led nowhere")
            self.raw.wait_for_timeout(50)
        self.raw.wait_for_load_state()

    def reload(self, why: str) -> None:
        """The reader's refresh of a page out of date."""
        with self.tally.moving():
            self.page.reload()
        self.note(why)

    def move(self, control) -> None:
        """Tap a link that only takes the reader to another page."""
        with self.tally.moving():
            self.tap(control)

    def is_live(self) -> bool:
        """Does the page keep a part of itself up to date (a hand's, today; more pages soon)?"""
        return self.raw.locator("#live, [data-live]").count() > 0

    def news(self, paths: list[str]) -> bool:
        """On a live page: wait up to ``follow_wait`` seconds for it to go to one of ``paths``
        by itself, or to show a link to one. True if it did."""
        return self.appears(lambda: self.path in paths or any(self.visible(link_to(p)) for p in paths))

    def appears(self, shown) -> bool:
        """Wait up to ``follow_wait`` seconds for ``shown()`` to be true of the page (it keeps
        itself up to date: no tap). True if it became so."""
        deadline = time.monotonic() + self.follow_wait
        while time.monotonic() < deadline:
            if self._safely(shown):
                return True
            self.raw.wait_for_timeout(150)
        return False

    @staticmethod
    def _safely(read):
        """``read()``, or False while the page is between two documents."""
        try:
            return read()
        except Exception as e:  # playwright's Error: the page moved on while it was read
            if "context was destroyed" in str(e) or "navigat" in str(e) or "Target" in str(e):
                return False
            raise


def link_to(path: str) -> str:
    return f'a[href="{path}"], a[href^="{path}?"], a[href^="{path}#"]'


def reach(dev: Device, chain: list[str]) -> None:
    """Open ``chain[-1]`` by tapping links, as a person does: the link to the deepest page of
    ``chain`` (the group's page, then a table's, then a hand's or a form's) this page shows,
    page after page. A page of the chain that does not show the way on is out of date: it is
    given a moment if it is live, else reloaded. A live page of the same table (a hand's) is
    given a moment to follow to the target by itself."""
    target, waited = chain[-1], False
    for _ in range(8):
        if dev.path == target:
            return
        depth = next((d for d in range(len(chain) - 1, -1, -1) if dev.visible(link_to(chain[d]))), None)
        here = chain.index(dev.path) if dev.path in chain else None
        if here is not None and (depth is None or depth <= here):  # the way on is not shown yet
            if dev.is_live() and not waited:
                waited = True
                if dev.news(chain[here + 1:]):
                    dev.note(f"the {kind(chain[here])} showed the way on by itself")
                    continue
            dev.reload(f"reloaded the {kind(dev.path)}")
            continue
        if (depth is None or depth < len(chain) - 1) and not waited and len(chain) > 2 and dev.is_live() \
                and dev.visible(link_to(chain[1])):
            waited = True
            if dev.news([target]):
                dev.note(f"{'followed to' if dev.path == target else 'was shown'} the {kind(target)} by itself")
                continue
        if depth is None:
            raise RuntimeError(f"{dev.name}: no way from {dev.path} to {target}")
        dev.move(dev.visible(link_to(chain[depth])))
    raise RuntimeError(f"{dev.name}: did not reach {target} (at {dev.raw.url})")


def kind(path: str) -> str:
    """A page's kind, for the notes: "group page", "table page", "hand page", "score sheet"."""
    parts = path.strip("/").split("/")
    if len(parts) == 2:
        return "group page"
    if parts[-1] == "result":
        return "score sheet"
    return {"tables": "table page", "hands": "hand page"}.get(parts[2], path)


# --- confirming ---------------------------------------------------------------------------

def waiting_for(dev: Device, names: list[str]) -> list[str]:
    """Whom the hand on ``dev``'s page still waits for, by name ("Still to agree: ...")."""
    said = dev.raw.locator("section.verdict [role=status]")
    text = " ".join(said.all_inner_texts()) if said.count() else ""
    return [n for n in names if n in text]


def confirm(dev: Device, group: str, table: str, hand: str) -> None:
    """``dev``'s person confirms the result of ``hand`` (paths) from wherever their phone is:
    with the banner that confirms all that waits for them where a page shows it, else a
    Confirm on this page (the hand's, the table's), else on the group page's list. A page
    that shows none of them is out of date: given a moment if it is live, else reloaded where
    it shows the banner (every page, once there is one), else the group page is opened."""
    shown = f'#waiting form button[type=submit], form[action="{hand}/verdict"] button[type=submit]'
    tapped, waited = 0, False
    for _ in range(6):
        banner = dev.visible("#waiting form button[type=submit]")
        own = dev.visible(f'form[action="{hand}/verdict"]:has(input[name=action][value=confirm]) '
                          f'button[type=submit]')
        every = dev.visible(f'form[action="{table}/confirm"] button[type=submit]')
        if banner or own or every:  # and again on the page it leads to, while it still shows one
            where = kind(dev.path)
            dev.tap(banner or own or every)
            tapped += 1
            dev.note(f"confirmed with the banner on the {where}" if banner else
                     f"confirmed on the {where}" + ("" if own else " (all at its table)"))
            continue
        if tapped:
            return
        if dev.is_live() and not waited:
            waited = True
            if dev.appears(lambda: dev.visible(shown)):
                dev.note(f"the {kind(dev.path)} showed it by itself")
                continue
        if dev.path == group or dev.raw.locator("#waiting").count():
            dev.reload(f"reloaded the {kind(dev.path)}")
        else:
            reach(dev, [group])
    if not tapped:
        raise RuntimeError(f"{dev.name}: no way to confirm {hand}")


# --- the score sheet ----------------------------------------------------------------------

LOG = 'button[name="confirm"][value="yes"]'
SHOW = 'button[name="confirm"][value="no"]'


def set_field(dev: Device, name: str, value) -> None:
    """Give a score sheet's field ``value`` however the page asks it (a list, ticks, a tap per
    answer, a text field, the doubles' buttons), tapping only what changes it."""
    if name == "doubles":
        _doubles(dev, [str(v) for v in value])
        return
    if isinstance(value, list):  # ticked names
        for box in dev.page.locator(f'input[type=checkbox][name="{name}"]').all():
            if box.is_checked() != (box.get_attribute("value") in [str(v) for v in value]):
                _tick(box)
        return
    value = str(value)
    chosen = dev.visible(f'select[name="{name}"]')
    if chosen:
        if chosen.input_value() != value:
            chosen.select_option(value)
        return
    radio = dev.page.locator(f'input[type=radio][name="{name}"][value="{value}"]')
    if radio.count():
        if not radio.first.is_checked():
            _tick(radio.first)
        return
    button = dev.visible(f'button[name="{name}"][value="{value}"]')
    if button:
        dev.tap(button)
        return
    field = dev.visible(f'input[name="{name}"]:not([type=hidden]), textarea[name="{name}"]')
    if field is None:
        raise RuntimeError(f"{dev.name}: the score sheet at {dev.path} has no field {name}")
    if field.input_value() != value:
        field.fill(value)


def _tick(box) -> None:
    """Tap a tick box or a radio button: itself, or the label it sits in when a style hides it."""
    (box if box.is_visible() else box.locator("xpath=ancestor::label[1]")).click()


def _doubles(dev: Device, wanted: list[str]) -> None:
    held = dev.page.locator('input[type=hidden][name="doubles"]').first

    def now() -> list[str]:
        return held.input_value().split() if held.count() else []
    for _ in range(2 * len(wanted) + 8):
        given = now()
        if given == wanted:
            return
        if given == wanted[:len(given)]:
            after = [*given, wanted[len(given)]]
            dev.tap(dev.visible(f'button[name="double"][value="{after[-1]}"]'), done=lambda after=after: now() == after)
        else:
            dev.tap(dev.visible('button[name="undo"]'), done=lambda given=given: now() != given)
    raise RuntimeError(f"{dev.name}: the doubles would not become {wanted}")


def score_sheet(dev: Device, group: str, table: str, attempts: list[dict]) -> str:
    """Log a hand's result from the score sheet: each of ``attempts`` (fields to give) shown in
    turn, every one but the last refused, the last logged. A value the page offers after a
    refusal is tapped, not typed; a sheet that asks bitka by itself once it is answered is
    given a moment to, else "Show the settlement" is tapped. The hand's path."""
    reach(dev, [group, table, f"{table}/result"])
    for number, fields in enumerate(attempts, 1):
        want = LOG if number == len(attempts) else ERROR
        dev.mark(f"{ERROR}, {LOG}")
        for name, value in fields.items():
            offered = dev.visible(f'button[name="take"][value="{name}:{value}"]')
            if offered:
                dev.tap(offered, done=lambda: dev.new(f"{ERROR}, {LOG}"))
                dev.note("tapped a value the sheet offered")
            else:
                set_field(dev, name, value)
        if not dev.new(f"{ERROR}, {LOG}"):
            if dev.raw.locator("[data-sheet]").count() and dev.appears(lambda: dev.new(f"{ERROR}, {LOG}")):
                dev.note("the sheet asked bitka by itself")
            else:
                dev.tap(dev.visible(SHOW), done=lambda: dev.new(f"{ERROR}, {LOG}"))
        if not dev.new(want):
            raise RuntimeError(f"{dev.name}: attempt {number} at {dev.path} did not end as expected: "
                               + " ".join(dev.raw.locator("main").inner_text().split())[:400])
        if want == ERROR:
            dev.note(f"refused ({' '.join(dev.new(ERROR).inner_text().split()).split(': ')[0][:70]})")
    dev.tap(dev.visible(LOG))
    if "/hands/" not in dev.path:
        raise RuntimeError(f"{dev.name}: the result was not logged: {dev.page.locator('main').inner_text()[:300]}")
    return dev.path


# --- card by card ---------------------------------------------------------------------------

PLAY = "form:has(input[name=action][value=play]) button[type=submit]"


def deal_by_seats(dev: Device, group: str, table: str) -> str:
    """Tap "Deal" (each phone enters its own cards) on this page if it offers it (a finished
    hand's page may), else on the table's: the new hand's path."""
    deal = f'form[action="{table}/play"] button[type=submit]'
    if not dev.visible(deal):
        reach(dev, [group, table])
    for _ in range(3):
        if not dev.visible(deal):
            dev.reload(f"reloaded the {kind(dev.path)} for its Deal button")
            continue
        where = kind(dev.path)
        dev.tap(dev.visible(deal))
        if "stale" in dev.query():
            dev.note("its Deal button was out of date")
            continue
        if "/hands/" in dev.path:
            dev.note(f"dealt from the {where}")
            return dev.path
    raise RuntimeError(f"{dev.name}: could not deal at {table}")


def pick_up(dev: Device, group: str, table: str, hand: str, cards: list[str]) -> None:
    """Open the hand, tick the cards picked up, send them."""
    reach(dev, [group, table, hand])
    form = dev.page.locator("form.picker:has(input[name=action][value=cards])")
    expect(raw(form)).to_be_visible(timeout=SHOWN)
    for card in cards:
        form.locator(f'label.pick:has(input[name=card][value="{card}"])').click()
    dev.tap(form.locator("button[type=submit]"), done=lambda: not form.count())


def call(dev: Device, word: str) -> None:
    """Make a call before the first card: open it, then say yes."""
    offer = dev.page.locator(f'details.call:has(input[name=call][value="{word}"])')
    expect(raw(offer)).to_be_visible(timeout=SHOWN)
    offer.locator("summary").click()
    dev.tap(offer.locator("button[type=submit]"), done=lambda: not offer.count())


def whose_turn(dev: Device, names: list[str]) -> str | None:
    """Whose turn ``dev``'s page says it is (its own when it names nobody), or None."""
    turn = dev.raw.locator("#live .turn, .now .turn")
    if not (turn.count() or dev.appears(lambda: turn.count())):
        return None
    text = turn.first.inner_text()
    return next((n for n in names if n != dev.name and n in text), dev.name)


def play_a_card(dev: Device) -> None:
    """Tap the first card this phone may play."""
    card = dev.page.locator(PLAY).first
    expect(raw(card)).to_be_visible(timeout=SHOWN)
    which = card.locator("xpath=ancestor::form[1]").locator("input[name=card]").input_value()
    played = dev.page.locator(f'form:has(input[name=action][value=play]):has(input[name=card][value="{which}"])')
    dev.tap(card, done=lambda: not played.count())


# --- settling up ----------------------------------------------------------------------------

def transfers(dev: Device) -> list[tuple[str, str]]:
    """The settle-up list on ``dev``'s page: (payer, receiver) by name."""
    return [tuple(li.locator("strong").all_inner_texts()[:2])
            for li in dev.raw.locator("ul.transfers > li:has(span.amount)").all()]


def pay_to(dev: Device, group: str, details: dict[str, str]) -> None:
    """Give how one takes money (the form on the group page): IBAN, name, BLIK phone."""
    reach(dev, [group])
    form = dev.page.locator('form:has([name="iban"])').first
    opener = dev.visible("details:has(form [name=iban]) > summary")
    if opener and not dev.raw.locator("details:has(form [name=iban])").first.evaluate("d => d.open"):
        opener.click()
    for name, value in details.items():
        field = form.locator(f'[name="{name}"]')
        if field.input_value() != value:
            field.fill(value)
    dev.tap(form.locator("button[type=submit]"))
    problem = dev.raw.locator(ERROR)
    if problem.count():
        raise RuntimeError(f"{dev.name}: pay-to refused: {problem.first.inner_text()}")


def _transfer(dev: Device, payer: str, receiver: str):
    """The settle-up line of ``payer`` to ``receiver`` on the page, or None."""
    for li in dev.page.locator("ul.transfers > li:has(span.amount)").all():
        if li.locator("strong").all_inner_texts()[:2] == [payer, receiver]:
            return li
    return None


def pay(dev: Device, group: str, receiver: str) -> list[str]:
    """The payer opens the settle-up list and copies the receiver's BLIK phone (the bank's QR
    code is scanned by the banking app: no tap here). What the line offered: "code", "BLIK"."""
    reach(dev, [group])
    line = _transfer(dev, dev.name, receiver)
    if line is None or not line.locator(".pay-up").count():
        dev.reload("reloaded the group page to see how to pay")
        line = _transfer(dev, dev.name, receiver)
    offered = []
    if line.locator(".pay-up svg").count():
        offered.append("code")
    blik = line.locator('button[data-copy^="+48"]').locator("visible=true")
    if blik.count():
        blik.first.click()
        offered.append("BLIK")
    return offered


def mark_paid(dev: Device, group: str, payer: str, receiver: str) -> None:
    """Mark the transfer of ``payer`` to ``receiver`` paid (the receiver, or the admin)."""
    reach(dev, [group])
    line = _transfer(dev, payer, receiver)
    if line is None or not line.locator('form[action$="/payments"]').count():
        dev.reload("reloaded the group page to mark it paid")
        line = _transfer(dev, payer, receiver)
    dev.tap(line.locator('form[action$="/payments"] button[type=submit]'))


def got_it(dev: Device, group: str) -> None:
    """The receiver of a payment the admin marked says they got the money: with the banner of
    all that waits for them where a page shows it, else on the group page's list."""
    for _ in range(3):
        banner = dev.visible("#waiting form button[type=submit]")
        button = banner or dev.visible('form[action*="/payments/"][action$="/received"] button[type=submit]')
        if button:
            where = kind(dev.path)
            dev.tap(button)
            dev.note(f"said it got the money with the banner on the {where}" if banner else
                     f"said it got the money on the {where}")
            return
        if dev.path == group:
            dev.reload("reloaded the group page to say it got the money")
        else:
            reach(dev, [group])
    raise RuntimeError(f"{dev.name}: no payment to say it got")
