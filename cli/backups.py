"""Backups that prove themselves: a copy of the store (SQLite's online backup API) or a dump
(PostgreSQL's ``pg_dump``), checked as ``bitka verify`` and ``bitka replay`` check a store
before it counts, described by a manifest, the newest N kept; and the schedule that makes
them, on a clock that tests drive.

A backup is written beside its final name and renamed into place only once it verified
and replayed (an SQLite copy as the store it is; a dump loaded into a scratch schema and
checked there), then its manifest is written: what ``events.backups`` reads to say which
is the last good one. Older backups are deleted only after a new good one exists, and only
past the newest ``keep`` that are still intact on disk. One backup is made at a time in a
directory (an ``flock`` on ``DIR/.bitka-backup.lock``).
"""
from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed
from pathlib import Path
from typing import Callable

from events import backups
from events.database import is_postgres, open_store

from . import pg_dumps
from .checks import replay_store, verify_store
from .money_checks import store_faults

LOCK = ".bitka-backup.lock"
PARTIAL = ".partial"
RETRY = 600  # seconds: a failed backup is tried again this soon (or at the next interval, if sooner)


def _quiet(n: int = 1) -> None:
    """No progress bar: a scheduled backup runs unwatched."""


@dataclass
class Checked:
    """A store checked as a backup must be: what is wrong with it (nothing: []), and what it holds."""
    problems: list[str]
    events: int = 0
    settlements: int = 0
    groups: dict[str, dict] = field(default_factory=dict)  # group -> {"size", "hash", "root"}
    schema: int | None = None


def check(url: str) -> Checked:
    """Every hash and link (``bitka verify``), the money folded from the log against the stored
    balances, and every projection row and settlement derived again from the log
    (``bitka replay``), on the store at ``url``; then each group's size, last hash and Merkle root."""
    store = open_store(url)
    try:
        with store.reading() as r:
            if not r.is_store():
                return Checked(["it holds no bitka store"])
            problems = [f"the append-only triggers are missing: {', '.join(t)}" for t in [r.missing_triggers()] if t]
        problems += [str(f) for f in verify_store(url, None, _quiet)]
        report = replay_store(url, None, None, True, _quiet)
        problems += report.differences
        with store.reading() as r:
            problems += store_faults(r, None)
            if problems:
                return Checked(problems, report.events, report.settlements)
            groups = {g: {"size": n, "hash": r.hash_at(g, n), "root": r.merkle_root(g, n).hex()}
                      for g, n in sorted(r.sizes().items())}
            schema = max((v for (v,) in r.conn.execute("SELECT version FROM schema_migrations")), default=None)
        return Checked([], report.events, report.settlements, groups, schema)
    finally:
        store.close()


def differences(checked: Checked, facts: dict) -> list[str]:
    """How a store checked differs from what a manifest says it held."""
    said = facts.get("groups") or {}
    found = [f"the manifest says {facts.get('events')} events, and the backup holds {checked.events}"] \
        if checked.events != facts.get("events") else []
    for group in sorted(set(said) | set(checked.groups)):
        if said.get(group) != checked.groups.get(group):
            found.append(f"group {group}: the manifest says {said.get(group)}, and the backup holds "
                         f"{checked.groups.get(group)}")
    return found


def _bitka_version() -> str:
    try:
        return installed("bitka")
    except PackageNotFoundError:
        return "unknown"


class BackupFailed(Exception):
    """A backup that did not come out good: the sentence says why; nothing was counted."""


@dataclass(frozen=True)
class Made:
    file: Path
    facts: dict
    removed: tuple[str, ...] = ()

    def said(self) -> str:
        f = self.facts
        kept = f"; removed {len(self.removed)} older backup(s)" if self.removed else ""
        return (f"backed up {f['events']} events of {len(f['groups'])} group(s) to {self.file} ({f['size']:,} bytes, "
                f"sha256 {f['sha256'][:16]}...); it verifies and replays ({f['settlements']} settlements re-derived)"
                f"{kept}")


