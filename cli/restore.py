"""``bitka restore``: a backup brought back only after it proves itself.

First its manifest: signed with the store's signing key (``--key``; anyone who can write
to a backup directory can write a manifest and its SHA-256, nobody without the key can sign
one), dated no later than now when it is picked from a directory. Then the file, copied
where only its owner can write (so what is checked is what is restored), against the
manifest's size and SHA-256; then the copy checked as a store (every hash and link, the
money, every projection row and settlement derived again from the log, and nothing in it
bitka does not write: ``backups.check``) and compared with what its manifest says it held
(each group's size, last hash and Merkle root). Only then does it replace anything: an
SQLite copy is checked beside the target and renamed over it; PostgreSQL rows are loaded
into a scratch schema of the target's database and checked there, then loaded into the
target's schema in one transaction. A target that is not empty is replaced only with
``--force``.

A backup is data: nothing in it is run. The ``pg_dump`` scripts older bitkas made
(``.sql.gz``) are refused, with how to bring one back by hand; so are the unsigned SQLite
copies they made.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events import backups
from events.checkpoint import default_key_path, load_or_create_key
from events.database import is_postgres, open_store, sqlite_path
from events.pgstore import redacted
from projections import kept

from . import pg_dumps
from .backups import PARTIAL, check, differences
from .pg_dumps import schema_of


class RestoreRefused(Exception):
    """Bad usage (exit 2): the sentence says what to do instead."""


class RestoreFailed(Exception):
    """The backup does not prove itself (exit 1); nothing was replaced."""


@dataclass(frozen=True)
class Chosen:
    file: Path
    facts: dict
    made_at: float
    passed_over: tuple[str, ...] = ()  # the newer backups of a directory that are damaged, or not bitka's
    notes: tuple[str, ...] = ()

    @property
    def backup(self) -> backups.Backup:
        return backups.Backup(self.file, self.file.with_name(self.file.name + backups.MANIFEST), self.made_at,
                              self.facts)


def public_key(key_file: str) -> Ed25519PublicKey:
    """The signing key's public half, to check a backup's signature with; never made here."""
    if not Path(key_file).exists():
        raise RestoreRefused(f"there is no signing key at {key_file} to check the backup's signature with: give the "
                             "copy of the store's signing key you keep apart with --key FILE; nothing was restored")
    try:
        return load_or_create_key(key_file).public_key()
    except (ValueError, OSError) as e:
        raise RestoreRefused(f"the signing key at {key_file} cannot be read ({e}); nothing was restored") from None


def newest_good(path: Path, key: Ed25519PublicKey, now: float) -> Chosen:
    """The newest good backup of the directory ``path``: signed with ``key``, not from the
    future, intact; the newer ones passed over, each with why."""
    state = backups.status(path, 1, key, now)
    if state.last_good is None:
        damaged = "; ".join(problem for _name, problem in state.damaged)
        raise RestoreFailed(f"there is no good backup in {path}" + (f": {damaged}" if damaged else ""))
    return Chosen(state.last_good.file, state.last_good.facts, state.last_good.made_at,
                  tuple(problem for _name, problem in state.damaged))


def named(path: Path, now: float) -> Chosen:
    """The backup file ``path`` names (its manifest beside it), or whose manifest it is."""
    if path.name.endswith(backups.MANIFEST) and path.with_name(path.name[:-len(backups.MANIFEST)]).exists():
        path = path.with_name(path.name[:-len(backups.MANIFEST)])
    if not path.exists():
        raise RestoreRefused(f"there is no backup at {path}")
    manifest = path.with_name(path.name + backups.MANIFEST)
    try:
        facts = json.loads(manifest.read_text(encoding="utf-8"))
        if not isinstance(facts, dict) or facts.get("bitka_backup") not in (backups.FORMAT, backups.UNSIGNED):
            raise ValueError("it is not a bitka backup manifest")
        made_at = backups.instant(facts["made_at"])
    except FileNotFoundError:
        raise RestoreRefused(f"{path} has no manifest beside it ({manifest.name}), so it cannot be checked; a "
                             "backup made by bitka backup has one (a copy made otherwise can be checked with bitka "
                             "verify and bitka replay, and served as it is)") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise RestoreFailed(f"the manifest {manifest} cannot be read ({e})") from None
    ahead = backups.future_problem(path.name, made_at, now)
    return Chosen(path, facts, made_at, notes=(f"note: {ahead}, yet it was named, and is checked",) if ahead else ())


def _old_format(chosen: Chosen) -> str | None:
    """A backup of an older bitka, which this one does not restore, and how to do it by hand."""
    name, facts = chosen.file.name, chosen.facts
    if facts.get("kind") == "postgresql" and facts.get("format") != "rows":
        return (f"{name} is a pg_dump script made by an older bitka; bitka no longer feeds a backup to psql, since a "
                "script can run any command. To bring it back by hand, read it first (zcat it: only CREATE, ALTER, "
                "COPY and SELECT pg_catalog.setval lines, no line starting with a backslash other than \\.), then "
                "load it with psql as a user who may write only that database, and check the store with bitka "
                "verify and bitka replay")
    if facts.get("bitka_backup") == backups.UNSIGNED:
        return (f"{name} was made by an older bitka and is not signed, so nothing proves it is the copy bitka made. "
                "If it never left your hands, bring it back by hand: copy it into place, then check it with bitka "
                "verify and bitka replay before serving it")
    return None


def restore(given: str, target: str, force: bool, key_file: str, now: float | None = None) -> tuple[Chosen, str]:
    """Bring the backup back at ``target``, its signature checked with the key at
    ``key_file``: the backup, and what was done, in a sentence."""
    path, now = Path(given), time.time() if now is None else now
    chosen = None if path.is_dir() else named(path, now)
    key = public_key(key_file)
    chosen = chosen or newest_good(path, key, now)
    old = _old_format(chosen)
    if old is not None:
        raise RestoreRefused(f"{old}; nothing was restored")
    problem = backups.signature_problem(chosen.file.name, chosen.facts, key) or backups.damage(chosen.backup)
    if problem is not None:
        raise RestoreFailed(f"{problem}; nothing was restored. Restore an older backup (bitka restore DIR picks the "
                            "newest good one)")
    kind = chosen.facts.get("kind")
    if kind == "postgresql" and not is_postgres(target):
        raise RestoreRefused(f"{chosen.file.name} is a PostgreSQL backup: restore it to a postgresql:// URL (then "
                             "bitka migrate moves it to an SQLite file)")
    if kind == "sqlite" and is_postgres(target):
        raise RestoreRefused(f"{chosen.file.name} is an SQLite copy: restore it to a file, then move it with bitka "
                             f"migrate --from FILE --to {target.split('@')[-1] if '@' in target else target}")
    if kind == "postgresql":
        _to_postgres(chosen, target, force)
    else:
        _to_sqlite(chosen, Path(sqlite_path(target)), force)
    f = chosen.facts
    return chosen, (f"restored {chosen.file} (made {f['made_at']}: {f['events']} events of {len(f['groups'])} "
                    f"group(s)) to {_shown(target)}: its manifest is signed with key {f.get('key_id')}, its SHA-256 "
                    "is its manifest's, it verifies and replays, it holds nothing bitka does not write, and each "
                    "group's size, last hash and Merkle root are the manifest's")


def _shown(target: str) -> str:
    if is_postgres(target):

        return f"{redacted(target)} (schema {schema_of(target)})"
    return target


def _proven(checked, chosen: Chosen) -> None:
    found = checked.problems or differences(checked, chosen.facts)
    if found:
        raise RestoreFailed(f"{chosen.file.name} does not prove itself, so nothing was restored: "
                            + "; ".join(found[:5]) + (f" (and {len(found) - 5} more)" if len(found) > 5 else ""))


def _held(path: Path) -> str:
    """What an SQLite file that is not empty holds, in words."""
    try:
        store = open_store(str(path))
        with store.reading() as r:
            said = (f"a bitka store of {r.count()} events in {len(r.group_ids())} group(s)" if r.is_store()
                    else f"{path.stat().st_size:,} bytes")
        store.close()
        return said
    except Exception:  # not SQLite at all: say its size
        return f"{path.stat().st_size:,} bytes"


def _copied(chosen: Chosen, copy: Path) -> None:
    """The backup copied to ``copy`` (a new file of its owner's), and it is the manifest's."""
    with open(chosen.file, "rb") as source, open(copy, "wb") as out:
        shutil.copyfileobj(source, out, 1 << 20)
        out.flush()
        os.fsync(out.fileno())
    if backups.sha256_of(copy) != chosen.facts["sha256"]:
        raise RestoreFailed(f"the copy of {chosen.file.name} at {copy} is not the backup (its SHA-256 differs): it "
                            "changed while it was copied, or the disk failed; nothing was restored")


def _to_sqlite(chosen: Chosen, target: Path, force: bool) -> None:
    sides = [target.with_name(target.name + s) for s in ("-wal", "-shm", "-journal")]
    occupied = (target.exists() and target.stat().st_size > 0) or any(s.exists() and s.stat().st_size for s in sides)
    if occupied and not force:
        raise RestoreRefused(f"{target} is not empty (it holds {_held(target) if target.exists() else 'a WAL'}); "
                             "restoring would replace it: stop bitka serve on it, then add --force")
    if not target.parent.is_dir():
        raise RestoreRefused(f"there is no directory {target.parent} to restore into")
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.restoring.", suffix=PARTIAL, dir=target.parent)  # 0600
    os.close(fd)
    copy = Path(name)
    try:
        _copied(chosen, copy)
        _proven(check(str(copy)), chosen)
        for side in sides:  # a WAL beside the new file would be read into it
            side.unlink(missing_ok=True)
        os.replace(copy, target)
        fd = os.open(target.parent, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
    finally:
        copy.unlink(missing_ok=True)


def _to_postgres(chosen: Chosen, target: str, force: bool) -> None:
    schema = pg_dumps.schema_of(target)
    present = pg_dumps.tables_in(target, schema)
    if present and not force:
        raise RestoreRefused(f"the schema {schema} of {redacted(target)} is not empty (it holds {len(present)} "
                             f"table(s): {', '.join(present[:8])}{', ...' if len(present) > 8 else ''}); restoring "
                             "would replace bitka's tables: stop bitka serve on it, then add --force")
    try:
        with tempfile.TemporaryDirectory(prefix="bitka-restore-") as work:
            copy = Path(work) / chosen.file.name
            _copied(chosen, copy)
            with pg_dumps.scratch(target) as (url, name):
                pg_dumps.load(copy, target, name)
                open_store(url).setup(kept.rebuild).close()  # a backup of an older schema: the later migrations
                _proven(check(url), chosen)
            pg_dumps.load(copy, target, schema, replacing=bool(present))
    except pg_dumps.DumpFailed as e:
        raise RestoreFailed(f"{e}; nothing was restored") from None
    store = open_store(pg_dumps.in_schema(target, schema)).setup(kept.rebuild)
    try:
        with store.reading() as r:
            arrived = {g: {"size": n, "hash": r.hash_at(g, n), "root": r.merkle_root(g, n).hex()}
                       for g, n in sorted(r.sizes().items())}
    finally:
        store.close()
    if arrived != chosen.facts.get("groups"):
        raise RestoreFailed(f"the restored store at {_shown(target)} does not hold what {chosen.file.name}'s manifest "
                            "says (each group's size, last hash and Merkle root): check it with bitka verify")


def key_note(chosen: Chosen, key_file: str, target: str) -> str | None:
    """A word about the signing key: a backup holds none, and the checkpoints members saved
    hold only with the key that signed them, the one that signed the backup."""
    usual = default_key_path(target)
    if Path(key_file).resolve() == Path(usual).resolve():
        return None
    return (f"note: this store's checkpoints and backups are signed with key {chosen.facts.get('key_id')}, the one "
            f"at {key_file}: serve it with --key {key_file} (or copy that file to {usual})")
