"""The group's page: where everyone stands (a table of the balances and a chart of their
last moves), how to settle up, the results that do not count yet, the tables opened last
(every table is on the group's list of tables, a page at a time), the tournaments (and where
the reader sits in each one's round drawn last: "Your table: 3, seat 2"), and for the admin
the group's settings and how the server's backups stand. In a group of more than
``SHOWN_BALANCES`` members it lists the reader's balance and those furthest from square, and
the reader's transfers and the largest: the group's money page has every one.
"""
from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask_babel import gettext as _

from decimal import Decimal

from projections import balance_steps, balances, group_tables
from projections import tournament_cards as cards
from projections.balances import listed
from projections.groups import member_names
from .. import handlers
from ..commands import ConfirmPayment
from ..handlers import lookups
from ..i18n.languages import current
from ..i18n.money import money
from ..views import balances_view, settle_up_view
from . import live_parts, once, pay_shown, tournament_shown
from .admin_view import admin_context
from .base import bp, page_of, table_title, together, writer_of
from .chart import balance_chart, legend
from .hand_shown import balances_pending, settlement_hash, verdict_choices
from .signed_form import in_words, signed_of, signer


@bp.get("/g/<group>")
def group_page(group):
    """Where everyone in the group stands, and what waits for whom."""
    def view(r, grow, principal, form_token):
        return render_template("group.html", version=r.version(group), **_group(r, group, grow, principal, form_token))
    return page_of(group, view)


@bp.get("/g/<group>/live")
def group_live(group):
    """The group page's live part again, as soon as a result, a payment, a table, a member or
    a deal moved (a card played does not move it: a deal does, since a phone seated at a table
    where each phone logs its own cards is taken to the hand dealt there)."""
    def view(r, grow, principal, form_token):
        return live_parts.block("group.html", **_group(r, group, grow, principal, form_token))
    return live_parts.answer(group, None, view, quiet=PLAY_EVENTS)


PLAY_EVENTS = frozenset({"seat_cards", "bid", "trick", "play", "claim"})  # nothing the group's page shows


def _group(r, group: str, grow: dict, principal, form_token: str) -> dict:
    """What the group's page shows its reader."""
    brow = r.row("balances", group, "") or {"members": {}}
    signer(r, group, principal)
    tournaments = {card["id"]: card for card in tournament_shown.listed(r, group)}  # by name
    over = sum(cards.tables_over(card) for card in tournaments.values())
    tables = table_cards(r, grow, _opened_last(r, group, tournaments), tournaments)
    names, series, hands = _balance_series(r, group, grow, principal.subject, brow)
    chart = balance_chart(names, series, grow["digits"], grow["currency"], hands)
    every = balances_view(grow, brow)
    shown = _furthest(every["balances"], brow["members"], principal.subject)
    settle = settle_up_view(grow, brow)
    transfers = _largest(settle["transfers"], principal.subject)
    return dict(group=grow, principal=principal, form_token=form_token,
            balances={**every, "balances": shown}, balances_more=len(every["balances"]) - len(shown),
            settle={**settle, "transfers": payable(r, grow, principal, transfers)},
            transfers_more=len(settle["transfers"]) - len(transfers), waiting=_waiting(r, grow, principal),
            more_waiting=max(0, r.pending_count(group) - SHOWN_WAITING),
            tables=tables, tables_over=over, tables_more=max(0, grow["table_count"] - over - len(tables)),
            chart=chart,
            series=list(zip(names, series, strict=True)), chart_lines=len(names) < len(grow["members"]),
            chart_steps=len(hands) == CHART_STEPS,
            legend=legend(names), digits=grow["digits"], admin=principal.is_admin,
            payments=pay_shown.payments_waiting(r, grow, brow, principal),
            corrections=_corrections_waiting(r, grow, brow),
            once=once.key(), pay_form=None if principal.is_admin else
            pay_shown.form_values(grow, principal.subject), **admin_context(grow),
            tournaments=[{"row": card, "state": tournament_shown.state(card)} for card in tournaments.values()],
            mine=tournament_shown.where_i_sit(r, group, list(tournaments.values()), principal.subject))


SHOWN_BALANCES = 30  # the balances the group's page lists in a bigger group; its money page lists every one
SHOWN_TRANSFERS = 30  # the settle-up transfers it lists, likewise


def _furthest(lines: list[dict], members: dict[str, int], reader: str | None) -> list[dict]:
    """The balances the group's page lists, in the group's order: every one in a group of up to
    ``SHOWN_BALANCES`` members, else the reader's and those furthest from square (up or down)."""
    if len(lines) <= SHOWN_BALANCES:
        return lines
    chosen = {reader} if any(b["member"] == reader for b in lines) else set()
    others = sorted((b["member"] for b in lines if b["member"] not in chosen),
                    key=lambda m: -abs(members.get(m, 0)))  # stable: level ones in the group's order
    chosen.update(others[:SHOWN_BALANCES - len(chosen)])
    return [b for b in lines if b["member"] in chosen]