def _fsynced(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_json(path: Path, value: dict) -> None:
    """Whole or not at all: written beside ``path`` and renamed over it."""
    partial = path.with_name(f".{path.name}{PARTIAL}")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(value, out, indent=2, sort_keys=True)
        out.write("\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)


def copy_sqlite(db: str, out: Path) -> None:
    """SQLite's online backup of the store into ``out``: one consistent snapshot, however the
    store is being written meanwhile; the copy is a single file (no WAL beside it)."""
    source = open_store(db).connect()
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # backups hold token hashes: the owner's
        os.close(fd)
        target = sqlite3.connect(out)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode = DELETE")
        finally:
            target.close()
    finally:
        source.close()


def _checked_copy(db: str, partial: Path) -> tuple[Checked, dict]:
    """Make the copy or dump at ``partial`` and check it; the manifest's facts of the store's kind."""
    if is_postgres(db):
        problem = pg_dumps.tools_problem()
        if problem:
            raise BackupFailed(problem)
        schema = pg_dumps.schema_of(db)
        try:
            pg_dumps.dump(db, schema, partial)
            with pg_dumps.scratch(db) as (url, name):
                pg_dumps.load(partial, db, schema, name)
                checked = check(url)
        except pg_dumps.DumpFailed as e:
            raise BackupFailed(str(e)) from None
        return checked, {"kind": "postgresql", "schema_name": schema}
    copy_sqlite(db, partial)
    return check(str(partial)), {"kind": "sqlite"}


def make(db: str, out: Path, made_at: float, key_id: str | None = None) -> dict:
    """Back the store up to the file ``out`` (absent), checked, with its manifest ``out.json``
    beside it; the manifest's facts. BackupFailed, and no ``out``, when it does not check."""
    partial = out.with_name(f".{out.name}{PARTIAL}")
    partial.unlink(missing_ok=True)
    try:
        checked, kind = _checked_copy(db, partial)
        if checked.problems:
            raise BackupFailed("the copy does not verify and replay: " + "; ".join(checked.problems[:5])
                               + (f" (and {len(checked.problems) - 5} more)" if len(checked.problems) > 5 else ""))
        _fsynced(partial)
        facts = {"bitka_backup": backups.FORMAT, "file": out.name, **kind, "made_at": backups.stamp(made_at),
                 "size": partial.stat().st_size, "sha256": backups.sha256_of(partial), "events": checked.events,
                 "settlements": checked.settlements, "groups": checked.groups, "schema": checked.schema,
                 "key_id": key_id, "bitka": _bitka_version(),
                 "checked": "every hash and link verified; every projection row and settlement derived again "
                            "from the log and equal"}
        if out.exists():
            raise BackupFailed(f"{out} exists already; back up to a new file")
        os.replace(partial, out)
        _write_json(out.with_name(out.name + backups.MANIFEST), facts)
        _fsynced(out.parent)
        return facts
    finally:
        partial.unlink(missing_ok=True)


def file_name(db: str, made_at: float, directory: Path) -> Path:
    """``bitka-20261129T140000Z.db`` (or ``.sql.gz`` for a dump), a new name in ``directory``."""
    base = backups.PREFIX + time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(made_at))
    suffix = ".sql.gz" if is_postgres(db) else ".db"
    name, n = directory / f"{base}{suffix}", 2
    while name.exists() or name.with_name(name.name + backups.MANIFEST).exists():
        name, n = directory / f"{base}-{n}{suffix}", n + 1
    return name


class DirectoryLock:
    """One backup at a time in a directory (a scheduled one and one from cron, say)."""

    def __init__(self, directory: Path):
        self.path = directory / LOCK

    def __enter__(self):
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def into_directory(db: str, directory: Path, keep: int, now: float, key_id: str | None = None) -> Made:
    """One backup into ``directory``, then the older ones past the newest ``keep`` intact ones
    removed; ``last-attempt.json`` says how it went either way."""
    directory.mkdir(parents=True, exist_ok=True)
    with DirectoryLock(directory):
        for stale in directory.glob(f".{backups.PREFIX}*{PARTIAL}"):  # left by a backup that was killed
            stale.unlink(missing_ok=True)
        out = file_name(db, now, directory)
        try:
            facts = make(db, out, now, key_id)
        except BackupFailed as e:
            _write_json(directory / backups.ATTEMPT, {"at": backups.stamp(now), "ok": False, "problem": str(e)})
            raise
        except Exception as e:  # the store or the disk failed: said as a failed attempt, not a traceback
            problem = f"{type(e).__name__}: {str(e).strip()}"
            _write_json(directory / backups.ATTEMPT, {"at": backups.stamp(now), "ok": False, "problem": problem})
            raise BackupFailed(problem) from e
        _write_json(directory / backups.ATTEMPT, {"at": backups.stamp(now), "ok": True, "file": out.name})
        return Made(out, facts, tuple(prune(directory, keep)))


def prune(directory: Path, keep: int) -> list[str]:
    """Remove the backups older than the newest ``keep`` that are intact on disk (a damaged
    one among the newest stays, and is reported, but does not count towards ``keep``)."""
    found, _unreadable = backups.listed(directory)
    intact, removed = 0, []
    for backup in found:
        if intact >= keep:
            backup.file.unlink(missing_ok=True)
            backup.manifest.unlink(missing_ok=True)
            removed.append(backup.name)
        elif backups.damage(backup) is None:
            intact += 1
    return removed


class Schedule:
    """A backup every ``every`` seconds, timed from the last good one (so a restart does not
    make one early, nor wait a whole interval when one is due); a failed one is tried again
    after ``RETRY`` seconds (or the interval, if shorter).

    The clock is injected: ``clock()`` says the time (seconds since the epoch) and
    ``sleep(s)`` waits, so that a test drives a day of backups in a moment. ``alive()`` is
    asked between naps of at most ``nap`` seconds: the schedule ends when it says no (the
    server that started it is gone)."""

    def __init__(self, backup: Callable[[float], object], every: float, last_good: Callable[[], float | None],
                 clock: Callable[[], float] = time.time, sleep: Callable[[float], None] = time.sleep,
                 alive: Callable[[], bool] = lambda: True, nap: float = 1.0,
                 said: Callable[[str], None] = lambda text: None):
        self.backup, self.every, self.last_good = backup, every, last_good
        self.clock, self.sleep, self.alive, self.nap, self.said = clock, sleep, alive, nap, said
        self.failed_at: float | None = None

    def due(self) -> float:
        """When the next backup is due."""
        last = self.last_good()
        due = self.clock() if last is None else last + self.every
        if self.failed_at is not None:
            due = max(due, self.failed_at + min(RETRY, self.every))
        return due

    def run(self, attempts: int | None = None) -> int:
        """Make backups when due, until ``alive()`` says no (or ``attempts`` were made)."""
        made = 0
        while attempts is None or made < attempts:
            due = self.due()
            while (now := self.clock()) < due:
                if not self.alive():
                    return made
                self.sleep(min(due - now, self.nap))
            if not self.alive():
                return made
            made += 1
            try:
                outcome = self.backup(now)
            except BackupFailed as e:
                self.failed_at = now
                self.said(f"the backup at {backups.stamp(now)} failed: {e}; trying again at "
                          f"{backups.stamp(self.due())}")
                continue
            self.failed_at = None
            self.said(outcome.said() if hasattr(outcome, "said") else str(outcome))
        return made


def last_good_at(directory: Path, every: float) -> Callable[[], float | None]:
    """When the last good backup of ``directory`` was made (None: there is none)."""
    def at() -> float | None:
        good = backups.status(directory, int(every)).last_good
        return None if good is None else good.made_at
    return at
