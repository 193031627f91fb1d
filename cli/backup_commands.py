"""``bitka backup`` and ``bitka restore``: backups that prove themselves, made once, on a
schedule, or by ``bitka serve``; brought back only after they prove themselves again."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import backups as on_disk

from .backups import BackupFailed, Schedule, into_directory, last_good_at, make, signing_key
from .options import store_option
from .proofs import key_path
from .restore import RestoreFailed, RestoreRefused, key_note
from .restore import restore as bring_back


class Duration(click.ParamType):
    """``90s``, ``15m``, ``1h``, ``1h30m``, ``2d`` or a number of seconds."""
    name = "DURATION"

    def convert(self, value, param, ctx):
        try:
            return on_disk.seconds(value)
        except ValueError as e:
            self.fail(str(e), param, ctx)


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--dir", "directory", type=click.Path(file_okay=False),
              help="Back up into this directory (bitka-<UTC time>.db or .rows.gz, each with its manifest .json), "
                   "keeping the newest --keep.")
@click.option("--keep", type=click.IntRange(min=1), default=48, show_default=True,
              help="With --dir: how many good backups to keep; older ones go only after a new good one exists.")
@click.option("--every", type=Duration(), help="With --dir: go on making one every DURATION (1h, 30m, 1d).")
@click.option("--key", "key_file", envvar="BITKA_KEY",
              help="The store's signing key, which signs each backup's manifest (default: the store's name + .key; "
                   "./bitka.key for PostgreSQL; made if there is none, as bitka serve makes it).")
@click.option("--while-pid", type=int, hidden=True)  # bitka serve's: stop when that process is gone
@store_option
@click.pass_obj
def backup(obj, file, directory, keep, every, key_file, while_pid):
    """Back the store up, consistently even while bitka serve writes to it, and prove the
    copy before it counts: every hash and link verified, every projection row and
    settlement derived again from the log, and nothing in it that bitka does not write
    (SQLite: an online copy; PostgreSQL: its tables' rows in bitka's own format, loaded
    into a scratch schema and checked there). Each backup has a manifest beside it (when,
    size, SHA-256, events, each group's size, last hash and Merkle root), signed with the
    store's signing key, that bitka restore checks it against. A backup that does not
    prove itself is exit 1 and counts for nothing. The signing key is not in the backup:
    keep a copy of it apart (bitka restore needs it).

    \b
    Examples:
      bitka --db club.db backup /backups/club-2026-11-29.db
      bitka --db club.db backup --dir /var/backups/bitka --keep 48
      bitka --db club.db backup --dir /var/backups/bitka --every 1h --keep 48
      bitka --db postgresql://bitka@db.example/bitka backup --dir /var/backups/bitka
    """
    if bool(file) == bool(directory):
        raise click.UsageError("name one FILE to back up to, or a directory with --dir")
    given = click.get_current_context().get_parameter_source
    if file and (every or given("keep") == click.core.ParameterSource.COMMANDLINE):
        raise click.UsageError("--every and --keep go with --dir")
    obj.store()  # a store there, or bad usage
    try:
        key = signing_key(obj.db, key_path(obj.db, key_file))
    except (ValueError, OSError) as e:
        raise click.UsageError(f"the signing key at {key_path(obj.db, key_file)} cannot be read: {e}") from None
    if file:
        if Path(file).exists() or Path(file).is_symlink():
            raise click.UsageError(f"{file} exists already; back up to a new file")
        try:
            facts = make(obj.db, Path(file), time.time(), key)
        except BackupFailed as e:
            click.echo(str(e))
            sys.exit(1)
        click.echo(f"backed up {facts['events']} events of {len(facts['groups'])} group(s) to {file}; the copy "
                   f"verifies and replays (manifest: {file}{on_disk.MANIFEST})")
        return
    where = Path(directory)
    if every is None:
        try:
            click.echo(into_directory(obj.db, where, keep, time.time(), key).said())
        except BackupFailed as e:
            click.echo(f"the backup failed: {e}")
            sys.exit(1)
        return
    scheduled(obj.db, where, every, keep, key, while_pid)


def scheduled(db: str, where: Path, every: int, keep: int, key: Ed25519PrivateKey, while_pid: int | None) -> None:
    """Backups on schedule until stopped (SIGTERM, or the server that started this is gone)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # a backup in progress cleans up after itself

    def said(text: str) -> None:
        click.echo(f"bitka backup: {text}", err=True)

    schedule = Schedule(lambda now: into_directory(db, where, keep, now, key), every,
                        last_good_at(where, every, key.public_key()),
                        alive=(lambda: os.getppid() == while_pid) if while_pid else (lambda: True), said=said)
    said(f"a backup of the store every {every} s into {where}, keeping the newest {keep}; the next is due at "
         f"{on_disk.stamp(schedule.due())}")
    try:
        schedule.run()
    except KeyboardInterrupt:
        pass


@click.command()
@click.argument("backup_path", metavar="BACKUP", type=click.Path(exists=True))
@click.option("--to", "target", required=True, metavar="STORE",
              help="Where to: an SQLite file (a path or sqlite:///path) or postgresql://... (its schema).")
@click.option("--force", is_flag=True, help="Replace a target that is not empty.")
@click.option("--key", "key_file", envvar="BITKA_KEY",
              help="The signing key that signed the backup, which the restored store will be served with "
                   "(default: the target's name + .key; ./bitka.key for PostgreSQL).")
def restore(backup_path, target, force, key_file):
    """Bring a backup back, after checking it: its manifest's signature with the signing
    key, its SHA-256 against its manifest, then every hash and link, every projection row
    and settlement derived again, nothing in it that bitka does not write (a trigger, a
    view, a credential the log does not explain), and each group's size, last hash and
    Merkle root against the manifest. BACKUP is a backup file, or a directory of them (its
    newest good backup). A target that is not empty is replaced only with --force (stop
    bitka serve on it first). Exit 1 when the backup does not prove itself: then nothing
    was replaced.

    \b
    Examples:
      bitka restore /var/backups/bitka --to club.db
      bitka restore /var/backups/bitka/bitka-20261129T140000Z.db --to club.db --force
      bitka restore bitka-20261129T140000Z.rows.gz --to postgresql://bitka@db.example/bitka --key bitka.key
    """
    try:
        chosen, done = bring_back(backup_path, target, force, key_path(target, key_file))
    except RestoreRefused as e:
        raise click.UsageError(str(e)) from None
    except RestoreFailed as e:
        click.echo(str(e))
        sys.exit(1)
    for problem in chosen.passed_over:
        click.echo(f"passed over: {problem}")
    for note in chosen.notes:
        click.echo(note)
    click.echo(done)
    note = key_note(chosen, key_path(target, key_file), target)
    if note:
        click.echo(note)


class Runner:
    """``bitka serve``'s backups: ``bitka backup --dir DIR --every ... --keep ...`` in a process
    of its own, started once the server is ready and stopped with it (and stopping by itself
    if the server is killed). A process rather than a thread of gunicorn's master: the
    master forks workers, which must not inherit a backup half made, and a backup's replay
    runs on every core without slowing the master's supervision of them. With ``makes``
    False the server only watches the directory: another process makes the backups (cron,
    a systemd timer, or ``bitka backup --every`` under a supervisor)."""

    def __init__(self, db: str, directory: str, every: int, keep: int, key_file: str | None, makes: bool = True):
        self.db, self.directory, self.every, self.keep = db, str(Path(directory).resolve()), every, keep
        self.key_file, self.makes = key_file, makes
        self.process = None
        self.since = time.time()  # the schedule began: every worker counts the first backup's grace from here

    @property
    def config(self) -> dict:
        """What the app is told, to say how fresh the backups are (readiness, metrics, the admin's page)."""
        return {"BITKA_BACKUP_DIR": self.directory, "BITKA_BACKUP_EVERY": self.every, "BITKA_BACKUP_SINCE": self.since}

    def check(self) -> None:
        """Before serving: the directory can be written to."""
        where = Path(self.directory)
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise click.UsageError(f"--backup-dir {where} cannot be made: {e.strerror}") from None
        if self.makes and not os.access(where, os.W_OK | os.X_OK):
            raise click.UsageError(f"--backup-dir {where} is not writable by this user")

    def start(self) -> None:
        if not self.makes or self.process is not None:
            return
        command = [sys.executable, "-m", "cli", "backup", "--dir", self.directory, "--every", str(self.every),
                   "--keep", str(self.keep), "--while-pid", str(os.getpid())]
        if self.key_file:
            command += ["--key", self.key_file]
        # The store goes in the environment, not the command line, where a PostgreSQL password could be read.
        env = {**os.environ, "BITKA_DB": self.db}
        self.process = subprocess.Popen(command, env=env, cwd=os.getcwd())

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(30)
        except Exception:  # still running after 30 s: a backup that would not stop
            process.kill()
            process.wait()
