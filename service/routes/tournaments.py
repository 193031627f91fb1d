"""Tournaments (API.md "Points, tables of five, tournaments and seasons"): created by the
admin with its players, each round drawn from a secret committed to before, standings live,
seasons over several tournaments, and a watch link for spectators."""
from __future__ import annotations

import hashlib
import secrets

from flask import current_app
from marshmallow import ValidationError

from events.errors import Invalid

from .. import handlers, signing, tournament_schemas as s
from ..commands import CheckIn, CreateTournament, DrawRound, Watch
from ..handlers import lookups
from ..handlers.tournaments import tournament_row
from ..http import READ, WRITE, Blueprint, body_json, read, write
from ..openapi import reads, writes
from ..tournament_views import season_view, standings_view, tournament_view
from .invitations import public_url

blp = Blueprint("tournaments", __name__, url_prefix="/v1/groups/<group>",
                description="Tournaments: rounds drawn by a committed seed, tables of the round, standings, seasons")


def draw_secrets():
    """The service's secrets behind each draw (service/draws.py), made from its signing key."""
    return current_app.extensions["bitka.draws"]


def watch_code(group: str, tournament: str) -> str:
    """A new watch link's code: where it leads (group and tournament, so the page finds it)
    and 24 random bytes; only its SHA-256 is kept."""
    return f"{group}.{tournament}.{secrets.token_urlsafe(24)}"


