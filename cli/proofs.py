"""``bitka checkpoint`` and the checkpoint side of ``bitka verify``: proving that a log still
extends a checkpoint saved earlier, on the store or against a running server."""
from __future__ import annotations

import hashlib
import http.client
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from email.message import Message
from pathlib import Path
from typing import Iterable, Iterator

import click

from events import merkle
from events.canonical import GENESIS
from events.checkpoint import default_key_path, load_or_create_key, published, sign, signature_holds
from events.envelope import utc_now
from events.store import Envelope, RawEvent
from events.types import EVENT_TYPES
from events.verify import Fault
from projections import balances, signatures

from .money_checks import remote_faults

_ETAG = re.compile(r'(?:W/)?"([1-9][0-9]{0,17})"')
# What a sealed event may be: a card of a hand in play (API.md, "Seats and sealed cards").
SEALABLE = frozenset({"deal", "seat_cards", "bid", "trick", "play", "claim"})
ENDING = frozenset({"settlement", "hand_voided"})
# What the server's answers raise when they are not bitka's, wherever they are read.
NOT_BITKAS = (KeyError, TypeError, ValueError, AttributeError, IndexError, ArithmeticError, RecursionError)


def key_path(db: str, key: str | None) -> str:
    return key or default_key_path(db)


def read_checkpoint(path: str) -> dict:
    try:
        cp = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise click.UsageError(f"{path} is not a saved checkpoint: {e}") from None
    if not isinstance(cp, dict) or not {"group", "size", "root", "signature"} <= set(cp):
        raise click.UsageError(f"{path} is not a saved checkpoint (it needs group, size, root and signature)")
    if type(cp["size"]) is not int or cp["size"] < 1 or not isinstance(cp["root"], str):
        raise click.UsageError(f"{path} is not a saved checkpoint (its size is not a count of events, or its root "
                               "is not hex)")
    return cp


def store_checkpoint(store, group: str, key_file: str, size: int | None = None) -> dict:
    key = load_or_create_key(key_file)
    with store.reading() as r:
        version = r.version(group)
        size = size or version
        if not 1 <= size <= version:
            raise click.UsageError(f"group {group} has {version} events; there is no checkpoint at {size}")
        root = r.merkle_root(group, size)
    return sign(key, group, size, root, utc_now())


def check_store_against(store, saved: dict, key_file: str) -> list[str]:
    """What is wrong with the store, given a checkpoint saved from it earlier (nothing: [])."""
    if not Path(key_file).exists():
        return [f"cannot check the checkpoint's signature: there is no key at {key_file}"]
    key = published(load_or_create_key(key_file))
    if saved.get("key_id") != key["id"]:
        return [f"the saved checkpoint was signed with another key ({saved.get('key_id')!r}) than this store's "
                f"({key['id']!r}, {key_file}): it comes from another store, or the key was replaced"]
    if not signature_holds(saved, key["public_key"]):
        return [f"the saved checkpoint's signature does not hold for this store's key ({key_file}): it was forged "
                "or altered"]
    group, size = saved["group"], saved["size"]
    with store.reading() as r:
        version = r.version(group)
        if version < size:
            return [f"group {group} has {version} events, fewer than the {size} of the saved checkpoint: "
                    "the log was truncated"]
        root, _ = merkle.streaming_root(merkle.leaf_hash(row_bytes(row)) for row in r.scan_raw(group, 1, size))
    if root.hex() != saved["root"]:
        return [f"the first {size} events of group {group} no longer hash to the saved checkpoint's root: "
                "history was rewritten"]
    return []


def row_bytes(row) -> bytes:
    return RawEvent._make(row).canonical()


class ServerSaidNonsense(click.ClickException):
    """A server whose answer is not what bitka serves: named, never a traceback."""