def _largest(transfers: list[dict], reader: str | None) -> list[dict]:
    """The settle-up transfers the group's page lists, in the settle-up's order: every one up
    to ``SHOWN_TRANSFERS``, else the reader's (to pay or to receive) and the largest."""
    if len(transfers) <= SHOWN_TRANSFERS:
        return transfers
    mine = [i for i, t in enumerate(transfers) if reader in (t["from"], t["to"])]
    others = sorted((i for i in range(len(transfers)) if i not in mine),
                    key=lambda i: -Decimal(transfers[i]["amount"]))
    chosen = set(mine + others[:max(0, SHOWN_TRANSFERS - len(mine))])
    return [t for i, t in enumerate(transfers) if i in chosen]


def payable(r, grow: dict, principal, transfers: list[dict]) -> list[dict]:
    """The transfers ``transfers`` as the pages list them: whether the reader may mark each one
    paid (the admin may, and whoever receives it) and how its payer can pay (the receiver's
    codes and what to copy)."""
    evening = pay_shown.evening_of(r, grow["id"]) if transfers else ""
    return [{**t, "may_mark": principal.is_admin or principal.subject == t["to"],
             "pay": pay_shown.ways(grow, t, evening)} for t in transfers]


@bp.get("/g/<group>/money")
def money_page(group):
    """Every member's balance and every transfer that settles the group up: the group's page
    lists only the reader's and those furthest from square in a group of many members."""
    def view(r, grow, principal, form_token):
        brow = r.row("balances", group, "") or {"members": {}}
        signer(r, group, principal)
        settle = settle_up_view(grow, brow)
        return render_template("money.html", group=grow, principal=principal, form_token=form_token,
                               balances=balances_view(grow, brow), once=once.key(),
                               settle={**settle, "transfers": payable(r, grow, principal, settle["transfers"])})
    return page_of(group, view)


SHOWN_WAITING = 50  # the results that wait listed on the group's page; each table's page shows its own
SHOWN_TABLES = 12  # the tables the group's page lists (those opened last); its list of tables shows every one
TABLES_PAGE = 100  # the tables a page of the group's list of tables shows


def _opened_last(r, group: str, tournaments: dict[str, dict]) -> list[str]:
    """The ``SHOWN_TABLES`` tables the group opened last, in the order they were opened, those
    of tournament rounds played out left out (by the tournaments' cards): the group's order of
    tables read from its end, a batch at a time. A round's tables were opened one after
    another, so the first of a round played out sends the reading on to before the round."""
    over = {key: set(card["finished"]) for key, card in tournaments.items() if card["finished"]}
    found, before, size = [], "", 2 * SHOWN_TABLES
    while len(found) < SHOWN_TABLES:
        batch = r.rows_in_order(group_tables.ORDER, group, before, size, newest_first=True)
        rows = r.rows_of("table", group, [row["id"] for _key, row in batch]) if over else {}
        for key, row in batch:
            before, trow = key, rows.get(row["id"]) or {}
            if trow.get("round") in over.get(trow.get("tournament"), ()):
                first = tournaments[trow["tournament"]]["first"][trow["round"] - 1]
                before = lookups.table_place(r, group, first) or key
                break
            found.append(row["id"])
        else:
            if len(batch) < size:
                break
    return found[:SHOWN_TABLES][::-1]


def table_cards(r, grow: dict, ids: list[str], tournaments: dict[str, dict] | None = None) -> list[dict]:
    """The tables ``ids`` of the group as its pages list them: each row, who sits at it, its
    title and, for a tournament's, its place in its round (rows read together, names once,
    each tournament's card once: from ``tournaments`` by id when the request read them)."""
    group, names = grow["id"], member_names(grow)
    rows = r.rows_of("table", group, ids)
    if tournaments is None:
        tournaments = r.rows_of(cards.CARD, group, sorted({t["tournament"] for t in rows.values()
                                                           if "tournament" in t}))
    shown = []
    for table in ids:
        trow = rows.get(table)
        if trow is None:
            continue
        shown.append({"row": trow, "seats": [names.get(m, m) for m in trow["seats"]], "title": table_title(trow, grow),
                      "place": tournament_shown.table_place(r, group, trow, tournaments)})
    return shown


@bp.get("/g/<group>/tables")
def tables_page(group):
    """Every table of the group, a page at a time in the order they were opened: the group's
    page lists only those opened last. ``?after=<table id>`` starts after that table."""
    def view(r, grow, principal, form_token):
        after = request.args.get("after", "")
        shown, more = lookups.table_ids(r, group, after, TABLES_PAGE)
        place = lookups.table_place(r, group, after)
        start = r.rows_before(group_tables.ORDER, group, place) + 1 if place else 0
        return render_template("tables.html", group=grow, tables=table_cards(r, grow, shown), first=start + 1,
                               total=grow["table_count"], next=shown[-1] if more and shown else None)
    return page_of(group, view)


