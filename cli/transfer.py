"""Moving a group's log: export as JSON Lines, import after checking every hash."""
from __future__ import annotations

import json
import os
import sys
from typing import Iterator, TextIO

import click

from events.canonical import canonical_bytes
from events.types import EVENT_TYPES
from projections.ledger_views import MONEY_EVENTS, ledger_csv
from events.store import Envelope
from events.verify import faults, raw
from service.auth import ADMIN, mint_token

from . import output

_FIELDS = {"seq", "type", "data", "actor", "recorded_at", "prev_hash", "hash", "group"}


def to_line(env: Envelope) -> str:
    return canonical_bytes({**env.public(), "group": env.group}).decode("utf-8")


def from_line(text: str, number: int) -> Envelope:
    try:
        raw = json.loads(text)
    except ValueError as e:
        raise click.ClickException(f"line {number} is not JSON: {e}") from None
    if not isinstance(raw, dict) or not _FIELDS <= set(raw) or set(raw) - _FIELDS - {"hand", "table"}:
        raise click.ClickException(f"line {number} is not an exported event envelope")
    if not isinstance(raw["seq"], int) or not isinstance(raw["data"], dict):
        raise click.ClickException(f"line {number}: seq must be a number and data an object")
    return Envelope(0, raw["group"], raw["seq"], raw["type"], raw.get("hand"), raw.get("table"), raw["data"],
                    raw["actor"], raw["recorded_at"], raw["prev_hash"], raw["hash"])


def read_lines(handle) -> Iterator[Envelope]:
    for number, line in enumerate(handle, 1):
        if line.strip():
            yield from_line(line, number)


@click.command()
@click.option("--group", "group", required=True)
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="Write here instead of stdout.")
@click.option("--format", "form", type=click.Choice(["jsonl", "csv"]), default="jsonl", show_default=True,
              help="jsonl: the log itself, to import elsewhere; csv: the ledger, one row per payout.")
@click.pass_obj
def export(obj, group, out, form):
    """Write the group's log as JSON Lines, one event envelope (with its group) per line;
    or, with --format csv, its ledger: one row per payout with the running balance.

    \b
    Examples:
      bitka export --group g_3f9a1c2b7d10 --out club.jsonl
      bitka export --group g_3f9a1c2b7d10 --format csv --out club.csv
    """
    with obj.store().reading() as r:
        total = r.count(group)
        if total == 0:
            raise click.UsageError(f"there is no group {group!r} in {obj.shown}")
        handle = open(out, "w", encoding="utf-8", newline="") if out else sys.stdout
        try:
            if form == "csv":
                names = {m["id"]: m["name"] for m in r.row("group", group, "")["members"]}
                for text in ledger_csv(r.scan(group, unread=EVENT_TYPES - MONEY_EVENTS), names):
                    handle.write(text)
            else:
                with output.progress(total, "exporting") as advance:
                    for env in r.scan(group):
                        handle.write(to_line(env) + "\n")
                        advance()
        finally:
            if out:
                handle.close()
    if out:
        click.echo(f"exported {total} events of {group} to {out}", err=True)


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.pass_obj
def import_(obj, file):
    """Import an exported log. Every hash and link is checked first; nothing is written
    unless the whole file holds. Each imported group gets a new admin token (tokens are
    never exported).

    \b
    Example:
      bitka --db copy.db import club.jsonl
    """
    store = obj.store(create=True)
    groups, count = _check_file(file)
    with store.reading() as r:
        present = [g for g in groups if r.version(g)]
    if present:
        raise click.ClickException(f"the store already holds group(s) {', '.join(present)}; nothing imported")
    tokens = {}
    with store.writing() as w, open(file, encoding="utf-8") as handle:
        with output.progress(count, "importing") as advance:
            for env in read_lines(handle):
                w.insert([env])
                advance()
        for group in groups:
            token, digest = mint_token()
            w.add_credential(digest, group, ADMIN)
            tokens[group] = token
    store.analyze()
    for group, token in tokens.items():
        click.echo(f"imported group {group}; its new admin token: {token}")


def _measured(handle: TextIO, advance) -> Iterator[str]:
    """The file's lines, advancing the progress bar by their length."""
    for line in handle:
        advance(len(line))
        yield line


def _check_file(file: str) -> tuple[list[str], int]:
    groups: list[str] = []
    count = 0

    def seen(row):
        nonlocal count
        count += 1
        group = row[0]
        if group not in groups:
            groups.append(group)
        elif groups[-1] != group:
            raise click.ClickException(f"the events of group {group} are not together in seq order")

    with open(file, encoding="utf-8") as handle, output.progress(os.path.getsize(file), "checking") as advance:
        bad = list(faults(map(raw, read_lines(_measured(handle, advance))), on_event=seen))
    if bad:
        for fault in bad:
            click.echo(str(fault), err=True)
        click.echo("nothing was imported", err=True)
        sys.exit(1)
    if not count:
        raise click.ClickException(f"{file} holds no events")
    return groups, count