class _SameOrigin(urllib.request.HTTPRedirectHandler):
    """Follow a redirect only within the server's own origin: the member's token goes
    nowhere else."""

    def __init__(self, origin: tuple[str, str]):
        self.origin = origin

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        target = urllib.parse.urlsplit(urllib.parse.urljoin(req.full_url, newurl))
        if (target.scheme, target.netloc) != self.origin:
            raise ServerSaidNonsense(f"{req.full_url} redirected to {target.scheme}://{target.netloc}, another "
                                     "server: bitka does not send your token there")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class Remote:
    """A running bitka, asked as a member would ask it."""

    MAX_ANSWER = 64 << 20  # bytes: a page of 1,000 events is far smaller
    MAX_WAITING = 1_000_000  # waiting settlements read across pages before the list is taken for endless

    def __init__(self, url: str, token: str):
        self.url, self.token = url.rstrip("/"), token
        parts = urllib.parse.urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise click.UsageError(f"--url must be an http:// or https:// address, not {url!r}")
        self.opener = urllib.request.build_opener(_SameOrigin((parts.scheme, parts.netloc)))

    def get(self, path: str, **query) -> dict:
        return self.answer(path, **query)[0]

    def answer(self, path: str, **query) -> tuple[dict, Message]:
        """The JSON object the server answers at ``path``, and the answer's headers."""
        address = f"{self.url}{path}" + (f"?{urllib.parse.urlencode(query)}" if query else "")
        req = urllib.request.Request(address, headers={"Authorization": f"Bearer {self.token}"})
        try:
            with self.opener.open(req, timeout=30) as answer:
                body, headers = answer.read(self.MAX_ANSWER + 1), answer.headers
        except urllib.error.HTTPError as e:
            raise click.ClickException(
                f"{address} answered {e.code}: {e.read(300).decode(errors='replace')}") from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
            raise click.ClickException(f"cannot reach {address}: {e}") from None
        if len(body) > self.MAX_ANSWER:
            raise ServerSaidNonsense(f"{address} answered with more than {self.MAX_ANSWER:,} bytes")
        try:
            found = json.loads(body)
        except (ValueError, RecursionError):
            raise ServerSaidNonsense(f"{address} did not answer with JSON") from None
        if not isinstance(found, dict):
            raise ServerSaidNonsense(f"{address} answered {type(found).__name__}, not a JSON object")
        return found, headers

    def balances(self, group: str, tries: int = 3) -> tuple[dict, int]:
        """The group's balances, with every page of what waits for confirmation, and the
        version (its ETag) they are the balances of: every page must be of that version (a
        group that moved on between pages is read again, ``tries`` times at most)."""
        for _ in range(tries):
            found, version = self._balances_page(group)
            waiting, after = list(found.get("pending") or []), found.get("pending_next")
            while after is not None:
                if type(after) is not int or len(waiting) > self.MAX_WAITING:
                    raise ServerSaidNonsense(f"the server's list of group {group}'s waiting settlements pages on "
                                             f"without end (pending_next {after!r})")
                page, at = self._balances_page(group, pending_after=after, pending_limit=1000)
                if at != version:
                    break
                waiting += page.get("pending") or []
                after = page.get("pending_next")
            else:
                return {**found, "pending": waiting}, version
        raise click.ClickException(f"group {group} moved on while its balances were read, {tries} times: "
                                   "verify it again when the table is quieter")

    def _balances_page(self, group: str, **query) -> tuple[dict, int]:
        found, headers = self.answer(f"/v1/groups/{group}/balances", **query)
        version = _ETAG.fullmatch(headers.get("ETag") or "")
        if version is None:
            raise ServerSaidNonsense(f"the server's balances of group {group} do not say which version of the log "
                                     f"they are of (ETag {headers.get('ETag')!r})")
        return found, int(version.group(1))

    def events(self, group: str, size: int) -> Iterator[dict]:
        """The group's events 1..``size`` (the signed checkpoint's), page by page: a server
        that pages on past them, or skips or repeats a seq, is stopped, not followed."""
        after = 0
        while after < size:
            page = self.get(f"/v1/groups/{group}/events", after=after, limit=1000).get("events")
            if not isinstance(page, list) or not page:
                raise ServerSaidNonsense(f"the server's events stop at seq {after}, short of its checkpoint's {size}")
            for event in page:
                if not isinstance(event, dict) or type(event.get("seq")) is not int or event["seq"] != after + 1:
                    raise ServerSaidNonsense(f"the server served another event where seq {after + 1} should be")
                after += 1
                yield event
                if after == size:
                    return


