"""How fast every phone learns what happened, and what idle phones cost (issue 43): 16 Kop
tables of 4 seated members, each member's phone signed in to the pages and watching its
table's hand live, while the tables play card by card through the API; then nobody plays.

    python bench/live.py                          # --mode wait: each phone long-polls (Prefer: wait=25)
    python bench/live.py --mode poll              # before: each phone asks every 2 s, as live.js did
    python bench/live.py --postgres [URL] --servers 2 --serve '--workers 2'
    python bench/live.py --part table --group-phones 4   # the table's live part; and phones on the group's
    python bench/live.py --part api               # the API's hand read (a bearer token, no page)

A phone asks for its part with the version it shows (``If-None-Match``) and, in ``--mode
wait``, ``Prefer: wait=25``: the server answers 200 (a new part, a new ETag) once something
the part shows changed, or 304 (with the version it may show from now on) at the end of the
wait, and the phone asks again at once. ``--mode poll`` asks every 2 seconds, answers or not.

Each table's writer plays its hand a card at a time from the seat's own member's token
(members made through the API hold no key: their plays go unsigned), about ``--pace``
seconds apart; the payers confirm the settled hand, and the admin deals the next (each
phone follows the old hand's part's link to the new one, as the page does). Propagation of
a write: from its answer arriving at the writer to each other phone of that table (and each
group phone, for what the group's page shows) receiving a 200 whose ETag (the group's
version) is at least the write's: p50/p95/p99/max, and misses (never received while the
phone showed that part, or within ``--grace`` seconds of the last write). A phone that had
it before the writer's answer counts 0.

Then ``--idle`` seconds with every phone watching and nobody playing: the CPU of the
server processes (the gunicorn master and its workers, from /proc) as % of one core.
Targets (the issue's): p95 at most 0.5 s, no misses, idle CPU under 5% of one core; the
bench exits 1 while one is missed.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.http_load import SETUP, _server, _stop  # noqa: E402 - the repository's root comes first
from bench.run import free_port, hand_bodies  # noqa: E402
from bench.live_phones import POLL_EVERY, Ledger, Link, Phone, seq_of  # noqa: E402
from bench.tournament import Client  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLES, SEATS = 16, 4
TARGET_P95, TARGET_IDLE_CPU = 0.5, 5.0


class Bench:
    def __init__(self, args, ports: list[int]):
        self.args, self.ports = args, ports
        self.ledger = Ledger()
        self.stopped, self.playing_until = threading.Event(), 0.0
        self.phase = "play"
        self.problems: list[str] = []
        self.took: list[float] = []  # each write's own time, sent to answered
        self.pool = hand_bodies(random.Random(43), 8)

    def fail(self, problem: str) -> None:
        if len(self.problems) < 5:
            self.problems.append(problem)

    def build(self) -> None:
        """The group, its 16 tables of 4 members, each table's first hand, and a phone for
        each member (and ``--group-phones`` more) signed in to the pages."""
        args, admin = self.args, Client(self.ports[0])
        g = admin.call("POST", "/v1/groups", {"name": "Hala", "currency": "PLN"}, SETUP)
        admin.token, self.group = g["admin_token"], g["id"]
        self.base = f"/v1/groups/{self.group}"
        self.tables, self.phones, self.group_phones = [], [], []
        rng = random.Random(1)
        for t in range(TABLES):
            members = [admin.call("POST", f"{self.base}/members", {"name": f"Gracz {t * SEATS + s + 1}"})
                       for s in range(SEATS)]
            table = admin.call("POST", f"{self.base}/tables",
                               {"game": "kop", "stake": "0.50", "seats": [m["id"] for m in members]})
            deal = rng.choice(self.pool[table["next_dealer"]])["deal"]
            hand = admin.call("POST", f"{self.base}/tables/{table['id']}/hands", {"deal": deal})
            phones = [Phone(self, self.ports[(t + s) % len(self.ports)], self.credentials(members[s]["token"]),
                            self.part(table["id"], hand["id"]), rng.uniform(0, POLL_EVERY))
                      for s in range(SEATS)]
            self.tables.append({"id": table["id"], "members": members, "hand": hand, "deal": deal, "phones": phones})
            self.phones += phones
        for i in range(args.group_phones):
            token = self.tables[i % TABLES]["members"][i // TABLES % SEATS]["token"]
            self.group_phones.append(Phone(self, self.ports[i % len(self.ports)], self.credentials(token),
                                           f"/g/{self.group}/live", rng.uniform(0, POLL_EVERY),
                                           frozenset({"result", "confirmation"}), " on the group page"))
        self.admin_token = g["admin_token"]

    def part(self, table: str, hand: str) -> str:
        return {"hand": f"/g/{self.group}/hands/{hand}/live", "table": f"/g/{self.group}/tables/{table}/live",
                "api": f"{self.base}/hands/{hand}"}[self.args.part]

    def credentials(self, token: str) -> dict:
        """What a phone sends: a page session's cookie (signed in with the member's token, as
        the sign-in form does), or the token itself for ``--part api``."""
        if self.args.part == "api":
            return {"Authorization": f"Bearer {token}"}
        signin = secrets.token_urlsafe(32)
        link = Link(self.ports[0])
        status, got, body = link.ask("POST", "/signin", {
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"bitka_signin={signin}"},
            urlencode({"token": token, "signin_token": signin}).encode())
        link.close()
        cookie = re.search(r"bitka_session=([^;]+)", got.get("set-cookie", ""))
        if status != 303 or cookie is None:
            raise RuntimeError(f"sign-in: {status} {body[:300]!r}")
        return {"Cookie": f"bitka_session={cookie.group(1)}"}

    def holds(self) -> float:
        """How long a phone's request with the current version is held: about the wait asked
        once the server long-polls, at once before."""
        phone = self.phones[0]
        link = Link(phone.link.port)
        status, got, _ = link.ask("GET", phone.path, phone.headers)
        started = time.monotonic()
        link.ask("GET", phone.path, {**phone.headers, "If-None-Match": got.get("etag", ""), "Prefer": "wait=2"})
        link.close()
        return time.monotonic() - started

    def play(self, t: int) -> None:
        """A table's writer: card by card from each seat's token, the payers' confirmations,
        the next deal from the admin, about ``--pace`` seconds apart, until time is up."""
        table, rng = self.tables[t], random.Random(t)
        link, phones = Link(self.ports[t % len(self.ports)]), table["phones"]
        tokens, members = [m["token"] for m in table["members"]], [m["id"] for m in table["members"]]

        def write(path: str, body: dict | None, token: str, kind: str, actor: int | None) -> tuple[dict, int]:
            if self.stopped.wait(self.args.pace * rng.uniform(0.5, 1.5)) or time.monotonic() > self.playing_until:
                raise TimeoutError
            sent = time.monotonic()
            status, got, answer = link.ask("POST", self.base + path, {
                "Content-Type": "application/json", "Authorization": f"Bearer {token}"},
                json.dumps(body).encode() if body is not None else None)
            answered, seq = time.monotonic(), seq_of(got.get("etag"))
            self.took.append(answered - sent)
            if status != 201 or seq is None:
                raise RuntimeError(f"{path}: {status} ETag {got.get('etag')!r} {answer[:300]!r}")
            self.ledger.expect(kind, seq, answered, [p for s, p in enumerate(phones) if s != actor] + self.group_phones)
            return json.loads(answer), seq

        hand, deal = table["hand"], table["deal"]
        try:
            while True:
                plays = [card for trick in self.tricks(deal) for card in trick]
                for i, card in enumerate(plays):  # the last one settles the hand: the result
                    seat = next(s for s in range(SEATS) if card in deal["hands"][s])
                    done, _ = write(f"/hands/{hand['id']}/plays", {"seat": seat, "card": card}, tokens[seat],
                                    "result" if i == len(plays) - 1 else "card", seat)
                waits = done["hand"].get("confirmation") or {}
                while waits.get("state") == "pending" and waits.get("waiting_for"):  # a payer agrees
                    seat = members.index(waits["waiting_for"][0])
                    done, _ = write(f"/hands/{hand['id']}/confirm", None, tokens[seat], "confirmation", seat)
                    waits = done.get("confirmation") or {}
                deal = rng.choice(self.pool[(deal["dealer"] + 1) % SEATS])["deal"]
                hand, seq = write(f"/tables/{table['id']}/hands", {"deal": deal}, self.admin_token, "deal", None)
                self.follow(phones, self.part(table["id"], hand["id"]), seq)
        except TimeoutError:
            pass
        except Exception as e:  # noqa: BLE001 - said at the end, with the figures
            self.fail(f"table {t}: {e}")
        finally:
            link.close()

    def tricks(self, deal: dict) -> list[list[str]]:
        """The hand's tricks, each in order of play, as the pool has them for ``deal``."""
        return [t["cards"] for t in next(h for h in self.pool[deal["dealer"]] if h["deal"] == deal)["tricks"]]

    def follow(self, phones: list[Phone], path: str, seq: int) -> None:
        """After a deal: each phone turns to the new hand's part as soon as its old part shows
        the deal (live.js follows the way to the next hand), or after ``--grace`` seconds
        regardless; the table plays on once each has the new part."""
        if phones[0].path == path:  # the table's part: the same part shows the next hand
            return
        with self.ledger.lock:
            for phone in phones:
                phone.turned.clear()
                phone.follow = (seq, path)
                if any(tag >= seq for tag, _ in phone.seen):  # it had the deal before its answer came here
                    phone.go = path
                    phone.link.cut()
        deadline = time.monotonic() + self.args.grace
        for phone in phones:
            if not phone.turned.wait(max(0.0, deadline - time.monotonic())):
                phone.led += 1  # its part never led on to the new hand: opened by hand
                phone.go = path
                phone.link.cut()
        for phone in phones:
            phone.opened.wait(self.args.grace)


