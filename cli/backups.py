"""Backups that prove themselves: a copy of the store (SQLite's online backup API) or its
rows (PostgreSQL, cli/pg_dumps.py), checked as ``bitka verify`` and ``bitka replay`` check a
store, and for anything bitka would not have written (cli/backup_contents.py), before it
counts; described by a manifest signed with the store's signing key, the newest N kept; and
the schedule that makes them, on a clock that tests drive.

A backup is made in a directory of its own inside the backup directory (made afresh, the
owner's alone: nobody else's file or link is ever written through), renamed into place only
once it verified and replayed (an SQLite copy as the store it is; PostgreSQL rows loaded into
a scratch schema and checked there), then its signed manifest is written: what
``events.backups`` reads to say which is the last good one. Older backups are deleted only
after a new good one exists, only past the newest ``keep`` good ones, and only those whose
manifests this key signed: bitka deletes no file it did not make. One backup is made at a
time in a directory (an ``flock`` on ``DIR/.bitka-backup.lock``).
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import sqlite3
import stat
import tempfile
import time
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed
from pathlib import Path
from typing import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import backups
from events.checkpoint import default_key_path, load_or_create_key
from events.database import is_postgres, open_store
from projections import kept

from . import pg_dumps
from .backup_contents import foreign_objects, unexplained_rows
from .checks import replay_store, verify_store
from .money_checks import store_faults

LOCK = ".bitka-backup.lock"
PARTIAL = ".partial"
WORK = ".bitka-backup-"  # the directory of one backup being made, inside the backup directory
MADE = "made-by-bitka"  # in it: what says bitka made it, so that only such a directory left behind is removed
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
            problems += [] if is_postgres(url) else foreign_objects(r.conn)  # PostgreSQL's: made by migrations
            problems += unexplained_rows(r.conn)
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
    """Whole or not at all: written to a new file of a new name beside ``path`` (never
    through a file or a link that was there) and renamed over it."""
    fd, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=PARTIAL, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(value, out, indent=2, sort_keys=True)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, path)
    finally:
        Path(partial).unlink(missing_ok=True)


def copy_sqlite(db: str, out: Path) -> None:
    """SQLite's online backup of the store into ``out``: one consistent snapshot, however the
    store is being written meanwhile; the copy is a single file (no WAL beside it)."""
    source = open_store(db).connect()
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)  # token hashes: the owner's
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
        try:
            schema = pg_dumps.schema_of(db)
            pg_dumps.dump(db, schema, partial)
            with pg_dumps.scratch(db) as (url, name):
                pg_dumps.load(partial, db, name)
                open_store(url).setup(kept.rebuild).close()  # a backup of an older schema: the later migrations
                checked = check(url)
        except pg_dumps.DumpFailed as e:
            raise BackupFailed(str(e)) from None
        return checked, {"kind": "postgresql", "format": "rows", "schema_name": schema}
    copy_sqlite(db, partial)
    return check(str(partial)), {"kind": "sqlite"}


def signing_key(db: str, key_file: str | None = None) -> Ed25519PrivateKey:
    """The key the store's checkpoints are signed with (made, as bitka serve makes it, when
    there is none yet): it signs each backup's manifest too."""
    return load_or_create_key(key_file or default_key_path(db))


def make(db: str, out: Path, made_at: float, key: Ed25519PrivateKey) -> dict:
    """Back the store up to the file ``out`` (absent), checked, with its manifest ``out.json``
    beside it, signed with ``key``; the manifest's facts. BackupFailed, and no ``out``, when
    it does not check."""
    with tempfile.TemporaryDirectory(prefix=WORK, dir=out.parent) as work:  # 0700, new: nobody else's
        (Path(work) / MADE).touch(exist_ok=False)
        partial = Path(work) / out.name
        checked, kind = _checked_copy(db, partial)
        if checked.problems:
            raise BackupFailed("the copy does not verify and replay: " + "; ".join(checked.problems[:5])
                               + (f" (and {len(checked.problems) - 5} more)" if len(checked.problems) > 5 else ""))
        _fsynced(partial)
        facts = backups.signed({
            "bitka_backup": backups.FORMAT, "file": out.name, **kind, "made_at": backups.stamp(made_at),
            "size": partial.stat().st_size, "sha256": backups.sha256_of(partial), "events": checked.events,
            "settlements": checked.settlements, "groups": checked.groups, "schema": checked.schema,
            "bitka": _bitka_version(),
            "checked": "every hash and link verified; every projection row and settlement derived again from the "
                       "log and equal; nothing in it that bitka does not write"}, key)
        if out.exists() or out.is_symlink():
            raise BackupFailed(f"{out} exists already; back up to a new file")
        os.replace(partial, out)
        _write_json(out.with_name(out.name + backups.MANIFEST), facts)
        _fsynced(out.parent)
        return facts