def check_remote(remote: Remote, group: str, saved: dict | None) -> tuple[list[str], dict, list[int], list[dict]]:
    """Verify a server's log the way a member can: every hash and link recomputed from the
    events it serves, its signed checkpoint checked against the root of those events, its
    balances against the balances those events fold to, and a saved checkpoint proved to be
    a prefix of it. Nothing the server says is taken on trust. The balances are read first:
    their ETag names the version they are of, and the log is read up to the checkpoint of
    that very size, so a group that moves on meanwhile is no difference.

    An event sealed while its hand is in play (API.md) shows no data: its link is checked
    and its leaf (given) goes into the tree whose root the server signed, but its own hash
    can only be checked once the hand ends; only a card event of a hand still in play may be
    sealed (``Seals``). The seqs of those are returned too, and each correction of a past
    hand the log holds (a member should know of them)."""
    sealed: list[int] = []
    corrected: list[dict] = []
    now: dict = {}
    try:
        keys = {k["id"]: k["public_key"] for k in remote.get("/v1/keys")["keys"]}
        served, version = remote.balances(group)
        now = remote.get(f"/v1/groups/{group}/checkpoint", size=version)
        wrong = _checkpoint_problem(now, group, keys, version)
        if wrong is not None:
            return [wrong], now, sealed, corrected
        leaves: list[bytes] = []
        kept: list[Envelope] = []
        problems = chain_faults(_noting_corrections(remote.events(group, version), corrected), group, leaves, sealed,
                                kept)
        if problems:  # the leaves stop at the bad event: there is no root to compare
            return problems, now, sealed, corrected
        nodes = merkle.Leaves(leaves)
        if merkle.root(nodes, version).hex() != now["root"]:
            problems.append("the server's signed root is not the root of the events it serves")
        problems += remote_faults(group, kept, served)
        problems += signatures.findings(kept, frozenset(sealed))
        if saved is not None:
            problems += _check_saved(remote, group, saved, keys, nodes, now)
    except NOT_BITKAS as e:
        raise ServerSaidNonsense(f"the server's answers are not what bitka serves ({type(e).__name__}: {e})") from None
    return problems, now, sealed, corrected


def _checkpoint_problem(now: dict, group: str, keys: dict, version: int) -> str | None:
    if now.get("group") != group:
        return f"the server answered with the checkpoint of group {now.get('group')!r}, not of group {group}"
    if not signature_holds(now, keys.get(now.get("key_id"), "")):
        return "the server's checkpoint is not signed by the key it publishes"
    if type(now.get("size")) is not int or now["size"] != version:
        return (f"the server's checkpoint is of {now.get('size')!r} events, not of the {version} its balances "
                "say they are of")
    return None


def _noting_corrections(events: Iterable[dict], corrected: list[dict]) -> Iterator[dict]:
    for e in events:
        if e.get("type") == "correction" and isinstance(e.get("data"), dict) and "hand" in e["data"]:
            d = e["data"]
            corrected.append({"seq": e["seq"], "hand": d["hand"], "reason": d.get("reason"),
                              "void": bool(d.get("void")), "hands": len(d.get("settlements") or [])})
        yield e


class Seals:
    """Which served events may come sealed (API.md, "Seats and sealed cards"): only a card
    event (deal, seat_cards, bid, trick, play, claim) of a hand still in play at the end of
    what is read. A payment, a correction or any other event is never sealed, and nothing of
    a hand is once its settlement or void is seen, before or after it."""

    def __init__(self, group: str):
        self.group = group
        self.in_play: dict[str, int] = {}  # hand -> the seq of its first sealed event
        self.ended: dict[str, int] = {}  # hand -> the seq of its settlement or void

    def refused(self, e: dict) -> Fault | None:
        """Why the sealed event ``e`` may not be sealed (None: it may)."""
        kind, hand = e["type"], e.get("hand")
        if kind not in SEALABLE:
            why = f"it is served sealed, but a {kind} event is never sealed (only the cards of a hand in play are)"
        elif not isinstance(hand, str) or not hand:
            why = "it is served sealed, but it belongs to no hand (only the cards of a hand in play are sealed)"
        elif hand in self.ended:
            why = (f"it is served sealed, but its hand {hand} ended at seq {self.ended[hand]}: nothing is sealed "
                   "once its hand has ended")
        else:
            self.in_play.setdefault(hand, e["seq"])
            return None
        return Fault(self.group, e["seq"], why)

    def shown(self, e: dict) -> Fault | None:
        """Note the shown event ``e``: the end of a hand whose events came sealed is the fault
        of the first of them."""
        hand = e.get("hand")
        if e["type"] not in ENDING or not isinstance(hand, str):
            return None
        self.ended.setdefault(hand, e["seq"])
        if hand not in self.in_play:
            return None
        return Fault(self.group, self.in_play[hand], f"it is served sealed, but its hand {hand} ended at seq "
                                                     f"{e['seq']}: nothing is sealed once its hand has ended")


