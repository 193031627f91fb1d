"""Moving a group's log: export as JSON Lines (or the ledger as CSV), and import after
proving the log means what it says.

Export never overwrites what it should not: it writes beside its target and renames, and
refuses the store itself, its WAL and shared-memory files, the signing key, and an
existing file unless --force. Import reads a line at a time (each at most ``MAX_LINE``
bytes, what export writes of an event one request may append; strict JSON: no NaN, no
fractions) and checks every hash and link, and that no id names two things and no member
is ``admin``; then, in one transaction, it puts every event to the ledger as the request its actor would have sent,
keeping it only if the API would have appended exactly it (service/reenact.py), and
replays the imported groups: every event decided again by its game, every settlement
re-derived, every id and member checked (projections/replay.py, strict). Anything wrong
rolls the transaction back.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import click

from events.canonical import canonical_bytes
from events.database import is_postgres, sqlite_path
from events.limits import MAX_EXPORTED_LINE
from events.store import Envelope
from events.types import EVENT_TYPES
from events.verify import faults, raw
from games.engine.base import RULES_VERSION
from projections.ledger_views import MONEY_EVENTS, ledger_csv
from projections.replay import replay
from service.auth import ADMIN, mint_token
from service.reenact import Reenactment

from . import output
from .options import store_option
from .proofs import key_path

_FIELDS = {"seq", "type", "data", "actor", "recorded_at", "prev_hash", "hash", "group"}
_TEXT_FIELDS = ("group", "type", "actor", "recorded_at", "prev_hash", "hash")
# bytes: a request appends at most 1 MiB of events (events/limits.py), so no line export writes
# is longer than its event's canonical bytes, its hash and a newline.
MAX_LINE = MAX_EXPORTED_LINE
MAX_DEPTH = 64  # nesting of JSON arrays and objects in a line


def to_line(env: Envelope) -> str:
    return canonical_bytes({**env.public(), "group": env.group}).decode("utf-8")


class _NotStrictJSON(ValueError):
    pass


def _no_constant(name: str):
    raise _NotStrictJSON(f"{name} is not a JSON number")


def _no_fraction(text: str):
    raise _NotStrictJSON(f"{text} is a fraction, and no event holds one")


def from_line(text: str, number: int) -> Envelope:
    try:
        found = json.loads(text, parse_constant=_no_constant, parse_float=_no_fraction)
    except _NotStrictJSON as e:
        raise click.ClickException(f"line {number}: {e}") from None
    except RecursionError:
        raise click.ClickException(f"line {number} is nested too deeply to be an event") from None
    except ValueError as e:
        raise click.ClickException(f"line {number} is not JSON: {e}") from None
    if not isinstance(found, dict) or not _FIELDS <= set(found) or set(found) - _FIELDS - {"hand", "table"}:
        raise click.ClickException(f"line {number} is not an exported event envelope")
    if _depth(found) > MAX_DEPTH:
        raise click.ClickException(f"line {number} is nested too deeply to be an event")
    seq = found["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1 or not isinstance(found["data"], dict):
        raise click.ClickException(f"line {number}: seq must be a whole number from 1 and data an object")
    wrong = [f for f in _TEXT_FIELDS if not isinstance(found[f], str)]
    wrong += [f for f in ("hand", "table") if f in found and not isinstance(found[f], str)]
    if wrong:
        raise click.ClickException(f"line {number}: {', '.join(wrong)} must be text")
    try:
        canonical_bytes(found)
    except UnicodeEncodeError:
        raise click.ClickException(f"line {number} holds text that is not Unicode (a lone surrogate)") from None
    return Envelope(0, found["group"], seq, found["type"], found.get("hand"), found.get("table"), found["data"],
                    found["actor"], found["recorded_at"], found["prev_hash"], found["hash"])


def _depth(value, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def read_lines(handle) -> Iterator[Envelope]:
    """The envelopes of an export opened in binary: a line at a time, none longer than
    ``MAX_LINE`` bytes, each UTF-8."""
    number = 0
    while True:
        line = handle.readline(MAX_LINE + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE:
            raise click.ClickException(f"line {number} is longer than {MAX_LINE:,} bytes: no event bitka appends "
                                       "comes near it (a request appends at most 1 MiB)")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise click.ClickException(f"line {number} is not UTF-8 ({e.reason} at byte {e.start})") from None
        if text.strip():
            yield from_line(text, number)


@click.command()
@click.option("--group", "group", required=True)
@click.option("--out", help="Write here instead of stdout (- is stdout). Never the store or its key.")
@click.option("--force", is_flag=True, help="Replace --out if it exists already.")
@click.option("--format", "form", type=click.Choice(["jsonl", "csv"]), default="jsonl", show_default=True,
              help="jsonl: the log itself, to import elsewhere; csv: the ledger, one row per payout.")
@store_option
@click.pass_obj
def export(obj, group, out, force, form):
    """Write the group's log as JSON Lines, one event envelope (with its group) per line;
    or, with --format csv, its ledger: one row per payout with the running balance.

    The file is written beside --out and renamed into place when it is whole. The store,
    its -wal and -shm files and the signing key are refused, and so is an existing file
    unless --force.

    \b
    Examples:
      bitka export --group g_3f9a1c2b7d10 --out club.jsonl
      bitka export --group g_3f9a1c2b7d10 --format csv --out club.csv
      bitka export --group g_3f9a1c2b7d10 > club.jsonl
    """
    target = None if out in (None, "-") else _checked_target(obj.db, out, force)
    with obj.store().reading() as r:
        total = r.count(group)
        if total == 0:
            raise click.UsageError(f"there is no group {group!r} in {obj.shown}")
        with _written(target) as handle:
            if form == "csv":
                names = {m["id"]: m["name"] for m in r.row("group", group, "")["members"]}
                for text in ledger_csv(r.scan(group, unread=EVENT_TYPES - MONEY_EVENTS), names):
                    handle.write(text)
            else:
                with output.progress(total, "exporting") as advance:
                    for env in r.scan(group):
                        handle.write(to_line(env) + "\n")
                        advance()
    if target:
        click.echo(f"exported {total} events of {group} to {out}", err=True)


def _protected(db: str) -> dict[Path, str]:
    """The files an export must never replace: the store's own and the signing key."""
    files = {Path(key_path(db, os.environ.get("BITKA_KEY"))): "the signing key"}
    if not is_postgres(db):
        store = Path(sqlite_path(db))
        files.update({store: "the store", Path(f"{store}-wal"): "the store's write-ahead log",
                      Path(f"{store}-shm"): "the store's shared memory",
                      Path(f"{store}-journal"): "the store's journal"})
    return files


