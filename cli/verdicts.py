"""What the operator says of settled hands: which do not count yet, and corrections."""
from __future__ import annotations

import json

import click

from projections.groups import member_name

from . import output
from .options import store_option


@click.command()
@click.option("--group", "group", required=True)
@store_option
@click.pass_obj
def pending(obj, group):
    """List the hands whose settlement does not count yet: pending until a member who pays
    in it confirms it, or disputed until confirmed or corrected.

    \b
    Example:
      bitka pending --group g_3f9a1c2b7d10
    """
    with obj.store().reading() as r:
        grow, waiting = r.row("group", group, ""), r.pending_entries(group)
    if grow is None:
        raise click.UsageError(f"there is no group {group!r} in {obj.shown}")
    output.print_pending(grow, waiting)
    if not waiting:
        click.echo("Every settlement counts: nothing waits for a confirmation.")


@click.command()
@click.option("--group", "group", required=True)
@click.option("--hand", "hand", required=True)
@click.option("--reason", required=True, help="Why, in words the group will read in the hand's audit trail.")
@click.option("--void", is_flag=True, help="The hand counts as never played.")
@click.option("--result", "result_json", metavar="JSON",
              help="The hand's result as it should have been, in the form of a score sheet's result.")
@store_option
@click.pass_obj
def correct(obj, group, hand, reason, void, result_json):
    """Correct a past hand as the admin: a result, or a void. Every later hand of its table
    is settled again; the correction and what each hand now pays more or less are appended
    as one event and printed.

    \b
    Examples:
      bitka correct --group g_3f9a --hand h_9be0 --reason "misdeal" --void
      bitka correct --group g_3f9a --hand h_9be0 --reason "40, not 70" \\
        --result '{"points": [70, 50], "tricks": [6, 4]}'
    """
    from marshmallow import ValidationError

    from service import handlers
    from service.commands import Correct
    from service.schemas import DisputeIn
    if void == (result_json is not None):
        raise click.UsageError("give either --void or --result JSON")
    try:
        reason = DisputeIn().load({"reason": reason})["reason"]  # the API's own checks of a reason
    except ValidationError as e:
        raise click.UsageError(f"--reason: {' '.join(e.messages['reason'])}") from None
    result = None
    if result_json is not None:
        try:
            result = json.loads(result_json)
        except ValueError as e:
            raise click.UsageError(f"--result is not JSON: {e}") from None
    with obj.store().reading() as r:
        grow = r.row("group", group, "")
    if grow is None:
        raise click.UsageError(f"there is no group {group!r} in {obj.shown}")
    with obj.store().writing(group) as w:  # a refusal is the store's 4xx, said as a sentence
        moved = handlers.handle(Correct(group, "admin", hand, reason, result), w)
    data = moved.first("correction")
    click.echo(f"corrected hand {hand}: " + ("voided: it counts as never played" if void else
                                             "result " + json.dumps(data["result"], ensure_ascii=False)))
    if not data["adjustments"]:
        click.echo("nobody pays more or less")
    for adjustment in data["adjustments"]:
        moves = ", ".join(f"{member_name(grow, p['member'])} {'' if p['amount'].startswith('-') else '+'}"
                          f"{p['amount']}" for p in adjustment["payouts"] if p["amount"].strip("-0."))
        click.echo(f"  hand {adjustment['hand']} pays differently: {moves}")
