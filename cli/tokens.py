"""What the operator does for a group's tokens: a new one for a member, or for the admin,
when one was lost or leaked (the API's ``POST /v1/groups/{g}/members/{m}/token``)."""
from __future__ import annotations

import click

from .options import store_option


@click.command("rotate-token")
@click.option("--group", "group", required=True)
@click.option("--member", default="admin", show_default=True,
              help="A member's id, or admin for every admin token of the group.")
@store_option
@click.pass_obj
def rotate_token(obj, group, member):
    """Give a member, or the admin, a new token and print it, once. Every older token of
    theirs stops working at once and the browsers signed in with them are signed out; the
    admin's also ends the admin's link (a new one is made on the members page once the
    admin is signed in with the new token). Nothing is appended to the log.

    \b
    Examples:
      bitka rotate-token --group g_3f9a1c2b7d10
      bitka rotate-token --group g_3f9a1c2b7d10 --member m_0a1b2c3d4e5f
    """
    from service import handlers
    from service.commands import RotateToken
    with obj.store().reading() as r:
        if r.row("group", group, "") is None:
            raise click.UsageError(f"there is no group {group!r} in {obj.shown}")
    with obj.store().writing(group) as w:  # an unknown member is the store's 404, said as a sentence
        made = handlers.handle(RotateToken(group, member), w)
    who = "the admin" if member == "admin" else f"{made.name} ({made.id})"
    click.echo(f"every earlier token of {who} stopped working; the new one (shown only this once): {made.token}")