def chain_faults(events: Iterable[dict], group: str, leaves: list[bytes], sealed: list[int],
                 kept: list[Envelope] | None = None) -> list[str]:
    """The first fault of the chain of served ``events`` (in seq order from 1), each event's
    Merkle leaf appended to ``leaves`` as it is checked, each sealed one's seq to ``sealed``,
    and each shown event the balances fold, as an envelope, to ``kept``."""
    prev, seals = GENESIS, Seals(group)
    for e in events:
        seq = e["seq"]
        if e["prev_hash"] != prev:
            return [str(Fault(group, seq, "its prev_hash is not the hash of the event before it"))]
        if e["type"] not in EVENT_TYPES:
            return [str(Fault(group, seq, f"{e['type']!r} is not an event type"))]
        if e.get("sealed") is True:
            fault = seals.refused(e)
            leaf = _sealed_leaf(e) if fault is None else b""
            sealed.append(seq)
        else:
            fault, leaf = _shown_leaf(e, group, seals, kept)
        if fault is not None:
            return [str(fault)]
        leaves.append(leaf)
        prev = e["hash"]
    return []


def _sealed_leaf(e: dict) -> bytes:
    leaf = bytes.fromhex(e["leaf"])
    if len(leaf) != 32 or e.get("data") != {}:
        raise ServerSaidNonsense(f"the sealed event {e['seq']} has no 32-byte leaf, or shows data")
    return leaf


def _shown_leaf(e: dict, group: str, seals: Seals, kept: list[Envelope] | None) -> tuple[Fault | None, bytes]:
    """The fault of a shown event (None), and its leaf, computed from its data."""
    env = Envelope(0, group, e["seq"], e["type"], e.get("hand"), e.get("table"), e["data"], e["actor"],
                   e["recorded_at"], e["prev_hash"], e["hash"])
    content = env.canonical()
    if hashlib.sha256(content).hexdigest() != e["hash"]:
        return Fault(group, e["seq"], "its contents do not match its hash (the event was changed after it was "
                                      "written)"), b""
    if kept is not None and (env.type in balances.EVENTS or env.type in signatures.READS):
        kept.append(env)  # what the money and the members' signatures are checked from
    return seals.shown(e), merkle.leaf_hash(content)


def _check_saved(remote: Remote, group: str, saved: dict, keys: dict, nodes, now: dict) -> list[str]:
    if saved.get("group") != group:
        return [f"the saved checkpoint is of group {saved.get('group')}, not {group}"]
    if not signature_holds(saved, keys.get(saved.get("key_id"), "")):
        return ["the saved checkpoint's signature does not hold for the server's key: it was forged or altered"]
    if saved["size"] > now["size"]:
        return [f"the log now has {now['size']} events, fewer than the {saved['size']} of the saved checkpoint: "
                "it was truncated"]
    if merkle.root(nodes, saved["size"]).hex() != saved["root"]:
        return [f"the first {saved['size']} events no longer hash to the saved checkpoint's root: "
                "history was rewritten"]
    proof = remote.get(f"/v1/groups/{group}/proofs/consistency", **{"from": saved["size"], "to": now["size"]})
    path = [bytes.fromhex(h) for h in proof["path"]]
    if not merkle.verify_consistency(saved["size"], now["size"], bytes.fromhex(saved["root"]),
                                     bytes.fromhex(now["root"]), path):
        return ["the server's consistency proof from the saved checkpoint does not hold"]
    return []
