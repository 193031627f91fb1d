"""``bitka restore``: a backup brought back only after it proves itself.

The backup's file is checked against its manifest first (size and SHA-256: a file damaged
on disk goes no further), then checked as a store (every hash and link, the money, every
projection row and settlement derived again from the log: ``backups.check``) and compared
with what its manifest says it held (each group's size, last hash and Merkle root). Only
then does it replace anything: an SQLite copy is checked beside the target and renamed over
it; a PostgreSQL dump is loaded into a scratch schema of the target's database and checked
there, then loaded into the target's schema in one transaction. A target that is not empty
is replaced only with ``--force``.
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from events import backups
from events.checkpoint import key_id, load_or_create_key, public_raw
from events.database import is_postgres, open_store, sqlite_path
from events.pgstore import redacted

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
    passed_over: tuple[str, ...] = ()  # the newer backups of a directory that are damaged

    @property
    def backup(self) -> backups.Backup:
        return backups.Backup(self.file, self.file.with_name(self.file.name + backups.MANIFEST), self.made_at,
                              self.facts)


def choose(given: str) -> Chosen:
    """The backup that ``given`` names: a backup file (its manifest beside it), its manifest,
    or a directory of backups (its newest good one)."""
    path = Path(given)
    if path.is_dir():
        state = backups.status(path, 1)
        if state.last_good is None:
            damaged = "; ".join(problem for _name, problem in state.damaged)
            raise RestoreFailed(f"there is no good backup in {path}" + (f": {damaged}" if damaged else ""))
        return Chosen(state.last_good.file, state.last_good.facts, state.last_good.made_at,
                      tuple(problem for _name, problem in state.damaged))
    if path.name.endswith(backups.MANIFEST) and path.with_name(path.name[:-len(backups.MANIFEST)]).exists():
        path = path.with_name(path.name[:-len(backups.MANIFEST)])
    if not path.exists():
        raise RestoreRefused(f"there is no backup at {path}")
    manifest = path.with_name(path.name + backups.MANIFEST)
    try:
        facts = json.loads(manifest.read_text(encoding="utf-8"))
        made_at = backups.instant(facts["made_at"])
        if facts.get("bitka_backup") != backups.FORMAT:
            raise ValueError("it is not a bitka backup manifest")
    except FileNotFoundError:
        raise RestoreRefused(f"{path} has no manifest beside it ({manifest.name}), so it cannot be checked; a "
                             "backup made by bitka backup has one (a copy made otherwise can be checked with bitka "
                             "verify and bitka replay, and served as it is)") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise RestoreFailed(f"the manifest {manifest} cannot be read ({e})") from None
    return Chosen(path, facts, made_at)


def restore(given: str, target: str, force: bool) -> tuple[Chosen, str]:
    """Bring the backup back at ``target``: the backup, and what was done, in a sentence."""
    chosen = choose(given)
    problem = backups.damage(chosen.backup)
    if problem is not None:
        raise RestoreFailed(f"{problem}; nothing was restored. Restore an older backup (bitka restore DIR picks the "
                            "newest good one)")
    kind = chosen.facts.get("kind")
    if kind == "postgresql" and not is_postgres(target):
        raise RestoreRefused(f"{chosen.file.name} is a PostgreSQL dump: restore it to a postgresql:// URL (then "
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
                    f"group(s)) to {_shown(target)}: its SHA-256 is its manifest's, it verifies and replays, and "
                    "each group's size, last hash and Merkle root are the manifest's")


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


def _to_sqlite(chosen: Chosen, target: Path, force: bool) -> None:
    sides = [target.with_name(target.name + s) for s in ("-wal", "-shm", "-journal")]
    occupied = (target.exists() and target.stat().st_size > 0) or any(s.exists() and s.stat().st_size for s in sides)
    if occupied and not force:
        raise RestoreRefused(f"{target} is not empty (it holds {_held(target) if target.exists() else 'a WAL'}); "
                             "restoring would replace it: stop bitka serve on it, then add --force")
    if not target.parent.is_dir():
        raise RestoreRefused(f"there is no directory {target.parent} to restore into")
    copy = target.with_name(f".{target.name}.restoring{PARTIAL}")
    copy.unlink(missing_ok=True)
    try:
        shutil.copyfile(chosen.file, copy)
        os.chmod(copy, 0o600)
        if backups.sha256_of(copy) != chosen.facts["sha256"]:
            raise RestoreFailed(f"the copy of {chosen.file.name} at {copy} is not the backup (its SHA-256 differs): "
                                "the disk failed while copying; nothing was restored")
        _proven(check(str(copy)), chosen)
        fd = os.open(copy, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
        for side in sides:  # a WAL beside the new file would be read into it
            side.unlink(missing_ok=True)
        os.replace(copy, target)
        fd = os.open(target.parent, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
    finally:
        copy.unlink(missing_ok=True)


def _to_postgres(chosen: Chosen, target: str, force: bool) -> None:
    problem = pg_dumps.tools_problem()
    if problem:
        raise RestoreRefused(problem)
    schema = pg_dumps.schema_of(target)
    present = pg_dumps.tables_in(target, schema)
    if present and not force:
        raise RestoreRefused(f"the schema {schema} of {redacted(target)} is not empty (it holds {len(present)} "
                             f"table(s): {', '.join(present[:8])}{', ...' if len(present) > 8 else ''}); restoring "
                             "would replace bitka's tables: stop bitka serve on it, then add --force")
    source = chosen.facts.get("schema_name") or "public"
    try:
        with pg_dumps.scratch(target) as (url, name):
            pg_dumps.load(chosen.file, target, source, name)
            _proven(check(url), chosen)
            ours = pg_dumps.tables_in(target, name)
        pg_dumps.load(chosen.file, target, source, schema, replacing=[t for t in ours if t in present])
    except pg_dumps.DumpFailed as e:
        raise RestoreFailed(f"{e}; nothing was restored") from None
    store = open_store(pg_dumps.in_schema(target, schema))
    try:
        with store.reading() as r:
            arrived = {g: {"size": n, "hash": r.hash_at(g, n), "root": r.merkle_root(g, n).hex()}
                       for g, n in sorted(r.sizes().items())}
    finally:
        store.close()
    if arrived != chosen.facts.get("groups"):
        raise RestoreFailed(f"the restored store at {_shown(target)} does not hold what {chosen.file.name}'s manifest "
                            "says (each group's size, last hash and Merkle root): check it with bitka verify")


def key_note(chosen_facts: dict, key_file: str) -> str | None:
    """A word about the signing key: a backup holds none, and checkpoints saved by members
    hold only with the key that signed them."""
    wanted = chosen_facts.get("key_id")
    if not wanted:
        return None
    if not Path(key_file).exists():
        return (f"note: the checkpoints of this store were signed with key {wanted}, and there is no key at "
                f"{key_file}: put that key file there (or serve with --key), or members' saved checkpoints will "
                "not hold")
    try:
        have = key_id(public_raw(load_or_create_key(key_file)))
    except (ValueError, OSError):
        return f"note: the key at {key_file} cannot be read; the checkpoints were signed with key {wanted}"
    if have != wanted:
        return (f"note: the key at {key_file} is {have}, and the checkpoints of this store were signed with "
                f"{wanted}: serve with that key (--key), or members' saved checkpoints will not hold")
    return None