def file_name(db: str, made_at: float, directory: Path) -> Path:
    """``bitka-20261129T140000Z.db`` (or ``.rows.gz`` for PostgreSQL), a new name in ``directory``."""
    base = backups.PREFIX + time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(made_at))
    suffix = pg_dumps.SUFFIX if is_postgres(db) else ".db"
    name, n = directory / f"{base}{suffix}", 2
    while any(p.exists() or p.is_symlink() for p in (name, name.with_name(name.name + backups.MANIFEST))):
        name, n = directory / f"{base}-{n}{suffix}", n + 1
    return name


class DirectoryLock:
    """One backup at a time in a directory (a scheduled one and one from cron, say)."""

    def __init__(self, directory: Path):
        self.path = directory / LOCK

    def __enter__(self):
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)  # never through a link
        except OSError as e:
            raise BackupFailed(f"{self.path} cannot be opened as bitka's lock ({e.strerror}): if it is a link, "
                               "someone else put it there; remove it") from None
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def into_directory(db: str, directory: Path, keep: int, now: float, key: Ed25519PrivateKey | None = None) -> Made:
    """One backup into ``directory``, signed with ``key`` (by default the store's signing
    key, beside it), then the older ones past the newest ``keep`` good ones removed;
    ``last-attempt.json`` says how it went either way."""
    key = signing_key(db) if key is None else key
    directory.mkdir(parents=True, exist_ok=True)
    with DirectoryLock(directory):
        for stale in directory.glob(f"{WORK}*"):  # left by a backup that was killed: only one bitka made
            if _made_by_bitka(stale):
                shutil.rmtree(stale, ignore_errors=True)
        out = file_name(db, now, directory)
        try:
            facts = make(db, out, now, key)
        except BackupFailed as e:
            _write_json(directory / backups.ATTEMPT, {"at": backups.stamp(now), "ok": False, "problem": str(e)})
            raise
        except Exception as e:  # the store or the disk failed: said as a failed attempt, not a traceback
            problem = f"{type(e).__name__}: {str(e).strip()}"
            _write_json(directory / backups.ATTEMPT, {"at": backups.stamp(now), "ok": False, "problem": problem})
            raise BackupFailed(problem) from e
        _write_json(directory / backups.ATTEMPT, {"at": backups.stamp(now), "ok": True, "file": out.name})
        return Made(out, facts, tuple(prune(directory, keep, key.public_key(), now)))


def _made_by_bitka(stale: Path) -> bool:
    """Whether ``stale`` is a directory a backup of this user's made (and left when it was
    killed): a directory, not a link, of ours, holding the file that says so."""
    try:
        mark = (stale / MADE).lstat()
        return (stale.is_dir() and not stale.is_symlink() and stale.lstat().st_uid == os.getuid()
                and stat.S_ISREG(mark.st_mode))
    except OSError:
        return False


def prune(directory: Path, keep: int, key, now: float) -> list[str]:
    """Remove the backups older than the newest ``keep`` good ones (a damaged one among the
    newest stays, and is reported, but does not count towards ``keep``). Only backups whose
    manifests ``key`` signed are counted or removed: a file bitka did not make stays, and so
    does whatever was put in place of one (a directory, say): it is left for its owner."""
    found, _unreadable = backups.listed(directory)
    good, removed = 0, []
    for backup in found:
        if backups.signature_problem(backup.name, backup.facts, key) is not None:
            continue
        if good >= keep:
            try:
                if stat.S_ISREG(backup.file.lstat().st_mode):
                    backup.file.unlink()
                backup.manifest.unlink(missing_ok=True)
            except FileNotFoundError:
                pass
            except OSError:
                continue  # not ours to remove after all (another user's, a read-only disk): left as it is
            removed.append(backup.name)
        elif backups.distrust(backup, key, now) is None:
            good += 1
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
            except Exception as e:  # whatever went wrong, the schedule goes on: tried again soon
                self.failed_at = now
                problem = e if isinstance(e, BackupFailed) else f"{type(e).__name__}: {e}"
                self.said(f"the backup at {backups.stamp(now)} failed: {problem}; trying again at "
                          f"{backups.stamp(self.due())}")
                continue
            self.failed_at = None
            self.said(outcome.said() if hasattr(outcome, "said") else str(outcome))
        return made


def last_good_at(directory: Path, every: float, key, clock: Callable[[], float] = time.time
                 ) -> Callable[[], float | None]:
    """When the last good backup of ``directory`` was made (None: there is none): one whose
    manifest ``key`` signed, dated no later than now."""
    def at() -> float | None:
        good = backups.status(directory, int(every), key, clock()).last_good
        return None if good is None else good.made_at
    return at
