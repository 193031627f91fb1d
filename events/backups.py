"""Backups as they lie in their directory: each backup file beside its manifest, and which
is the last good one.

``bitka backup --dir DIR`` (cli/backups.py) writes ``bitka-<UTC time>.db`` (an SQLite copy)
or ``bitka-<UTC time>.rows.gz`` (a PostgreSQL store's rows, cli/pg_dumps.py), and only once
the copy has verified and replayed, its manifest ``<file>.json``: when it was made, its size,
its SHA-256, its events and each group's size, last hash and Merkle root, signed with the
store's signing key (the key of its checkpoints). ``last-attempt.json`` says how the latest
attempt went.

A backup counts as good only while its manifest's signature holds with the key the reader
holds, its date is not in the future, and its file is still the one the manifest describes
(size and SHA-256 recomputed). Anyone who can write to the directory can write a manifest
and recompute a SHA-256, but not sign: a backup that is not bitka's, or not this key's, is
named, never counted as the last good one, never restored and never deleted. The service
reads this (its readiness, its metrics, the admin's page); nothing here writes.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from .canonical import canonical_bytes

PREFIX = "bitka-"
MANIFEST = ".json"  # a backup's manifest is its file's name + .json
ATTEMPT = "last-attempt.json"
FORMAT = 2  # the manifest's own version: 2 is signed (1, unsigned, was read until 2026-12)
UNSIGNED = 1
AHEAD = 300  # seconds: a backup dated later than this past now is from the future (a clock, or a forgery)
_SIGNED = b"bitka backup manifest\n"  # what a manifest's signature covers begins so: never a checkpoint's
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_DURATION = re.compile(r"(\d+)([smhdw])")


def seconds(text: str | int | float) -> int:
    """A duration as the command line takes it: ``90s``, ``15m``, ``1h``, ``1h30m``, ``2d``,
    or a number of seconds. ValueError for anything else, or for nothing at all."""
    if isinstance(text, (int, float)):
        value = int(text)
    else:
        spoken = str(text).strip().lower()
        if spoken.isascii() and spoken.isdigit():
            value = int(spoken)
        else:
            parts = _DURATION.findall(spoken)
            if not parts or "".join(n + u for n, u in parts) != spoken:
                raise ValueError(f"{text!r} is not a duration (say 90s, 15m, 1h, 1h30m or 2d)")
            value = sum(int(n) * _UNITS[u] for n, u in parts)
    if value <= 0:
        raise ValueError(f"{text!r} is not a duration longer than nothing")
    return value


def stamp(moment: float) -> str:
    """An instant as manifests write it (RFC 3339, UTC), as the log's events do."""
    return datetime.fromtimestamp(moment, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def instant(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def key_id_of(public: Ed25519PublicKey) -> str:
    """The key's id, as GET /v1/keys and checkpoints name it (events/checkpoint.py)."""
    return hashlib.sha256(public.public_bytes(Encoding.Raw, PublicFormat.Raw)).hexdigest()[:16]


def signed(facts: dict, key: Ed25519PrivateKey) -> dict:
    """The manifest's facts with their signature: over every other fact of the manifest (the
    file's name, size and SHA-256 among them), with the store's signing key."""
    body = {k: v for k, v in facts.items() if k != "signature"}
    body["key_id"] = key_id_of(key.public_key())
    signature = base64.b64encode(key.sign(_SIGNED + canonical_bytes(body))).decode("ascii")
    return {**body, "signature": signature}


def signature_problem(name: str, facts: dict, key: Ed25519PublicKey | None) -> str | None:
    """Why the manifest of backup ``name`` is not one this key signed (None: it is)."""
    if facts.get("bitka_backup") == UNSIGNED:
        return (f"{name} was made by an older bitka and is not signed, so nothing proves bitka made it: it is "
                "not counted, restored or deleted")
    if key is None:
        return f"{name}'s signature cannot be checked: no signing key is loaded"
    body = {k: v for k, v in facts.items() if k != "signature"}
    try:
        key.verify(base64.b64decode(str(facts.get("signature")), validate=True), _SIGNED + canonical_bytes(body))
        return None
    except (InvalidSignature, binascii.Error, ValueError, TypeError):
        ours, said = key_id_of(key), facts.get("key_id")
        names = f"; it names key {said}" if said != ours else ""
        return (f"{name}'s manifest is not signed by bitka's signing key (key {ours}{names}): it was changed, or not "
                "made by this bitka, so it is not counted, restored or deleted")


def future_problem(name: str, made_at: float, now: float) -> str | None:
    """A backup dated in the future: a clock gone wrong, or a manifest that lies."""
    if made_at <= now + AHEAD:
        return None
    return (f"{name}'s manifest says it was made at {stamp(made_at)}, in the future (it is {stamp(now)} now): it is "
            "not counted as the last good backup")


@dataclass(frozen=True)
class Backup:
    """One backup: its file, its manifest's path and what the manifest says."""
    file: Path
    manifest: Path
    made_at: float
    facts: dict = field(compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.file.name


def listed(directory: str | Path) -> tuple[list[Backup], list[tuple[str, str]]]:
    """The backups of ``directory`` whose manifests can be read, the newest first, and the
    manifests that cannot (each name with a sentence)."""
    found, unreadable = [], []
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return [], []
    for name in names:
        if not (name.startswith(PREFIX) and name.endswith(MANIFEST)):
            continue
        path = Path(directory) / name
        try:
            facts = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(facts, dict) or facts.get("bitka_backup") not in (FORMAT, UNSIGNED) \
                    or facts.get("file") != name[:-len(MANIFEST)]:
                raise ValueError("it is not a bitka backup manifest")
            made_at = instant(facts["made_at"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            unreadable.append((name, f"the manifest {path} cannot be read ({e})"))
            continue
        found.append(Backup(path.with_name(facts["file"]), path, made_at, facts))
    found.sort(key=lambda b: (b.made_at, b.name), reverse=True)
    return found, unreadable


def sha256_of(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


_sums: dict[tuple, str] = {}  # (path, inode, size, mtime) -> its SHA-256: a file read once while unchanged
_sums_lock = threading.Lock()


def damage(backup: Backup) -> str | None:
    """What is wrong with the backup's file, as its manifest describes it (None: nothing).
    The SHA-256 of a file is computed again whenever the file changed since it was last read
    (another size, time or inode), so a check costs a ``stat`` while it stays the same."""
    try:
        st = os.stat(backup.file)
    except OSError:
        return f"{backup.name} is gone (its manifest is there)"
    if st.st_size != backup.facts.get("size"):
        return f"{backup.name} is {st.st_size} bytes, and its manifest says {backup.facts.get('size')}"
    key = (str(backup.file), st.st_ino, st.st_size, st.st_mtime_ns)
    with _sums_lock:
        known = _sums.get(key)
    if known is None:
        try:
            known = sha256_of(backup.file)
        except OSError as e:
            return f"{backup.name} cannot be read ({e.strerror})"
        with _sums_lock:
            if len(_sums) > 1024:
                _sums.clear()
            _sums[key] = known
    if known != backup.facts.get("sha256"):
        return (f"{backup.name} does not match its manifest: its SHA-256 is {known}, the manifest says "
                f"{backup.facts.get('sha256')} (it was damaged on disk)")
    return None


def distrust(backup: Backup, key: Ed25519PublicKey | None, now: float) -> str | None:
    """Why ``backup`` is not one to count or restore (None: it is): its manifest not signed
    with ``key``, its date in the future, or its file not the one the manifest describes."""
    return (signature_problem(backup.name, backup.facts, key) or future_problem(backup.name, backup.made_at, now)
            or damage(backup))


@dataclass(frozen=True)
class Status:
    """How the backups of a directory stand at ``now``: the last good one, the newer ones
    that are damaged, and the latest attempt when it failed after the last good one."""
    directory: str
    every: int
    now: float
    last_good: Backup | None
    damaged: tuple[tuple[str, str], ...]  # (file or manifest name, what is wrong with it), the newest first
    failed: dict | None  # the latest attempt, when it failed after the last good backup
    due_first: bool  # no good backup yet, but the first is not late: the schedule only just began
    ahead: int = 0  # how many of ``damaged`` are dated in the future

    @property
    def age(self) -> float | None:
        return None if self.last_good is None else max(0.0, self.now - self.last_good.made_at)

    @property
    def fresh(self) -> bool:
        """The last good backup is at most twice the interval old (or the first is not yet late)."""
        if self.last_good is None:
            return self.due_first
        return self.age <= 2 * self.every

    @property
    def problems(self) -> list[str]:
        """Why the backups are not as they should be, in sentences (none: all is well)."""
        said = [problem for _name, problem in self.damaged]
        if self.last_good is None and not self.due_first:
            said.append(f"there is no good backup in {self.directory}")
        elif self.last_good is not None and not self.fresh:
            said.append(f"the last good backup, {self.last_good.name}, is {int(self.age)} s old: older than twice "
                        f"the interval ({self.every} s)")
        if self.failed is not None:
            said.append(f"the last attempt, at {self.failed.get('at')}, failed: {self.failed.get('problem')}")
        return said


def status(directory: str | Path, every: int, key: Ed25519PublicKey | None, now: float | None = None,
           since: float | None = None) -> Status:
    """The backups of ``directory`` made every ``every`` seconds, as they stand ``now``; only
    those whose manifests ``key`` signed count. ``since`` is when the schedule began (the
    server started): until twice the interval has passed, having no backup yet is not late."""
    now = time.time() if now is None else now
    backups, unreadable = listed(directory)
    damaged, last_good, ahead = list(unreadable), None, 0
    for backup in backups:
        problem = distrust(backup, key, now)
        if problem is None:
            last_good = backup
            break
        damaged.append((backup.name, problem))
        ahead += backup.made_at > now + AHEAD
    attempt = last_attempt(directory)
    failed = None
    if attempt is not None and not attempt.get("ok"):
        try:
            failed = attempt if last_good is None or instant(attempt["at"]) >= last_good.made_at else None
        except (KeyError, ValueError, TypeError, AttributeError):
            failed = attempt
    due_first = last_good is None and failed is None and since is not None and now - since <= 2 * every
    return Status(str(directory), every, now, last_good, tuple(damaged), failed, due_first, ahead)


def last_attempt(directory: str | Path) -> dict | None:
    try:
        said = json.loads((Path(directory) / ATTEMPT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return said if isinstance(said, dict) else None