def _waiting(r, grow: dict, principal) -> list[dict]:
    """The first results that do not count yet, named as people name them, each with what
    the viewer may say of it (confirm, dispute)."""
    shown, names = [], member_names(grow)
    for entry in listed(r.pending_entries(grow["id"], limit=SHOWN_WAITING), grow["digits"]):
        trow = r.row("table", grow["id"], entry["table"])
        seats = [names.get(m, m) for m in trow["seats"]]
        number = r.hand_number(grow["id"], entry["table"], entry["hand"]) or "?"
        waiting = balances_pending(r, grow["id"], entry["hand"])
        verdict = verdict_choices(waiting, principal, trow)
        model = lookups.hand_model(r, grow["id"], entry["hand"]) if verdict["confirm"] else None
        shown.append({"hand": entry["hand"], "state": entry["state"], "title": _hand_at(grow, trow, number, seats),
                      "payouts": [(seats[p["seat"]], p["amount"]) for p in entry["payouts"]],
                      "waiting_for": [names.get(m, m) for m in entry["waiting_for"]],
                      "verdict": verdict, "settlement": settlement_hash(r, grow["id"], model) if model else None})
    return shown


def _corrections_waiting(r, grow: dict, brow: dict) -> list[dict]:
    """The corrections (and voids) that wait for the members they lower, each by its hand's
    name and who it waits for."""
    shown, names = [], member_names(grow)
    for entry in balances.corrections_waiting(brow):
        trow = r.row("table", grow["id"], entry["table"])
        seats = [names.get(m, m) for m in trow["seats"]]
        number = r.hand_number(grow["id"], entry["table"], entry["hand"]) or "?"
        shown.append({"hand": entry["hand"], "title": _hand_at(grow, trow, number, seats),
                      "waiting_for": [m["name"] for m in grow["members"]  # in the group's order
                                      if m["id"] in entry["waiting_for"] and m["id"] not in entry["agreed"]]})
    return shown


def _hand_at(grow: dict, trow: dict, number, seats: list[str]) -> str:
    """A hand named by its number at its table, the table as the group's list of tables names
    it (its way of playing and its stake) and by who sits at it: two tables of one game apart."""
    # Translators: a table's name: %(game)s is the game, %(stake)s the stake, an amount of money.
    table = _("%(game)s at %(stake)s", game=table_title(trow, grow, players=False),
              stake=money(trow["stake"], grow["currency"], current()))
    # Translators: a result that waits, by its hand's number at its table; %(table)s is the table's name
    # ("<a way to play> at 1.00 zł"), %(players)s who sits at it ("Ala, Bob and Cyd").
    return _("Hand %(number)s at %(table)s (%(players)s)", number=number, table=table, players=together(seats))


CHART_STEPS = 40  # the balance steps the chart draws: the last ones
CHART_LINES = 8  # the members it draws, one line each (the chart has eight kinds of line)


def _balance_series(r, group: str, grow: dict, viewer: str | None,
                    brow: dict) -> tuple[list[str], list[list[int]], list[bool]]:
    """The chart's lines: each member's balance before the last ``CHART_STEPS`` steps that moved
    one (a hand that counted, a void, a correction, a payment) and after each, and whether each
    step was a hand's (the chart counts them), from the row that keeps the last moves and the
    balances now (``brow``). In a group of more than ``CHART_LINES`` members, the lines of
    those whose balance moved most over those steps (the reader's among them)."""
    kept = r.row(balance_steps.NAME, group, "")
    states, hands = balance_steps.states(kept, brow["members"])
    states, hands = states[-CHART_STEPS - 1:], hands[-CHART_STEPS:]
    members = [m["id"] for m in grow["members"]]
    if len(members) > CHART_LINES:
        # Only a member a drawn step moved has a line that is not flat: the others are not compared.
        stepped = {m for step in (kept or {}).get("steps", [])[-CHART_STEPS:] for m in step["moved"]}
        moved = {m: max(s.get(m, 0) for s in states) - min(s.get(m, 0) for s in states) for m in members
                 if m in stepped}
        chosen = {viewer} if viewer in set(members) else set()
        chosen.update(sorted((m for m in members if moved.get(m)), key=lambda m: -moved[m])[:CHART_LINES - len(chosen)])
        members = [m for m in members if m in chosen]
    names = member_names(grow)
    return [names[m] for m in members], [[s.get(m, 0) for s in states] for m in members], hands


@bp.route("/g/<group>/payments/<int:seq>/received", methods=["POST"])
def payment_received(group, seq):
    """The receiver of a payment someone else recorded says they got it (signed on their
    phone): it counts from now on."""
    principal = writer_of(group)
    if principal is None:
        return redirect(url_for("web.sign_in_page"))
    signed = signed_of(request.form)

    def received(w):
        with in_words(signed is not None):
            handlers.handle(ConfirmPayment(group, principal.subject, seq, signed), w)
        return url_for("web.group_page", group=group)
    return once.write(group, f"received {seq}", {"payment": seq}, received)
