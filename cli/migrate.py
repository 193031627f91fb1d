"""``bitka migrate``: move a whole store to another backend (SQLite to PostgreSQL, or back).

The source is verified first (every hash and link) and replayed (every event decided again,
every settlement re-derived, every id and member checked), then copied in one transaction on the
target: events in their groups' seq order, with the projection rows and Merkle nodes
made again as they are inserted, then the credentials (token hashes) and idempotency
keys as they were. Before that transaction commits, the target's copy is verified again
from its own rows, and each group's Merkle root at its size is compared with the
source's: equal roots mean every checkpoint the old store signed holds for the new one.
Any difference rolls the whole copy back.
"""
from __future__ import annotations

import sys

import click

from events.database import open_store
from events.verify import faults
from projections import kept
from projections.projector import project

from . import output
from .checks import replay_store, verify_store
from .stores import Context, database_errors, shown

BATCH = 500


def _target(url: str):
    """The store to move into, created if need be; one that cannot be (a directory, a file
    that is no database, a server that does not answer) is named as --to named it."""
    try:
        return open_store(url, projector=project).setup(kept.rebuild)
    except database_errors() as e:
        raise click.UsageError(f"--to {shown(url)} cannot be used as a bitka store: {str(e).strip()}") from None


@click.command()
@click.option("--from", "source_url", required=True, metavar="URL",
              help="The store to move: an SQLite path or sqlite:///path, or postgresql://...")
@click.option("--to", "target_url", required=True, metavar="URL",
              help="Where to: created if need be; it must not hold any of the source's groups.")
def migrate(source_url: str, target_url: str):
    """Move a whole store to another, verifying every hash and Merkle root on arrival.

    Tokens keep working (their hashes move with the groups). Sign with the same key
    afterwards (--key / BITKA_KEY) so that checkpoints saved by members stay valid. Stop
    the servers writing to the source first: the move copies one snapshot of it.

    \b
    Examples:
      bitka migrate --from sqlite:///club.db --to postgresql://bitka@db.example/bitka
      bitka migrate --from postgresql://bitka@db.example/bitka --to sqlite:///copy.db
    """
    if source_url == target_url:
        raise click.UsageError("--from and --to name the same store")
    source = Context(source_url, named_by="--from").store()  # as every command that reads opens it
    with source.reading() as r:
        sizes = r.sizes()
    total = sum(sizes.values())
    with output.progress(total, "verifying the source") as advance:
        bad = verify_store(source_url, None, advance)
    if bad:
        for fault in bad:
            click.echo(str(fault), err=True)
        click.echo("the source does not verify; nothing was moved", err=True)
        sys.exit(1)
    with output.progress(total, "replaying the source") as advance:
        report = replay_store(source_url, None, None, False, advance)
    if report.differences:
        click.echo(report.first_difference(), err=True)
        click.echo("the source does not replay: what its log says does not hold; nothing was moved", err=True)
        sys.exit(1)
    target = _target(target_url)
    with target.reading() as r:
        present = sorted(g for g in sizes if r.version(g))
    if present:
        raise click.ClickException(f"{shown(target_url)} already holds group(s) {', '.join(present)}; "
                                   "nothing was moved")
    with source.reading() as src, target.writing() as dst:
        with output.progress(total, "copying") as advance:
            batch = []
            for env in src.scan():
                batch.append(env)
                if len(batch) == BATCH:
                    dst.insert(batch)
                    advance(len(batch))
                    batch = []
            dst.insert(batch)
            advance(len(batch))
        for token_hash, group, subject in src.credentials():
            dst.add_credential(token_hash, group, subject)
        for group, key, fingerprint, status, body, at in src.idempotency_keys():
            dst.remember(group, key, fingerprint, status, body, at)
        problems = _arrival_problems(src, dst, sizes)
        if problems:
            for problem in problems:
                click.echo(problem, err=True)
            click.echo("the copy does not match the source; nothing was moved", err=True)
            raise SystemExit(1)  # leaving the block rolls the target's transaction back
    target.analyze()
    click.echo(f"moved {total} events of {len(sizes)} group(s) from {shown(source_url)} to {shown(target_url)}; "
               "every hash and Merkle root verified on arrival")


def _arrival_problems(src, dst, sizes: dict[str, int]) -> list[str]:
    """What differs between the source and the target's uncommitted copy."""
    problems = [f"on arrival: {fault}" for fault in faults(dst.scan_raw())]
    arrived = dst.sizes()
    for group, size in sorted(sizes.items()):
        if arrived.get(group) != size:
            problems.append(f"group {group}: {arrived.get(group, 0)} events arrived of {size}")
            continue
        if src.merkle_root(group, size) != dst.merkle_root(group, size):
            problems.append(f"group {group}: the Merkle root at {size} differs, so its checkpoints would not hold")
        elif src.hash_at(group, size) != dst.hash_at(group, size):
            problems.append(f"group {group}: the last hash differs")
    return problems