def _checked_target(db: str, out: str, force: bool) -> Path:
    target = Path(out)
    for path, what in _protected(db).items():
        if _same(target, path):
            raise click.UsageError(f"--out {out} is {what}: export to another file")
    if not target.parent.is_dir():
        raise click.UsageError(f"--out {out}: there is no directory {target.parent}")
    if target.is_dir():
        raise click.UsageError(f"--out {out} is a directory: name a file")
    if target.is_file() and not force:
        raise click.UsageError(f"--out {out} exists already: add --force to replace it, or name a new file")
    return target


def _same(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


@contextmanager
def _written(target: Path | None):
    """A text handle: stdout; a device or pipe written as it is (nothing to rename); else a
    temporary file beside the target, renamed onto it only once it is whole and flushed."""
    if target is None:
        yield sys.stdout
        sys.stdout.flush()
        return
    if target.exists() and not target.is_file():
        with _failing_writes(target), open(target, "w", encoding="utf-8", newline="") as handle:
            yield handle
        return
    with _failing_writes(target):
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask()
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        os.chmod(temp, mode)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


@contextmanager
def _failing_writes(target: Path):
    try:
        yield
    except OSError as e:
        raise click.ClickException(f"cannot write {target}: {e.strerror or e}") from None


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@store_option
@click.pass_obj
def import_(obj, file):
    """Import an exported log. Nothing is written unless the whole file holds: every hash
    and link, every event one the API would have appended from its actor (the same request
    decided again by the ledger gives exactly it: a payment recorded by its receiver or the
    admin, a confirmation by a payer still waiting, a correction the admin's with the
    adjustments it makes...), and what the log means (each event decided again by its
    game, each settlement re-derived, each member and id checked). Each imported group gets
    a new admin token (tokens are never exported).

    \b
    Example:
      bitka --db copy.db import club.jsonl
    """
    store = obj.store(create=True)
    groups, count, older = _check_file(file)
    with store.reading() as r:
        present = [g for g in groups if r.version(g)]
    if present:
        raise click.ClickException(f"the store already holds group(s) {', '.join(present)}; nothing imported")
    tokens = {}
    with store.writing() as w, open(file, "rb") as handle:
        with output.progress(count, "importing") as advance:
            # Each event put to the ledger as the request its actor would have sent; the rows
            # are made as the API's appends make them (service/reenact.py).
            refused = Reenactment(w, older).run(output.counted(read_lines(handle), advance))
        _prove(w, groups, count, refused)
        for group in groups:
            token, digest = mint_token()
            w.add_credential(digest, group, ADMIN)
            tokens[group] = token
    store.analyze()
    for group, token in tokens.items():
        click.echo(f"imported group {group}; its new admin token: {token}")


def _prove(w, groups: list[str], count: int, refused: list[str]) -> None:
    """Replay the imported groups inside the import's transaction; refuse (exit 1, rolling
    it back) at the first thing that does not hold, or that the ledger refused (``refused``)."""
    with output.progress(count, "proving") as advance:
        report = replay(output.counted((e for g in groups for e in w.scan(g, bare=True)), advance), None,
                        strict=True, history=w.table_events)
    differences = report.differences + refused  # at one seq, replay's finding is said first
    if differences:
        report.differences = differences
        click.echo(report.first_difference(), err=True)
        if len(differences) > 1:
            click.echo(f"(and {len(differences) - 1} more)", err=True)
        click.echo("the log does not hold; nothing was imported", err=True)
        raise SystemExit(1)  # leaving the block rolls the transaction back
    for note in report.notes:
        click.echo(note, err=True)


def _measured(handle, advance):
    """The file's lines, advancing the progress bar by their length."""
    class Measured:
        def readline(self, limit: int = -1) -> bytes:
            line = handle.readline(limit)
            advance(len(line))
            return line
    return Measured()


def _check_file(file: str) -> tuple[list[str], int, set[tuple[str, str]]]:
    """The file's groups in order, its number of events, and the hands whose settlement
    records older rules than today's; every hash and link checked (exit 1 if one fails)."""
    groups: list[str] = []
    older: set[tuple[str, str]] = set()
    count = 0
    ids = _Ids()

    def seen(row):
        nonlocal count
        count += 1
        group = row[0]
        if group not in groups:
            groups.append(group)
        elif groups[-1] != group:
            raise click.ClickException(f"the events of group {group} are not together in seq order")
        ids.check(row)
        if row[2] == "settlement":
            version = json.loads(row[5]).get("rules_version", 1)
            if not isinstance(version, int) or version < RULES_VERSION:
                older.add((group, row[3]))

    with open(file, "rb") as handle, output.progress(os.path.getsize(file), "checking") as advance:
        bad = list(faults(map(raw, read_lines(_measured(handle, advance))), on_event=seen))
    if bad:
        for fault in bad:
            click.echo(str(fault), err=True)
        click.echo("nothing was imported", err=True)
        sys.exit(1)
    if not count:
        raise click.ClickException(f"{file} holds no events")
    return groups, count, older


# Where an event names the id of something new it makes: (kind, where the id is).
_NEW_IDS = {"member_added": ("member", "data"), "table_opened": ("table", "data"), "deal": ("hand", "hand"),
            "result": ("hand", "hand"), "tournament_created": ("tournament", "data")}


class _Ids:
    """Every id a group's log gives something new (its members, tables, hands and
    tournaments, and the group itself) names one thing only: an id used for two, of one kind
    or of two (a tournament's id equal to a table's), would make the API's addresses and the
    log's events name either. No member is ``admin``: that is who the admin's events are by."""

    def __init__(self):
        self.group: str | None = None
        self.named: dict[str, str] = {}  # id -> what it names first

    def check(self, row: tuple) -> None:
        group, seq, kind, hand = row[0], row[1], row[2], row[3]
        if group != self.group:
            self.group, self.named = group, {group: "the group"}
        made = _NEW_IDS.get(kind)
        if made is None:
            return
        what, where = made
        given = hand if where == "hand" else _field(row[5], what)
        if not isinstance(given, str):
            return  # no id, or not text: replay names what is wrong with it
        if what == "member" and given == ADMIN:
            raise click.ClickException(f"group {group}, seq {seq}: a member has the id {ADMIN!r}, which names the "
                                       "admin in every event's actor; no member may have it, so nothing was imported")
        first = self.named.setdefault(given, f"a {what}")
        if first != f"a {what}":  # one kind's id used twice is replay's to name (a member added twice...)
            raise click.ClickException(f"group {group}, seq {seq}: the {what} id {given} names {first} already; the "
                                       "API gives each new member, table, hand and tournament an id of its own, so "
                                       "nothing was imported")


def _field(data_json: str, name: str):
    try:
        data = json.loads(data_json)
    except ValueError:
        return None
    return data.get(name) if isinstance(data, dict) else None
