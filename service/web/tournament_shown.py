"""A tournament as its pages show it: its way of playing, each round's seat plan, each table's
running score ("deal 17 of 32"), the standings with every round's place, who has checked in
for the next round, the draw said in words and run again (from the players' check-ins, in a
tournament created since members hold keys), who was drawn without their check-in, where a
player sits in the round drawn last, and the watch links a browser made. No routes: the
organizer's pages (tournaments.py), the printed ones (tournament_paper.py), the watch page
(watch.py), the group's and a table's pages read their tournaments from here.

Everything is read from the rows the API reads (projections/tournaments.py and
projections/standings_row.py, through service/tournament_views.py): a page costs a row per
table it shows, whatever the hands played. A page about one tournament reads its row and its
standings' totals once; a page that lists tournaments, names where the reader sits or a
table's place in its round reads each tournament's card and the seats it needs
(projections/tournament_cards.py), never the rows that hold every player and table. Members
are named from one lookup a request. A seat plan of a round drawn from check-ins reads those
check-ins back from the log (the rows keep only the next round's).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
from decimal import Decimal
from typing import Mapping

from flask_babel import gettext as _, ngettext

from events import draw
from events.money import format_amount
from projections import standings_row, tournament_cards as cards, tournaments as fold
from projections.groups import member_names
from projections.hands import game_of
from projections.tournaments import table_sizes
from ..i18n import phrases
from ..i18n.languages import current
from ..i18n.money import number
from ..routes.invitations import public_url
from ..routes.tournaments import watch_digest
from ..tournament_views import rounds_over, standings_of, standings_view
from .base import together

ENTRY = "entry"  # a table rule, not the game's: who logs the cards


def listed(r, group: str) -> list[dict]:
    """The group's tournaments by name, each by its card (projections/tournament_cards.py)."""
    return sorted(r.rows(cards.CARD, group).values(), key=lambda card: (card["name"].casefold(), card["id"]))


def card_of(r, group: str, row: dict) -> dict:
    """The card of the tournament whose row the request read."""
    return r.row(cards.CARD, group, row["id"]) or cards.card(row, rounds_over(r, group, row))


def way_of(row: dict) -> str:
    """The way of playing a tournament's tables, as the open-a-table form names it (its preset's
    title, in the reader's language), else its game's name."""
    game = game_of(row["game"])
    rules = game.parse_rules({k: v for k, v in row["rules"].items() if k != ENTRY})
    for preset in game.words.presets:
        if preset.players == game.seat_count(rules) and game.parse_rules(preset.rules) == rules:
            return phrases.say(preset.title, current(), game=game.name)
    return game.title


def said_points(points: str) -> str:
    """Table points (the shortest decimal, "2.5") as the reader's language writes a number."""
    value = Decimal(points)
    return number(value, current(), digits=max(0, -value.as_tuple().exponent))


def summary(card: dict, row: dict | None = None) -> dict:
    """What the tournament's list and its pages say of it, from its card (and its ``row``,
    where the page shows more of it)."""
    drawn, played = cards.drawn(card), len(card["finished"])
    return {"row": card if row is None else row, "way": way_of(card), "drawn": drawn, "played": played,
            "players": card["players"], "state": _state(card, drawn, played),
            "places": ", ".join(said_points(str(p)) for p in card["places"]),
            "next": drawn + 1 if drawn < card["rounds"] else None}


def state(card: dict) -> str:
    """How far a tournament is, in a few words, from its card."""
    return _state(card, cards.drawn(card), len(card["finished"]))


def _state(row: dict, drawn: int, played: int) -> str:
    """How far a tournament is, in a few words."""
    if played == row["rounds"]:
        # Translators: a tournament that is over.
        return ngettext("over: its %(num)d round is played", "over: all %(num)d rounds are played", row["rounds"])
    if drawn == 0:
        # Translators: a tournament whose first round is not drawn yet.
        return ngettext("no round drawn yet (%(num)d to play)", "no round drawn yet (%(num)d to play)",
                        row["rounds"])
    # Translators: how far a tournament is: round %(number)d of its %(rounds)d is drawn (and being played).
    return _("round %(number)d of %(rounds)d", number=drawn, rounds=row["rounds"])


