"""A tournament's handlers (API.md "Points, tables of five, tournaments and seasons"): its
creation with a commitment to the first draw, each round's draw (the secret revealed, the
seed from it and the last event's hash, the players shuffled and cut into tables that open
as ordinary tables of the round, each taking exactly its deals), and its watch links."""
from __future__ import annotations

from typing import Mapping, Sequence

from events import draw
from events.errors import Gone, NotFound, Unprocessable
from events.sentences import say
from events.store import NewEvent, Writer
from projections import tournaments as fold

from ..commands import CreateTournament, DrawRound, Watch
from .lookups import group_row, known_game, new_id, stake_of, table_rules

PLACES = (5, 3, 1, 0)  # table points by place at a table of four, unless the organizer says


def tournament_row(reader, group: str, tournament: str) -> dict:
    row = reader.row(fold.NAME, group, tournament)
    if row is None:
        raise NotFound(say("there is no tournament {tournament} in this group", tournament=repr(tournament)))
    return row


def create_tournament(c: CreateTournament, w: Writer) -> dict:
    """The tournament's row once created."""
    row, body = group_row(w, c.group), c.body
    game = known_game(body["game"])
    rules, entry = table_rules(game, body.get("rules") or {})
    players = list(body["players"])
    _check_players(row, players)
    if fold.table_sizes(game, rules, len(players)) is None:
        raise Unprocessable(say("{count} players fit no tables of this game: a table seats {size}",
                                count=len(players), size=_seats_said(game, rules)), field="players")
    places = list(body.get("places") or PLACES[:game.seat_count(rules)])  # the usual 5/3/1/0, 5/3 at a table of two
    if places != sorted(places, reverse=True):
        raise Unprocessable(say("places give the first place the most table points, then fewer or as many for each "
                                "place after"), field="places")
    if len(places) > game.seat_count(rules):
        raise Unprocessable(say("places gives table points to {count} places, but a table of this game seats {size}",
                                count=len(places), size=game.seat_count(rules)), field="places")
    digits = row["digits"]
    stake = stake_of(body.get("stake") or f"1{'.' + '0' * digits if digits else ''}", digits)
    tournament = c.tournament or new_id("x")
    data = {"tournament": tournament, "name": body["name"], "game": game.name,
            "rules": _with_entry(rules.to_data(), entry), "players": players, "rounds": body["rounds"],
            "deals": body["deals"], "places": places, "stake": stake,
            "commitment": c.secrets.commitment(c.group, tournament, 1)}
    w.append(c.group, [NewEvent("tournament_created", data)], c.actor, expected_version=w.version(c.group))
    return tournament_row(w, c.group, tournament)


def draw_round(c: DrawRound, w: Writer) -> dict:
    """The draw of the tournament's next round, as API.md answers it."""
    row = tournament_row(w, c.group, c.tournament)
    drawn = row["drawn_rounds"]
    number = len(drawn) + 1
    if number > row["rounds"]:
        raise Unprocessable(say("every round of this tournament is drawn ({rounds})", rounds=row["rounds"]))
    if drawn:
        playing = still_playing(w, c.group, row, drawn[-1])
        if playing:
            raise Unprocessable(say("round {number} is still being played at tables {tables}: each must play its "
                                    "{deals} deals before the next round is drawn",
                                    number=number - 1, tables=", ".join(playing), deals=row["deals"]))
    secret = c.secrets.secret(c.group, c.tournament, number)
    if secret is None or draw.commitment(secret) != row["commitment"]:
        raise Unprocessable(say("this server cannot reveal the secret round {number} was committed to (its key is "
                                "not the one that made the commitment), so it cannot draw it", number=number))
    after, last_hash = w.head(c.group)
    seeded = draw.seed(secret, last_hash)
    game = known_game(row["game"])
    rules, entry = table_rules(game, row["rules"])
    sizes = fold.table_sizes(game, rules, len(row["players"]))
    seats = draw.tables(draw.shuffled(row["players"], seeded), sizes)
    ids = list(c.tables) or [new_id("t") for _ in seats]
    if len(ids) != len(seats) or any(w.row("table", c.group, t) is not None for t in ids):
        raise Unprocessable(say("the round's tables need ids of their own"))
    answer = {"round": number, "secret": secret.hex(), "after": after, "seed": seeded.hex(),
              "commitment": c.secrets.commitment(c.group, c.tournament, number + 1) if number < row["rounds"]
              else None,
              "tables": [{"id": t, "seats": s} for t, s in zip(ids, seats, strict=True)]}
    opened = [NewEvent("table_opened", {"table": t, "game": game.name,
                                        "rules": game.seated(rules, len(s)).to_data(),
                                        "seats": s, "stake": row["stake"], **_entry(entry),
                                        "tournament": c.tournament, "round": number, "deals": row["deals"]}, table=t)
              for t, s in zip(ids, seats, strict=True)]
    w.append(c.group, [NewEvent("round_drawn", {"tournament": c.tournament, **answer}), *opened], c.actor,
             expected_version=w.version(c.group))
    return answer


def still_playing(reader, group: str, row: dict, round_drawn: Mapping) -> list[str]:
    """The tables of a drawn round that have not played all their deals yet."""
    return [t["id"] for t in round_drawn["tables"]
            if fold.played(reader.row(fold.SCORE, group, t["id"])) < row["deals"]]


def watch(c: Watch, w: Writer) -> None:
    """Open a watch link (its code's SHA-256 named), or end one: an unknown link is a 404,
    one ended already a 410."""
    row = tournament_row(w, c.group, c.tournament)
    if c.open:
        event = NewEvent("watch_opened", {"tournament": c.tournament, "watch": c.watch})
    elif c.watch in row["watches"]:
        event = NewEvent("watch_closed", {"tournament": c.tournament, "watch": c.watch})
    elif c.watch in row.get("ended", ()):
        raise Gone(say("this watch link was ended already"))
    else:
        raise NotFound(say("this tournament has no such watch link"))
    w.append(c.group, [event], c.actor, expected_version=w.version(c.group))


def _check_players(row: dict, players: Sequence[str]) -> None:
    known = {m["id"] for m in row["members"]}
    strangers = [p for p in players if p not in known]
    if strangers:
        raise Unprocessable(say("{members} are not members of this group", members=", ".join(map(repr, strangers))),
                            field="players")
    if len(set(players)) != len(players):
        raise Unprocessable(say("a member plays a tournament once: a player is named twice"), field="players")


def _seats_said(game, rules) -> str:
    size = game.seat_count(rules)
    return say("{size} or {larger}", size=size, larger=size + 1) if game.seated(rules, size + 1) else str(size)


def _entry(entry: str | None) -> dict:
    return {"entry": entry} if entry and entry != "scorer" else {}


def _with_entry(rules: dict, entry: str | None) -> dict:
    return {**rules, **_entry(entry)}
