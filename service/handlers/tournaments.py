"""A tournament's handlers (API.md "Points, tables of five, tournaments and seasons"): its
creation with a commitment to the first draw, each round's draw (the secret revealed, the
seed from it and the last event's hash, the players shuffled and cut into tables that open
as ordinary tables of the round, each taking exactly its deals), and its watch links."""
from __future__ import annotations

from typing import Mapping, Sequence

from events import draw
from events.errors import Gone, NotFound, Refused, Unprocessable
from events.sentences import say
from events.store import NewEvent, Writer
from projections import tournaments as fold

from .. import signing
from ..commands import CheckIn, CreateTournament, DrawRound, Watch
from .lookups import group_row, known_game, new_id, rules_said, stake_of, table_rules

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
    said = rules_said(body.get("rules") or {})
    players = list(body["players"])
    _check_players(row, players)
    if fold.table_sizes(game, said, len(players)) is None:
        raise Unprocessable(say("{count:d} players fit no tables of this game: a table seats {size}",
                                count=len(players), size=_seats_said(game, said)), field="players")
    places = list(body.get("places") or PLACES[:game.seat_count(rules)])  # the usual 5/3/1/0, 5/3 at a table of two
    if places != sorted(places, reverse=True):
        raise Unprocessable(say("places give the first place the most table points, then fewer or as many for each "
                                "place after"), field="places")
    if len(places) > game.seat_count(rules):
        raise Unprocessable(say("places gives table points to {count:d} places, but a table of this game seats "
                                "{size:d}",
                                count=len(places), size=game.seat_count(rules)), field="places")
    digits = row["digits"]
    stake = stake_of(body.get("stake") or f"1{'.' + '0' * digits if digits else ''}", digits)
    tournament = c.tournament or new_id("x")
    data = {"tournament": tournament, "name": body["name"], "game": game.name,
            "rules": _with_entry({**rules.to_data(), **said}, entry), "players": players, "rounds": body["rounds"],
            "deals": body["deals"], "places": places, "stake": stake,
            "commitment": c.secrets.commitment(c.group, tournament, 1)}
    if c.draw == 2:
        data["draw"] = 2
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
            raise Unprocessable(say("round {number:d} is still being played at tables {tables}: each must play its "
                                    "{deals} deals before the next round is drawn",
                                    number=number - 1, tables=", ".join(playing), deals=row["deals"]))
    secret = c.secrets.secret(c.group, c.tournament, number)
    if secret is None or draw.commitment(secret) != row["commitment"]:
        raise Unprocessable(say("this server cannot reveal the secret round {number:d} was committed to (its key is "
                                "not the one that made the commitment), so it cannot draw it", number=number))
    after, last_hash = w.head(c.group)
    absent: list[str] = []
    if fold.by_check_ins(row):
        absent = _absent(w, c.group, row, c.absent)
        seeded = draw.seed_of_check_ins(secret, fold.entropies(row))
        after = max((entry["seq"] for entry in row["check_ins"].values()), default=after)
    else:
        seeded = draw.seed(secret, last_hash)
    game = known_game(row["game"])
    _, entry = table_rules(game, row["rules"])
    said = rules_said(row["rules"])
    sizes = fold.table_sizes(game, said, len(row["players"]))
    seats = draw.tables(draw.shuffled(row["players"], seeded), sizes)
    ids = list(c.tables) or [new_id("t") for _ in seats]
    if len(ids) != len(seats) or len(set(ids)) != len(ids) or any(w.row("table", c.group, t) is not None for t in ids):
        raise Unprocessable(say("the round's tables need ids of their own"))
    answer = {"round": number, "secret": secret.hex(), "after": after, "seed": seeded.hex(),
              "commitment": c.secrets.commitment(c.group, c.tournament, number + 1) if number < row["rounds"]
              else None,
              "tables": [{"id": t, "seats": s} for t, s in zip(ids, seats, strict=True)]}
    if fold.by_check_ins(row):
        answer["absent"] = absent
    opened = [NewEvent("table_opened", {"table": t, "game": game.name,
                                        "rules": game.seated(said, len(s)).to_data(),
                                        "seats": s, "stake": row["stake"], **_entry(entry),
                                        "tournament": c.tournament, "round": number, "deals": row["deals"]}, table=t)
              for t, s in zip(ids, seats, strict=True)]
    w.append(c.group, [NewEvent("round_drawn", {"tournament": c.tournament, **answer}), *opened], c.actor,
             expected_version=w.version(c.group))
    return answer


def _absent(w: Writer, group: str, row: dict, named: Sequence[str]) -> list[str]:
    """The players drawn without their check-in: exactly those the admin named, who must be
    players who have not checked in; anyone else not checked in is a 422 naming them."""
    checked = row["check_ins"]
    strangers = [m for m in named if m not in row["players"]]
    if strangers:
        raise Unprocessable(say("absent names {members}, who do not play this tournament",
                                members=", ".join(map(repr, strangers))), field="absent")
    here = [m for m in named if m in checked]
    if here:
        raise Unprocessable(say("absent names {names}, who checked in", names=_names(w, group, here)), field="absent")
    missing = [p for p in row["players"] if p not in checked and p not in named]
    if missing:
        raise Unprocessable(say("round {number:d} is drawn once every player has checked in; not yet: {names} (or "
                                "name them in absent to draw without them)",
                                number=len(row["drawn_rounds"]) + 1, names=_names(w, group, missing)))
    return [p for p in row["players"] if p in named]


def _names(w: Writer, group: str, members: Sequence[str]) -> str:
    grow = group_row(w, group)
    return ", ".join(next((m["name"] for m in grow["members"] if m["id"] == member), member) for member in members)


def check_in(c: CheckIn, w: Writer) -> dict:
    """A player's device is here for the next round: its entropy goes into that round's seed."""
    row = tournament_row(w, c.group, c.tournament)
    if not fold.by_check_ins(row):
        raise Unprocessable(say("this tournament's rounds are drawn without check-ins (it was created before them)"))
    if c.actor not in row["players"]:
        raise Refused(say("only a player of the tournament checks in, from their own device"))
    number = len(row["drawn_rounds"]) + 1
    if c.round != number or number > row["rounds"]:
        raise Unprocessable(say("the round to check in for is round {number:d}, not {round}", number=number,
                                round=c.round) if number <= row["rounds"] else say("every round is drawn already"))
    if c.actor in row["check_ins"]:
        raise Unprocessable(say("you have checked in for round {number:d} already", number=number))
    fields = {"tournament": c.tournament, "round": c.round, "entropy": c.entropy}
    sealed = signing.sealed_by(w, c.group, c.actor, "check_in", fields, c.signed)
    data = {"member": c.actor, **fields, **sealed}
    [env] = w.append(c.group, [NewEvent("check_in", data)], c.actor, expected_version=w.version(c.group))
    return {"seq": env.seq, **{k: v for k, v in data.items() if k != "signed"}}


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


def _seats_said(game, said) -> str:
    size = game.seat_count(game.parse_rules(said))
    return say("{size:d} or {larger}", size=size, larger=size + 1) if game.seated(said, size + 1) else str(size)


def _entry(entry: str | None) -> dict:
    return {"entry": entry} if entry and entry != "scorer" else {}


def _with_entry(rules: dict, entry: str | None) -> dict:
    return {**rules, **_entry(entry)}