def round_of(row: dict, number_: int) -> dict | None:
    """The draw's answer of round ``number_``, or None if it is not drawn."""
    return row["drawn_rounds"][number_ - 1] if 1 <= number_ <= len(row["drawn_rounds"]) else None


def seat_plan(grow: dict, drawn: dict) -> list[dict]:
    """Who sits where at each table of a round: tables numbered in the draw's order, seats
    counted from 1 (the first deals first), each seat's name and whether its player was drawn
    without their check-in."""
    absent, names = set(drawn.get("absent") or ()), member_names(grow)
    return [{"number": i, "id": t["id"], "seats": [names.get(m, m) for m in t["seats"]],
             "absent": [m in absent for m in t["seats"]]}
            for i, t in enumerate(drawn["tables"], 1)]


def check_ins(grow: dict, row: dict, member: str | None) -> dict | None:
    """Who has checked in for the next round of a tournament drawn from its players' check-ins
    (None for one drawn without them, or once every round is drawn): the names of those in and
    of those not yet, in the players' order, and whether ``member`` plays and is in."""
    if not fold.by_check_ins(row) or len(row["drawn_rounds"]) >= row["rounds"]:
        return None
    checked, names = row["check_ins"], member_names(grow)
    here = [names.get(p, p) for p in row["players"] if p in checked]
    missing = [{"id": p, "name": names.get(p, p)} for p in row["players"] if p not in checked]
    return {"round": len(row["drawn_rounds"]) + 1, "count": len(row["players"]), "in": here,
            "in_said": together(here), "missing": missing, "missing_said": together(m["name"] for m in missing),
            "plays": member in row["players"], "mine": member in checked}


def absent_names(grow: dict, drawn: dict) -> list[str]:
    """The players a round was drawn without their check-in, by name, in the players' order."""
    absent = drawn.get("absent") or ()
    names = member_names(grow) if absent else {}
    return [names.get(m, m) for m in absent]


def deal_said(played: int, deals: int, playing: bool) -> str:
    """How far a table of a round is: "Deal 17 of 32: being played"."""
    if playing and played < deals:
        # Translators: how far a tournament table is; the hand in play is deal %(number)d of the round's %(deals)d.
        return _("Deal %(number)d of %(deals)d: being played", number=played + 1, deals=deals)
    if played >= deals:
        # Translators: a tournament table that has played every deal of its round.
        return ngettext("Its %(num)d deal is played", "All %(num)d deals played", deals)
    if played == 0:
        # Translators: a tournament table that has not started; %(deals)d deals are to be played there.
        return _("No deal yet (%(deals)d to play)", deals=deals)
    # Translators: how far a tournament table is, between two hands: %(number)d of its %(deals)d deals are played.
    return _("Deal %(number)d of %(deals)d played", number=played, deals=deals)


def running(r, group: str, grow: dict, row: dict, drawn: dict) -> list[dict]:
    """Each table of a round as it stands: its players with their small points so far (what
    counts of their payouts there), and how far it is ("Deal 17 of 32")."""
    ids, absent = [t["id"] for t in drawn["tables"]], set(drawn.get("absent") or ())
    scores, trows = r.rows_of(fold.SCORE, group, ids), r.rows_of("table", group, ids)
    shown, names = [], member_names(grow)
    for i, t in enumerate(drawn["tables"], 1):
        score, latest = scores.get(t["id"]), (trows.get(t["id"]) or {}).get("latest_hand")
        small, played = fold.small(score), fold.played(score)
        playing = bool(latest and latest["status"] == "playing")
        shown.append({"number": i, "id": t["id"], "played": played, "deals": row["deals"], "playing": playing,
                      "done": played >= row["deals"], "said": deal_said(played, row["deals"], playing),
                      "players": [{"name": names.get(m, m), "member": m, "absent": m in absent,
                                   "small": format_amount(small.get(m, 0), grow["digits"])} for m in t["seats"]]})
    return shown