def cpu_ticks(groups: set[int]) -> tuple[int, int]:
    """User and system clock ticks of every process in these process groups (each bitka serve
    and its gunicorn workers: they run in a session of their own), and of every PostgreSQL
    process on this machine."""
    total = database = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if int(fields[2]) in groups:
            total += int(fields[11]) + int(fields[12])
        elif stat[stat.find("(") + 1:stat.rfind(")")] == "postgres":
            database += int(fields[11]) + int(fields[12])
    return total, database


def quantile(found: list[float], q: float) -> float:
    ordered = sorted(found)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def measure(args, db: str, tmp: Path) -> dict | None:
    """One run on the store ``db``: the figures, or None when the server does not hold a
    request that ``--mode wait`` needs held."""
    ports = [free_port() for _ in range(args.servers)]
    cmd = [sys.executable, "-m", "cli", "--db", db, "serve", "--key", str(tmp / "hall.key"), *args.serve.split()]
    procs = [_server([*cmd, "--port", str(port)], {"BITKA_SETUP_TOKEN": SETUP, "PYTHONPATH": str(ROOT)}, port)
             for port in ports]
    bench = Bench(args, ports)
    try:
        bench.build()
        if args.mode == "wait" and (held := bench.holds()) < 1.5:
            print(f"the server answered a request asking to wait 2 s in {held * 1000:.0f} ms: it does not hold "
                  "requests (no long-poll); measure today's behaviour with --mode poll", file=sys.stderr)
            return None
        watching = bench.phones + bench.group_phones
        for phone in watching:
            phone.start()
        for phone in watching:
            if not phone.opened.wait(30):
                raise RuntimeError(f"a phone's part never answered: {phone.path} {bench.problems}")
        groups, load = {proc.pid for proc in procs}, os.getloadavg()[0]
        started, cpu = time.monotonic(), cpu_ticks(groups)
        bench.playing_until = started + args.seconds
        writers = [threading.Thread(target=bench.play, args=(t,)) for t in range(TABLES)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
        played, played_cpu = time.monotonic(), cpu_ticks(groups)
        bench.ledger.settle(watching, time.monotonic() + args.grace)
        bench.phase, idle_from = "idle", time.monotonic()
        bench.stopped.wait(1.0)  # the answers of the last writes are out
        quiet, quiet_cpu = time.monotonic(), cpu_ticks(groups)
        bench.stopped.wait(args.idle)
        idle_to, idle_cpu = time.monotonic(), cpu_ticks(groups)
        load = (load, os.getloadavg()[0])
    finally:
        bench.stopped.set()
        for phone in bench.phones + bench.group_phones:
            phone.link.cut()
        for proc in procs:
            _stop(proc)
    tick = os.sysconf("SC_CLK_TCK")

    def pct(before, after, seconds, i=0):
        return (after[i] - before[i]) / tick / seconds * 100
    every = [d for delays in bench.ledger.delays.values() for d in delays]
    n = len(watching)
    return {
        "mode": args.mode, "part": args.part, "servers": args.servers, "serve": args.serve, "phones": n,
        "writes": bench.ledger.writes, "received": len(every), "misses": bench.ledger.misses,
        "before_the_answer": bench.ledger.early,
        "p50_ms": quantile(every, 0.50) * 1000, "p95_ms": quantile(every, 0.95) * 1000,
        "p99_ms": quantile(every, 0.99) * 1000, "max_ms": max(every, default=float("nan")) * 1000,
        "by_kind_p95_ms": {k: quantile(v, 0.95) * 1000 for k, v in bench.ledger.delays.items()},
        "asked_per_phone_minute_playing": sum(p.asked["play"] for p in watching) / n / ((idle_from - started) / 60),
        "asked_per_phone_minute_idle": sum(p.asked["idle"] for p in watching) / n / ((idle_to - idle_from) / 60),
        "cpu_playing_pct": pct(cpu, played_cpu, played - started),
        "cpu_idle_pct": pct(quiet_cpu, idle_cpu, idle_to - quiet),
        "postgres_cpu_playing_pct": pct(cpu, played_cpu, played - started, 1),
        "postgres_cpu_idle_pct": pct(quiet_cpu, idle_cpu, idle_to - quiet, 1),
        "write_p50_ms": quantile(bench.took, 0.5) * 1000, "write_p95_ms": quantile(bench.took, 0.95) * 1000,
        "load_average": load, "idle_seconds": idle_to - quiet, "played_seconds": played - started,
        "errors": sum(p.errors for p in watching), "turned_by_hand": sum(p.led for p in watching),
        "not_held": sum(p.unheld for p in watching),
        "problems": bench.problems,
    }


def report(found: dict, store: str) -> bool:
    """Print the figures; True when the targets are met."""
    how = "long-polling (Prefer: wait)" if found["mode"] == "wait" else f"asking every {POLL_EVERY:g} s"
    missed = sum(found["misses"].values())
    writes = ", ".join(f"{n} {kind}s" for kind, n in found["writes"].items())
    print(f"bitka serve {found['serve'] or '(defaults)'} x {found['servers']} on {store}: {found['phones']} phones "
          f"watching the {found['part']} part, {how}")
    print(f"  {sum(found['writes'].values())} writes in {found['played_seconds']:.0f} s ({writes}); "
          f"{found['received']} receipts, {missed} missed {found['misses'] or ''}; "
          f"{found['before_the_answer']} before the writer's own answer; a write's own answer took p50 "
          f"{found['write_p50_ms']:.0f} ms, p95 {found['write_p95_ms']:.0f} ms")
    print(f"  propagation: p50 {found['p50_ms']:.0f} ms, p95 {found['p95_ms']:.0f} ms, p99 {found['p99_ms']:.0f} ms, "
          f"max {found['max_ms']:.0f} ms (p95 by write: "
          + ", ".join(f"{k} {v:.0f} ms" for k, v in found["by_kind_p95_ms"].items()) + ")")
    print(f"  requests per phone per minute: {found['asked_per_phone_minute_playing']:.1f} playing, "
          f"{found['asked_per_phone_minute_idle']:.1f} idle; 304s not held (asked again 2 s later) "
          f"{found['not_held']}; phone errors {found['errors']}; phones turned to the next hand by the bench "
          f"{found['turned_by_hand']}")
    print(f"  server CPU: {found['cpu_playing_pct']:.1f}% of one core playing, {found['cpu_idle_pct']:.1f}% idle "
          f"({found['idle_seconds']:.0f} s, {found['phones']} phones watching, nobody playing)")
    if store == "PostgreSQL":
        print(f"  PostgreSQL's processes (all on this machine): {found['postgres_cpu_playing_pct']:.1f}% of one core "
              f"playing, {found['postgres_cpu_idle_pct']:.1f}% idle")
    print(f"  this machine's load average (1 minute, {os.cpu_count()} cores): {found['load_average'][0]:.1f} as play "
          f"began, {found['load_average'][1]:.1f} at the end")
    for problem in found["problems"]:
        print(f"  problem: {problem}")
    return (found["p95_ms"] <= TARGET_P95 * 1000 and not missed and found["cpu_idle_pct"] < TARGET_IDLE_CPU
            and not found["problems"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("wait", "poll"), default="wait",
                    help="wait: long-poll (Prefer: wait); poll: ask every 2 s, as live.js did before issue 43")
    ap.add_argument("--part", choices=("hand", "table", "api"), default="hand",
                    help="what each phone watches: its hand's live part (default), its table's, or the API's hand")
    ap.add_argument("--group-phones", type=int, default=0, help="more phones on the group's live part")
    ap.add_argument("--wait", type=int, default=25, help="the seconds a phone prefers to wait (Prefer: wait=N)")
    ap.add_argument("--seconds", type=float, default=60, help="seconds of play")
    ap.add_argument("--pace", type=float, default=1.0, help="seconds between a table's writes, about")
    ap.add_argument("--idle", type=float, default=30, help="seconds of nobody playing, for the idle CPU")
    ap.add_argument("--grace", type=float, default=5,
                    help="seconds a phone may take to follow a deal, and to receive the last writes")
    ap.add_argument("--serve", default="", help="more options for bitka serve, as one string: '--workers 4'")
    ap.add_argument("--servers", type=int, default=1, help="bitka serve processes on the one store")
    ap.add_argument("--postgres", nargs="?", const="", metavar="URL",
                    help="a PostgreSQL store (a schema of its own, dropped at the end) instead of SQLite; "
                         "$BITKA_TEST_POSTGRES or the local server when no URL is given")
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bitka-live-") as tmp:
        if args.postgres is not None:
            from bench import postgres
            with postgres.schema_of_its_own(args.postgres or postgres.DEFAULT_URL, "bitka_live") as url:
                found, store = measure(args, url, Path(tmp)), "PostgreSQL"
        else:
            found, store = measure(args, str(Path(tmp) / "hall.db"), Path(tmp)), "SQLite"
    if found is None:
        return 2
    met = report(found, store)
    if args.json:
        Path(args.json).write_text(json.dumps(found, indent=2) + "\n")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