def watch_digest(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


@blp.route("/tournaments", methods=["POST"])
@blp.arguments(s.TournamentCreate)
@blp.response(201, s.Tournament)
@blp.problems(*WRITE, why={422: "An unknown game or rules, a player who is not a member or named twice, a player "
                                "count no tables fit, places that are not best first"})
@blp.doc(**writes(located=True))
def create_tournament(body, group):
    """Create a tournament (admin only): `{"name", "game", "rules", "players": [member ids], "rounds", "deals",
    "places": [5, 3, 1, 0], "stake"}`. Its `commitment` is the SHA-256 of the secret round 1's draw will reveal."""
    def created(w, p):
        return tournament_view(handlers.handle(CreateTournament(group, p.subject, body, draw_secrets()), w))
    return write(group, created, admin=True, location=lambda t: f"/v1/groups/{group}/tournaments/{t['id']}")


@blp.route("/tournaments/<tournament>", methods=["GET"])
@blp.response(200, s.Tournament)
@blp.problems(*READ, why={404: "No such group, or no such tournament in it"})
@blp.doc(**reads())
def get_tournament(group, tournament):
    """The tournament: what it was created with, `drawn` rounds and each draw's answer, and the commitment to
    the next draw (null after the last)."""
    return read(group, lambda r, _: tournament_view(tournament_row(r, group, tournament)))


@blp.route("/tournaments/<tournament>/rounds", methods=["POST"])
@blp.response(201, s.Drawn)
@blp.problems(*WRITE, why={422: "Every round is drawn already, the last round's tables are still playing "
                                "(detail names each by its id), or (`\"draw\": 2`) a player has not checked in "
                                "and is not named in `absent` (detail names each)"})
@blp.doc(**writes(), requestBody={"required": False, "content": {"application/json": {"schema": "DrawIn"}}})
def draw_round(group, tournament):
    """Draw the next round (admin only): the secret committed to is revealed, the players are shuffled by the
    seed (Fisher-Yates over the SHA-256 counter stream) and cut into tables of the round, each opened as an
    ordinary table with `tournament`, `round` and `deals`. A tournament with `"draw": 2` (every one created since
    members hold keys) is drawn once every player has checked in, or without those named in `{"absent": [...]}`:
    the seed is SHA-256(secret || each checked-in player's entropy, in player order) and `after` the seq of the
    round's last check-in. One created before: SHA-256(secret || the hash of the group's last event). Anyone can
    draw it again from this answer and the log (`bitka draw --check`)."""
    raw = body_json()
    try:
        absent = tuple(s.DrawIn().load(raw if raw is not None else {})["absent"])
    except ValidationError as e:
        raise Invalid("the body is {} or {\"absent\": [member ids]}", errors=e.normalized_messages()) from None
    return write(group, lambda w, p: handlers.handle(DrawRound(group, p.subject, tournament, draw_secrets(),
                                                               absent=absent), w), admin=True)


@blp.route("/tournaments/<tournament>/rounds/<int:number>/check-in", methods=["POST"], parameters=[
    {"in": "path", "name": "group", "description": "The group's id"},
    {"in": "path", "name": "tournament", "description": "The tournament's id"},
    {"in": "path", "name": "number", "description": "The round to check in for: the next one to draw"}])
@blp.arguments(s.CheckInIn)
@blp.response(201, s.CheckedIn)
@blp.problems(*WRITE, why={403: "Not a player of the tournament; a player with a device key without a valid "
                                "signed `check_in` `{\"tournament\", \"round\", \"entropy\"}`",
                           422: "Not the next round, checked in already, or a tournament drawn without check-ins"})
@blp.doc(**writes())
def check_in(body, group, tournament, number):
    """I am here (a player, from their own device): fresh entropy for the next round's seed, signed `check_in`.
    Once per player and round; the round is drawn once every player has."""
    signed = signing.presented()
    return write(group, lambda w, p: handlers.handle(CheckIn(group, p.subject, tournament, number, body["entropy"],
                                                             signed), w))


@blp.route("/tournaments/<tournament>/standings", methods=["GET"])
@blp.response(200, s.Standings)
@blp.problems(*READ, why={404: "No such group, or no such tournament in it"})
@blp.doc(**reads())
def standings(group, tournament):
    """The standings, live: each player's table points, small points (what counts of their payouts) and first
    places over the tables that have played, best first, with their place at each round's table."""
    return read(group, lambda r, _: standings_view(r, group, tournament_row(r, group, tournament),
                                                   lookups.group_row(r, group)))


@blp.route("/standings", methods=["GET"])
@blp.arguments(s.SeasonQuery, location="query")
@blp.response(200, s.Season)
@blp.problems(*READ, 400, why={404: "No such group, or one of the tournaments is not in it"})
@blp.doc(**reads())
def season(query, group):
    """A season over several tournaments: each player's best `best` tournaments by points (then small points)
    count, ordered as a tournament's standings; each lists the tournaments the player played and whether it
    counted."""
    ids = list(dict.fromkeys(t.strip() for t in query["tournaments"].split(",") if t.strip()))
    return read(group, lambda r, _: season_view(r, group, [tournament_row(r, group, t) for t in ids], query["best"],
                                                lookups.group_row(r, group)))


@blp.route("/tournaments/<tournament>/watch", methods=["POST"])
@blp.response(201, s.WatchOpened)
@blp.problems(*WRITE)
@blp.doc(**writes())
def open_watch(group, tournament):
    """A watch link for spectators (admin only): anyone with it sees the standings and each table's running
    score, live, without signing in; no card in play is shown. The code is shown once."""
    code = watch_code(group, tournament)

    def opened(w, p):
        handlers.handle(Watch(group, p.subject, tournament, watch_digest(code), True), w)
        return {"url": public_url(f"/t/{code}"), "code": code}
    return write(group, opened, admin=True)


@blp.route("/tournaments/<tournament>/watch/<code>", methods=["DELETE"])
@blp.response(204)
@blp.problems(*WRITE, 410, why={404: "No such tournament, or no such watch link of it",
                                410: "The watch link was ended already"})
@blp.doc(**writes(204))
def close_watch(group, tournament, code):
    """End a watch link (admin only): its page then answers 410."""
    return write(group, lambda w, p: handlers.handle(Watch(group, p.subject, tournament, watch_digest(code), False),
                                                     w), admin=True, status=204)