def standings(r, group: str, grow: dict, row: dict, kept: standings_row.Kept | None = None) -> dict:
    """The standings as the API answers them, each player's rounds by number with the table's
    number in its round, and table points written as the reader writes numbers (from ``kept``,
    the standings' rows, when the request read them already)."""
    view = standings_view(r, group, row, grow, kept)
    numbers = {t["id"]: i for d in row["drawn_rounds"] for i, t in enumerate(d["tables"], 1)}
    for player in view["players"]:
        player["points_said"] = said_points(player["points"])
        player["by_round"] = {p["round"]: {**p, "number": numbers.get(p["table"]), "points_said": said_points(
            p["points"])} for p in player["rounds"]}
    view["round_numbers"] = list(range(1, len(row["drawn_rounds"]) + 1))
    view["started"] = any(player["rounds"] for player in view["players"])  # a hand was played somewhere
    return view


def with_standings(r, group: str, grow: dict, row: dict) -> tuple[dict, dict, dict]:
    """The tournament read for its page: its card, what its pages say of it and its
    standings, its standings' rows read once for all three."""
    kept = standings_of(r, group, row)
    card = cards.card(row, kept.totals["finished"])
    return card, summary(card, row), standings(r, group, grow, row, kept)


def where_i_sit(r, group: str, tournaments: list[dict], member: str | None) -> list[dict]:
    """Where ``member`` sits in the round drawn last of each tournament still going (by its
    card): the table's number in that round's order and the seat counted from 1, with the
    table's id."""
    going = [card for card in tournaments if cards.going(card)]
    if member is None or not going:
        return []
    keys = {cards.seat_key(card["id"], cards.drawn(card), member): card for card in going}
    found = r.rows_of(cards.SEAT, group, list(keys))
    return [{"tournament": card, "round": cards.drawn(card), "number": found[key]["number"],
             "table": found[key]["table"], "seat": found[key]["seat"]} for key, card in keys.items() if key in found]


def table_place(r, group: str, trow: dict, tournaments: Mapping[str, dict] | None = None) -> dict | None:
    """A tournament table's place in its tournament: the tournament's card (from
    ``tournaments`` by id when the request read it already), its round and its number in that
    round, and how far it is; None for a table of an evening."""
    if "tournament" not in trow:
        return None
    card = tournaments.get(trow["tournament"]) if tournaments is not None else r.row(
        cards.CARD, group, trow["tournament"])
    seat = r.row(cards.SEAT, group, cards.seat_key(trow["tournament"], trow["round"], trow["seats"][0]))
    if card is None or seat is None:
        return None
    played = fold.played(r.row(fold.SCORE, group, trow["id"]))
    latest = trow.get("latest_hand")
    return {"tournament": card, "round": trow["round"], "number": seat["number"],
            "said": deal_said(played, trow["deals"], bool(latest and latest["status"] == "playing"))}


def players_fit(game, said, count: int) -> tuple[int | None, int | None]:
    """The nearest player counts below and above ``count`` that the game's tables seat under
    the rules ``said``."""
    below = next((n for n in range(count - 1, 0, -1) if table_sizes(game, said, n)), None)
    above = next((n for n in range(count + 1, count + 20) if table_sizes(game, said, n)), None)
    return below, above


