"""The ``bitka`` command line: serve the ledger, and check, explain and move its log offline.

Exit status: 0 on success, 1 when a check finds a problem, 2 on bad usage.
"""
from __future__ import annotations

import json
import sys

import click

from events.checkpoint import load_or_create_key
from events.errors import DomainError
from events.migrations import SchemaTooNew
from events.types import EVENT_TYPES
from projections import audit as trail_of, signatures
from projections.ledger_views import MONEY_EVENTS, statistics
from projections.replay import rebuild

from . import hall, output, proofs, server
from .backup_commands import Duration, Runner, backup, restore
from .checks import replay_store, verify_store
from .demo import demo
from .draws import draw_command
from .keys import key, sign
from .migrate import migrate
from .money_checks import store_faults
from .options import store_option
from .proofs import key_path, store_checkpoint
from .stores import Context, database_errors, shown
from .tokens import rotate_token
from .transfer import export, import_
from .verdicts import correct, pending

KEY_HELP = "The {what} key (default: an SQLite store's name + .key; ./bitka.key for PostgreSQL)."


class BitkaGroup(click.Group):
    """Store files that cannot be opened are the user's to fix: say so, without a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except database_errors() as e:
            db = shown(ctx.obj.db) if ctx.obj else "the store"
            if "unable to open" in str(e) or "not a database" in str(e):
                raise click.UsageError(f"{db} cannot be used as a bitka store: {e}") from None
            raise click.ClickException(f"the store {db} failed: {str(e).strip()}") from None
        except DomainError as e:  # a 409 or 422 of the store, met offline
            raise click.ClickException(e.detail) from None
        except SchemaTooNew as e:
            raise click.ClickException(str(e)) from None


@click.group(cls=BitkaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="BITKA_DB", default="bitka.db", show_default=True,
              help="The store: an SQLite file (a path or sqlite:///path) or postgresql://user@host/db "
                   "(also $BITKA_DB). It may come after the command too (bitka verify --db club.db); given "
                   "both before and after the command, the one after it wins.")
@click.version_option(package_name="bitka", prog_name="bitka")
@click.pass_context
def bitka(ctx, db):
    """bitka: a hash-chained scoring ledger for card tables that play for money.

    \b
    Examples:
      bitka serve --port 8000          run the HTTP API on ./bitka.db
      bitka demo                       fill the store with a demo group
      bitka --db club.db verify        check every hash and chain link
      bitka groups --db club.db        list the store's groups
    """
    ctx.obj = Context(db)


@bitka.command()
@click.option("--host", help="The address to listen on (default 127.0.0.1; with --lan, this machine's private "
                              "address).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--lan", is_flag=True,
              help="Serve the phones of a hall's network: listen on this machine's private address (or --host), over "
                   "plain HTTP, the sign-in cookies without Secure, every page saying so (README: In a hall).")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64), help="gunicorn worker processes.")
@click.option("--threads", default=64, show_default=True, type=click.IntRange(1, 256),
              help="Threads in each worker (made as they are needed); the writes waiting in a worker share one commit. "
                   "All but four may hold a phone's wait for news (a live page): gunicorn does not share the phones "
                   "evenly between workers, so each worker has room for a whole hall's (60).")
@click.option("--dev", is_flag=True, help="The Flask development server instead of gunicorn.")
@click.option("--key", "key_file", envvar="BITKA_KEY", help=KEY_HELP.format(what="signing"))
@click.option("--backup-dir", type=click.Path(file_okay=False),
              help="Make verified backups into this directory on schedule (see bitka backup --help).")
@click.option("--backup-every", type=Duration(), default="1h", show_default=True,
              help="With --backup-dir: how often (90s, 30m, 1h, 1d); /readyz and the admin's page warn when the last "
                   "good backup is older than twice this.")
@click.option("--backup-keep", type=click.IntRange(min=1), default=48, show_default=True,
              help="With --backup-dir: how many good backups to keep.")
@click.option("--backup-watch", is_flag=True,
              help="With --backup-dir: only watch it (another process makes the backups: cron, a timer, bitka backup "
                   "--every).")
@store_option
@click.pass_obj
def serve(obj: Context, host, port, lan, workers, threads, dev, key_file, backup_dir, backup_every, backup_keep,
          backup_watch):
    """Run the HTTP service on the store, under gunicorn (or the development server).

    The whole store is checked first: the first bad seq of each damaged group is printed,
    and those groups answer damaged-store; the groups that are whole are served.

    \b
    Examples:
      bitka --db club.db serve --host 0.0.0.0 --port 8080
      bitka --db postgresql://bitka@db.example/bitka serve --key /etc/bitka/signing.key
      bitka serve --workers 4 --threads 8
      bitka serve --dev
      bitka --db club.db serve --lan                       the hall's Wi-Fi, no internet
      bitka --db club.db serve --backup-dir /var/backups/bitka --backup-every 1h --backup-keep 48
    """
    host = hall.hall_address(host) if lan else host or "127.0.0.1"  # a public address refused before anything starts
    backups = Runner(obj.db, backup_dir, backup_every, backup_keep, key_file, not backup_watch) if backup_dir else None
    if backups is not None:
        backups.check()
    obj.store(create=True)  # schema and WAL before the workers start, so they never race to make them
    load_or_create_key(key_path(obj.db, key_file))  # likewise the key
    damaged = server.checked_before_serving(obj.db)  # every hash and link, once, before serving
    if dev:
        server.announce(obj.shown, host, port, "the development server", lan)
        server.run_dev(obj.db, host, port, key_file, damaged, backups, lan)
    else:
        server.announce(obj.shown, host, port, f"gunicorn, {workers} workers x {threads} threads", lan)
        server.run_gunicorn(obj.db, host, port, workers, threads, key_file, damaged, backups, lan)


@bitka.command()
@click.option("--group", "group", help="Only this group (needed with --url).")
@click.option("--checkpoint", "saved", type=click.Path(exists=True, dir_okay=False),
              help="A checkpoint saved earlier: prove the log still extends it.")
@click.option("--url", help="Verify a running server instead of the store, as a member would.")
@click.option("--token", envvar="BITKA_TOKEN", help="With --url: a member's or the admin's token.")
@click.option("--key", "key_file", envvar="BITKA_KEY", help=KEY_HELP.format(what="server"))
@store_option
@click.pass_obj
def verify(obj: Context, group, saved, url, token, key_file):
    """Recompute every event hash and chain link; name the first bad seq of each bad group.
    With --checkpoint, also prove that the log still extends a checkpoint saved earlier.

    \b
    Examples:
      bitka verify
      bitka verify --group g_3f9a1c2b7d10 --checkpoint thursday.json
      bitka verify --url https://cards.example --group g_3f9a1c2b7d10 --token $T --checkpoint thursday.json
    """
    cp = proofs.read_checkpoint(saved) if saved else None
    if url:
        if not group or not token:
            raise click.UsageError("--url needs --group and --token")
        problems, now, sealed, corrected = proofs.check_remote(proofs.Remote(url, token), group, cp)
        for p in problems:
            click.echo(p)
        if problems:
            sys.exit(1)
        click.echo(f"ok: group {group} at {now['size']} events: every hash, link and signature holds, the balances "
                   "it serves are the ones its events give"
                   + (f", and it extends the checkpoint of {cp['size']}" if cp else ""))
        for c in corrected:
            click.echo(f"seq {c['seq']}: the admin corrected hand {c['hand']} ({c['reason']}): "
                       + ("voided" if c["void"] else "a new result") + f"; {c['hands']} hand(s) settled again")
        if sealed:
            click.echo(f"{len(sealed)} event(s) are sealed from this token while their hands are in play "
                       f"(seq {', '.join(map(str, sealed[:10]))}{', ...' if len(sealed) > 10 else ''}): their "
                       "links and their place in the signed log hold; their own hashes can be checked once the "
                       "hands end")
        return
    store = obj.store()
    if cp is not None:
        problems = proofs.check_store_against(store, cp, proofs.key_path(obj.db, key_file))
        if problems:
            for p in problems:
                click.echo(p)
            sys.exit(1)
    with store.reading() as r:
        missing = r.missing_triggers()
        total = r.count(group)
        groups = [group] if group else r.group_ids()
    store.close()
    if group and total == 0:
        raise click.UsageError(f"there is no group {group!r} in {obj.shown}")
    with output.progress(total, "verifying") as advance:
        found = verify_store(obj.db, group, advance)
    problems = [f"the store's append-only triggers are missing: {', '.join(missing)}"] if missing else []
    problems += [str(fault) for fault in found]
    with store.reading() as r:  # the agreed and the stored balances, checked against the log
        problems += store_faults(r, group)
        problems += signatures.findings(r.scan(group, unread=EVENT_TYPES - signatures.READS))
    if problems:
        for p in problems:
            click.echo(p)
        sys.exit(1)
    click.echo(f"ok: {total} events in {len(groups)} group(s); the stored balances are the ones the events give; "
               "every member's signature holds; every hash and link holds"
               + (f", and group {cp['group']} extends the checkpoint of {cp['size']}" if cp else ""))


@bitka.command("groups")
@click.option("--json", "as_json", is_flag=True, help="Print the groups as JSON.")
@store_option
@click.pass_obj
def groups_(obj: Context, as_json):
    """List the store's groups, the most recently active first: id, name, how many members,
    and the last activity (when the group's last event was recorded, UTC).

    \b
    Examples:
      bitka groups
      bitka groups --db club.db --json
    """
    with obj.store().reading() as r:
        listed = sorted((_group_summary(r, g) for g in r.group_ids()), key=lambda g: g["last_activity"],
                        reverse=True)
    if as_json:
        click.echo(json.dumps(listed, indent=2, ensure_ascii=False))
    else:
        output.print_groups(listed, obj.shown)


def _group_summary(r, group: str) -> dict:
    """A group as ``bitka groups`` lists it."""
    grow = r.row("group", group, "") or {"name": None, "members": []}
    last = r.events(group, after=r.version(group) - 1, limit=1)[0]
    return {"id": group, "name": grow["name"], "members": len(grow["members"]), "last_activity": last.recorded_at}


@bitka.command()
@click.option("--group", "group", help="Only this group.")
@click.option("--until", type=click.IntRange(min=1), help="Replay up to this seq (needs --group).")
@click.option("--rebuild", is_flag=True, help="Then replace the stored projection rows with rebuilt ones.")
@store_option
@click.pass_obj
def replay(obj: Context, group, until, rebuild):
    """Rebuild every projection from the log alone, re-derive every settlement, report differences.

    With --until the rebuilt state (balances) at that seq is printed and settlements up to
    it are re-derived; rows are compared with the stored ones only for a full replay.
    With --rebuild the stored rows are replaced by the ones the log gives (a repair after a
    difference was found); settlements that differ from their cards are still reported.

    \b
    Examples:
      bitka replay
      bitka replay --group g_3f9a1c2b7d10 --until 120
      bitka replay --rebuild
    """
    if until and not group:
        raise click.UsageError("--until needs --group: seq numbers belong to one group")
    if until and rebuild:
        raise click.UsageError("--rebuild rebuilds from the whole log; it does not take --until")
    if rebuild:
        _rebuild(obj, group)
    store = obj.store()
    with store.reading() as r:
        total = r.count(group)
    store.close()
    if group and total == 0:
        raise click.UsageError(f"there is no group {group!r} in {obj.shown}")
    with output.progress(min(total, until or total), "replaying") as advance:
        report = replay_store(obj.db, group, until, compare=not until, advance=advance)
    with store.reading() as r:
        names = {g: r.row("group", g, "") for g in report.balances}
    if until:
        output.print_rebuilt_balances(report, names)
    for note in report.notes:
        click.echo(note)
    for d in report.differences:
        click.echo(d)
    if report.differences:
        sys.exit(1)
    compared = "" if until else "; every projection row matches"
    older = (f"; {len(report.notes)} hand(s) settled under older rules would be settled otherwise today "
             "(listed above; see the README's \"Rules change, stores stay\")" if report.notes else "")
    click.echo(f"ok: {report.events} events in {report.groups} group(s) replayed, "
               f"{report.settlements} settlements re-derived from the cards{compared}{older}")


@bitka.command()
@click.option("--group", "group", required=True)
@click.option("--size", type=click.IntRange(min=1), help="The checkpoint at this many events (default: now).")
@click.option("--key", "key_file", envvar="BITKA_KEY", help=KEY_HELP.format(what="server"))
@store_option
@click.pass_obj
def checkpoint(obj: Context, group, size, key_file):
    """Print the group's signed checkpoint (its Merkle tree head). Keep it: with it,
    bitka verify --checkpoint proves later that nothing was rewritten.

    \b
    Example:
      bitka checkpoint --group g_3f9a1c2b7d10 > thursday.json
    """
    click.echo(json.dumps(store_checkpoint(obj.store(), group, key_path(obj.db, key_file), size), indent=2))


@bitka.command()
@click.option("--group", "group", required=True)
@click.option("--plot", type=click.Path(dir_okay=False, writable=True),
              help="Also draw every member's balance, hand after hand, to this PNG (needs matplotlib: "
                   "the plot extra).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@store_option
@click.pass_obj
def stats(obj: Context, group, plot, as_json):
    """Per member: hands played and won, contracts played and won, best and worst hand, and
    the balance after every settlement and payment.

    \b
    Examples:
      bitka stats --group g_3f9a1c2b7d10
      bitka stats --group g_3f9a1c2b7d10 --plot evenings.png
    """
    if plot:
        output.check_plot_target(plot)  # before anything is printed: no directory, no matplotlib, not writable
    with obj.store().reading() as r:
        grow = r.row("group", group, "")
        if grow is None:
            raise click.UsageError(f"there is no group {group!r} in {obj.shown}")
        names = {m["id"]: m["name"] for m in grow["members"]}
        report = statistics(r.scan(group, unread=EVENT_TYPES - MONEY_EVENTS), names)
        hands = output.hands_counted(r.scan(group, unread=EVENT_TYPES - MONEY_EVENTS)) if plot else {}
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        output.print_stats(report, grow["currency"])
    if plot:
        output.plot_balances(report, hands, plot, grow["name"], grow["currency"])
        click.echo(f"drew the balances to {plot}", err=True)


bitka.add_command(backup)  # bitka backup FILE, or --dir DIR [--every 1h --keep 48] (cli/backup_commands.py)
bitka.add_command(restore)


def _rebuild(obj: Context, group: str | None) -> None:
    store = obj.store()
    with store.writing() as w:
        total = w.count(group)
        with output.progress(total, "rebuilding") as advance:
            count = rebuild(w, output.counted(w.scan(group), advance), group)
        w.rebuild_merkle(group)
    click.echo(f"rebuilt the projection rows from {count} events", err=True)


@bitka.command()
@click.option("--group", "group", required=True)
@click.option("--hand", "hand", required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the trail as JSON.")
@store_option
@click.pass_obj
def audit(obj: Context, group, hand, as_json):
    """Print a hand's audit trail: its events, who appended them, how it was settled.

    \b
    Example:
      bitka audit --group g_3f9a1c2b7d10 --hand h_9be07a55c1d2
    """
    with obj.store().reading() as r:
        events = trail_of.events_of(r, group, hand)
        if not events:
            raise click.UsageError(f"there is no hand {hand!r} in group {group!r}")
        keys = r.rows_of("devices", group, sorted({e.actor for e in events if e.actor != "admin"}))
        trail = trail_of.trail(events, r.row("table", group, events[0].table), r.row("group", group, ""), keys=keys)
    click.echo(json.dumps(trail, indent=2, ensure_ascii=False) if as_json else trail_of.as_text(trail), nl=False)


@bitka.command()
@click.option("--group", "group", required=True)
@store_option
@click.pass_obj
def balances(obj: Context, group):
    """Print balances and the settle-up transfers.

    \b
    Example:
      bitka balances --group g_3f9a1c2b7d10
    """
    with obj.store().reading() as r:
        grow, brow, waiting = r.row("group", group, ""), r.row("balances", group, ""), r.pending_entries(group)
    if grow is None:
        raise click.UsageError(f"there is no group {group!r} in {obj.shown}")
    output.print_balances(grow, brow, waiting)


bitka.add_command(demo)
bitka.add_command(draw_command)
bitka.add_command(pending)
bitka.add_command(correct)
bitka.add_command(export)
bitka.add_command(import_)
bitka.add_command(migrate)
bitka.add_command(rotate_token)
bitka.add_command(key)  # bitka key new / show: a device key of your own, for a script (cli/keys.py)
bitka.add_command(sign)
