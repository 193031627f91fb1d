"""Groups and their members."""
from __future__ import annotations

from urllib.parse import urlencode

from flask import current_app, request

from events.errors import Refused
from events.sentences import say

from .. import auth, handlers, schemas as s, views
from ..handlers import lookups
from ..commands import AddMember, CreateGroup, RotateToken, UpdateGroup
from ..http import READ, WRITE, Blueprint, json_response, read, store, write
from ..openapi import OPTIONAL_BEARER, reads, writes
from ..views import group_view

blp = Blueprint("groups", __name__, url_prefix="/v1/groups", description="Betting groups and their members")


@blp.route("", methods=["POST"])
@blp.arguments(s.GroupCreate)
@blp.response(201, s.GroupCreated, description="The group and its admin token (shown only this once)")
@blp.problems(400, 401, 413, 415, 429, why={
    400: "Invalid name or unknown currency", 401: "The server has a setup token and the request did not carry it",
    429: "Without a setup token, one address may create BITKA_GROUPS_PER_HOUR groups an hour (20 by default, "
         "per server process); Retry-After says when to try again"})
@blp.doc(security=OPTIONAL_BEARER, responses={201: {"headers": {"ETag": "ETag", "Location": "Location"}}})
def create_group(body):
    """Create a group. The admin token comes back once: keep it.

    Needs no token, unless the server was started with a setup token (`BITKA_SETUP_TOKEN`):
    then send it as `Authorization: Bearer <setup token>`. Without one, an address may
    create 20 groups an hour (`BITKA_GROUPS_PER_HOUR`; 0 for no limit), then gets 429."""
    setup = current_app.config.get("BITKA_SETUP_TOKEN")
    auth.check_setup_token(request.headers.get("Authorization"), setup)
    if not setup:
        current_app.extensions["bitka.group_limit"].take(request.remote_addr or "")
    with store().writing() as w:
        created = handlers.handle(CreateGroup(body["name"], body["currency"], body["confirmations"],
                                                  body.get("organizer")), w)
        version = w.version(created.id)
    response = json_response(views.group_created(created), 201, version)
    response.headers["Location"] = f"/v1/groups/{created.id}"
    return response


@blp.route("/<group>", methods=["GET"])
@blp.arguments(s.GroupQuery, location="query")
@blp.response(200, s.Group, description="The group and a page of its tables; a `Link: rel=\"next\"` header while "
              "more remain")
@blp.problems(400, *READ)
@blp.doc(**reads(link=True))
def get_group(query, group):
    """The group with its version, members and tables: a page of them (100 unless `tables_limit` says), in the
    order they were opened; `tables_next` (and the `Link` header) names the table to ask the next page after."""
    def view(r, _):
        grow = lookups.group_row(r, group)
        page = lookups.tables_page(r, grow, query["tables_after"], query["tables_limit"])
        version = r.version(group)
        response = json_response(group_view(grow, page, version), 200, version)
        if page.next is not None:
            nxt = f"{request.path}?{urlencode({'tables_after': page.next, 'tables_limit': query['tables_limit']})}"
            response.headers["Link"] = f'<{nxt}>; rel="next"'
        return response
    return read(group, view)


@blp.route("/<group>", methods=["PATCH"])
@blp.arguments(s.GroupUpdate)
@blp.response(200, s.Group)
@blp.problems(*WRITE)
@blp.doc(**writes(200))
def update_group(body, group):
    """The group's settings (admin only): `{"confirmations": "payers" | "off"}`. A setting the
    group already has appends nothing."""
    def act(w, p):
        grow = handlers.handle(UpdateGroup(group, p.subject, body), w)
        return group_view(grow, lookups.tables_page(w, grow), w.version(group))
    return write(group, act, admin=True, status=200)


@blp.route("/<group>/members/<member>/token", methods=["POST"], parameters=[
    {"in": "path", "name": "group", "description": "The group's id"},
    {"in": "path", "name": "member", "description": "A member's id, or `admin` for every admin token of the group"}])
@blp.response(201, s.MemberCreated, description="The member's new token (shown only this once); every older one "
              "stopped working, and the pages' sessions made from them ended")
@blp.problems(400, 401, 403, 404, 409, 412, 422, why={
    400: "A malformed If-Match or Idempotency-Key", 404: "No such group, or no such member in it",
    422: "An Idempotency-Key already used with another request"})
@blp.doc(**writes())
def rotate_token(group, member):
    """Give a member a new token, for one that was lost or leaked: the admin for anyone, a member for
    themself (with their own token; their device keys are not touched).

    `member` is a member's id, or `admin` for the admin's own tokens: every admin token of
    the group (the one that created it and each one an admin link made) stops working with
    this write, the admin's link too, and the answer is `{"id": "admin", "name": "admin",
    "token"}` with the one new admin token. Either way the old tokens get 401 at once, the
    browsers signed in with them are signed out, and nothing is appended to the log."""
    return write(group, lambda w, p: views.credential(handlers.handle(RotateToken(group, member), w)),
                 permit=lambda p: _own_or_admin(p, member))


def _own_or_admin(principal: auth.Principal, member: str) -> None:
    """A member rotates their own token (one they fear leaked); the admin anyone's."""
    if not principal.is_admin and principal.subject != member:
        raise Refused(say("a member rotates their own token; the admin anyone's"))


@blp.route("/<group>/members", methods=["POST"])
@blp.arguments(s.MemberCreate)
@blp.response(201, s.MemberCreated, description="The member and their token (shown only this once)")
@blp.problems(*WRITE)
@blp.doc(**writes())
def add_member(body, group):
    """Add a member (admin only)."""
    return write(group, lambda w, p: views.credential(handlers.handle(AddMember(group, p.subject, body["name"]), w)),
                 admin=True)