def draw_checked(r, group: str, grow: dict, row: dict, drawn: dict) -> dict:
    """A round's draw said in words and run again here from what it revealed: the commitment
    published before it, what its seed took besides the secret (each player's check-in, read
    from the log, in a tournament drawn from them; else the event it was drawn after and that
    event's hash), the secret, the seed and the tables; and whether each step holds (the secret
    hashes to the commitment, the seed is the secret and those hashed, the shuffle cut into
    tables gives these)."""
    number_ = drawn["round"]
    published = row.get("published") or []
    promised = published[number_ - 1] if len(published) >= number_ else None
    secret = bytes.fromhex(drawn["secret"])
    by_check_ins = fold.by_check_ins(row)
    after_hash, came = "", []
    if by_check_ins:
        came = round_check_ins(r, group, row, drawn)
        try:
            seeded = draw.seed_of_check_ins(secret, [c["entropy"] for c in came])
        except (TypeError, ValueError):  # an entropy that is no hex: the seed cannot be made again
            seeded = b""
        names = member_names(grow)
        for c in came:
            c["name"] = names.get(c["member"], c["member"])
    else:
        after_hash = r.hash_at(group, drawn["after"]) or ""
        seeded = draw.seed(secret, after_hash) if after_hash else b""
    sizes = [len(t["seats"]) for t in drawn["tables"]]
    again = draw.tables(draw.shuffled(row["players"], seeded), sizes) if seeded else []
    last = max((c["seq"] for c in came), default=None)
    return {"round": number_, "commitment": promised, "secret": drawn["secret"], "after": drawn["after"],
            "after_hash": after_hash, "seed": drawn["seed"], "next": drawn["commitment"],
            "by_check_ins": by_check_ins, "check_ins": came, "absent": absent_names(grow, drawn),
            "absent_said": together(absent_names(grow, drawn)),
            "holds": {"commitment": promised == draw.commitment(secret),
                      "seed": seeded.hex() == drawn["seed"] and (last is None or last == drawn["after"]),
                      "tables": again == [t["seats"] for t in drawn["tables"]]}}


PAGE = 200  # events read at a time, back from a draw, for its check-ins


def round_check_ins(r, group: str, row: dict, drawn: dict) -> list[dict]:
    """The check-ins round ``drawn`` was drawn from, as the log holds them (each event checked
    against its hash as it is read), in the players' order: each ``{"member", "entropy",
    "seq"}``. They lie after the previous round's draw and up to the seq the draw names, and
    the log is read back from there a page at a time until each is found, so a round whose
    players checked in just before its draw costs a page."""
    wanted = set(row["players"]) - set(drawn.get("absent") or ())
    before = row["drawn_rounds"][drawn["round"] - 2] if drawn["round"] > 1 else None
    floor = before["after"] if before else 0  # no check-in of this round comes before the previous round's draw
    found: dict[str, dict] = {}
    top = drawn["after"]
    while wanted - found.keys() and top > floor:
        start = max(floor, top - PAGE)
        for env in r.events(group, start, top - start):
            d = env.data
            if env.type == "check_in" and d.get("tournament") == row["id"] and d.get("round") == drawn["round"] \
                    and d.get("member") in wanted and d.get("member") not in found:
                found[d["member"]] = {"member": d["member"], "entropy": d.get("entropy", ""), "seq": env.seq}
        top = start
    return [found[p] for p in row["players"] if p in found]


def watch_code(key: str, group: str, tournament: str, n: int) -> str:
    """The code of the ``n``-th watch link of a tournament made under ``key`` (a browser's
    session, as its invitation links are keyed: only that browser can have it shown again):
    where it leads, then 24 bytes of HMAC, base64url, as long as a random code."""
    message = b"\n".join([b"bitka watch link", group.encode(), tournament.encode(), str(n).encode()])
    tag = base64.urlsafe_b64encode(hmac.new(key.encode("utf-8"), message, hashlib.sha256).digest()[:24]).decode()
    return f"{group}.{tournament}.{tag}"


def next_watch_code(key: str, group: str, row: dict) -> str:
    """A new watch link's code: numbered by the links the tournament has had, so none repeats."""
    return watch_code(key, group, row["id"], len(row["watches"]) + len(row.get("ended", [])))


def watches_shown(key: str | None, group: str, row: dict) -> list[dict]:
    """The tournament's open watch links: each one this browser made with its address (to
    copy, or scan off its QR code), the others by their hash only."""
    made = {}
    if key is not None:
        for n in range(len(row["watches"]) + len(row.get("ended", []))):
            code = watch_code(key, group, row["id"], n)
            made[watch_digest(code)] = public_url(f"/t/{code}")
    return [{"digest": digest, "link": made.get(digest)} for digest in row["watches"]]
