// Every phone a witness. This browser keeps, from its last visit, the Merkle tree it grew
// from every event of the group it was served (RFC 9162 trees: only their right edge, a few
// hashes), the last event's hash and the balances it folded from those events. On each visit
// it asks for the events that are new since then and the signed checkpoint now: it hashes
// each event from its own data, links it to the one before, grows its tree with it and folds
// the money (as projections/balances.py does). Only if its own tree's root is the one the
// server signed, with the same key as before, does it keep the new state; and a page that
// shows balances must show what the fold gives. Anything else means the group's history, or
// what the page shows of it, is not what this phone saw: it says so, keeps what it had, and
// offers both checkpoints as files, as evidence.
"use strict";

(function () {
  const say = (key, values) => window.bitkaSay(key, values);  // static/words.js
  const box = document.getElementById("witness");
  if (!box || !window.crypto || !crypto.subtle || !window.localStorage) return;
  const slot = `bitka-witness:${box.dataset.group}`;
  const GENESIS = "0".repeat(64);
  // What may come sealed: a card event of a hand in play (API.md, "Seats and sealed cards").
  const SEALABLE = new Set(["deal", "seat_cards", "bid", "trick", "play", "claim"]);
  const ENDING = new Set(["settlement", "hand_voided"]);
  const PAGES = 10000;  // a million events at most on one visit

  function canonical(value) {
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
  }
  const utf8 = (text) => new TextEncoder().encode(text);
  const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
  const fromHex = (text) => new Uint8Array(String(text).match(/../g).map((h) => parseInt(h, 16)));
  const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  async function hashed(prefix, ...parts) {
    const joined = new Uint8Array(1 + parts.reduce((n, p) => n + p.length, 0));
    joined[0] = prefix;
    let at = 1;
    for (const p of parts) { joined.set(p, at); at += p.length; }
    return sha256(joined);
  }

  // The tree's right edge: [size, root] of each perfect subtree, largest first. A leaf is
  // added as a binary counter adds one; the root hashes the edge from the right.
  async function grow(edge, leaf) {
    edge.push([1, hex(leaf)]);
    while (edge.length > 1 && edge[edge.length - 1][0] === edge[edge.length - 2][0]) {
      const [size, right] = edge.pop();
      const [, left] = edge.pop();
      edge.push([2 * size, hex(await hashed(1, fromHex(left), fromHex(right)))]);
    }
  }
  async function root(edge) {
    if (!edge.length) return hex(await sha256(new Uint8Array()));
    let r = fromHex(edge[edge.length - 1][1]);
    for (let i = edge.length - 2; i >= 0; i--) r = await hashed(1, fromHex(edge[i][1]), r);
    return hex(r);
  }

  // Money as exact integers of a millionth (any currency's minor units fit), kept as strings.
  const SCALE = 6;
  function units(text) {
    const m = /^(-?)([0-9]+)(?:\.([0-9]{1,6}))?$/.exec(String(text));
    if (!m) throw new Error(`not an amount: ${text}`);
    const value = BigInt(m[2] + (m[3] || "").padEnd(SCALE, "0"));
    return m[1] ? -value : value;
  }
  function decimal(value, digits) {
    const sign = value < 0n ? "-" : "";
    const text = (value < 0n ? -value : value).toString().padStart(SCALE + 1, "0");
    const whole = text.slice(0, text.length - SCALE), frac = text.slice(text.length - SCALE, text.length - SCALE + digits);
    return sign + whole + (digits ? "." + frac : "");
  }

  // The balances fold of projections/balances.py, on the events as served.
  function waiting(entry) {
    const agreed = new Set([...entry.confirmed, entry.actor]);
    return entry.payouts.filter(([, member, amount]) => BigInt(amount) < 0n && !agreed.has(member))
      .map(([, member]) => member);
  }
  function add(members, payouts) {
    for (const [, member, amount] of payouts) members[member] = (BigInt(members[member] || 0) + BigInt(amount)).toString();
  }
  const payoutsOf = (list) => (list || []).map((p) => [p.seat, p.member, units(p.amount).toString()]);
  function fold(money, e) {
    const d = e.data, members = money.members, pending = money.pending;
    switch (e.type) {
      case "member_added": members[d.member] = "0"; break;
      case "settlement":
        if (d.confirmed === false) {
          pending[e.hand] = { state: "pending", actor: e.actor, payouts: payoutsOf(d.payouts), confirmed: [] };
        } else {
          add(members, payoutsOf(d.payouts));
        }
        break;
      case "confirmation": {
        const entry = pending[e.hand];
        entry.confirmed.push(e.actor);
        if (!waiting(entry).length) { add(members, entry.payouts); delete pending[e.hand]; }
        break;
      }
      case "dispute": {
        const entry = pending[e.hand];
        entry.state = "disputed";
        entry.confirmed = entry.confirmed.filter((m) => m !== e.actor);
        break;
      }
      case "hand_voided":
        if (pending[e.hand]) delete pending[e.hand];
        else for (const p of d.reversed || []) members[p.member] = (BigInt(members[p.member] || 0) - units(p.amount)).toString();
        break;
      case "correction":
        for (const adjustment of d.adjustments || []) {
          const change = payoutsOf(adjustment.payouts), held = pending[adjustment.hand];
          if (!held) { add(members, change); continue; }
          const bySeat = new Map(change.map(([seat, , amount]) => [seat, BigInt(amount)]));
          held.payouts = held.payouts.map(([seat, member, amount]) =>
            [seat, member, (BigInt(amount) + (bySeat.get(seat) || 0n)).toString()]);
          if (held.state === "pending" && !waiting(held).length) { add(members, held.payouts); delete pending[adjustment.hand]; }
        }
        if (pending[d.hand]) { add(members, pending[d.hand].payouts); delete pending[d.hand]; }
        break;
      case "payment": {
        const amount = units(d.amount);
        members[d.from] = (BigInt(members[d.from] || 0) + amount).toString();
        members[d.to] = (BigInt(members[d.to] || 0) - amount).toString();
        break;
      }
    }
  }

  async function signed(cp, key) {
    const publicKey = fromBase64(key.public_key);
    if (hex(await sha256(publicKey)).slice(0, 16) !== key.id || cp.key_id !== key.id) return false;
    const { signature, ...body } = cp;
    const verifier = await crypto.subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
    return crypto.subtle.verify("Ed25519", verifier, fromBase64(signature), utf8(canonical(body)));
  }

  function download(name, value) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
    link.download = name;
    link.textContent = name;
    return link;
  }

  function alarm(why, kept, now) {
    box.className = "witness alarm";
    box.setAttribute("role", "alert");
    box.textContent = "";
    const title = document.createElement("strong");
    title.textContent = say("rewritten");
    const said = document.createElement("p");
    said.textContent = say("keep", { why });
    box.append(title, said);
    if (kept || now) {
      const links = document.createElement("p");
      if (kept) links.append(download("checkpoint-seen-before.json", kept), " ");
      if (now) links.append(download("checkpoint-shown-now.json", now));
      box.append(links);
    }
  }

  class Fault extends Error {}

  // One event, checked and folded into ``seen``; a Fault says why it cannot be true.
  async function witness(seen, e, group, sealedNow) {
    if (e.seq !== seen.size + 1) throw new Fault(say("gap", { seq: e.seq, expected: seen.size + 1 }));
    if (e.prev_hash !== seen.last) throw new Fault(say("no_link", { seq: e.seq, before: seen.size }));
    let leaf;
    if (e.sealed === true) {
      if (!SEALABLE.has(e.type) || !e.hand || seen.ended[e.hand]) {
        throw new Fault(say("sealed_wrongly", { seq: e.seq }));
      }
      sealedNow.add(e.hand);
      leaf = fromHex(e.leaf);
    } else {
      const { hash, sealed, leaf: given, ...envelope } = e;
      const bytes = utf8(canonical({ ...envelope, group }));
      if (hex(await sha256(bytes)) !== hash) throw new Fault(say("bad_hash", { seq: e.seq }));
      leaf = await hashed(0, bytes);
      if (ENDING.has(e.type) && e.hand) {
        if (sealedNow.has(e.hand)) throw new Fault(say("sealed_wrongly", { seq: e.seq }));
        seen.ended[e.hand] = e.seq;
      }
      fold(seen.money, e);
    }
    await grow(seen.edge, leaf);
    seen.size = e.seq;
    seen.last = e.hash;
  }

  function shownBalances() {
    return [...document.querySelectorAll("#shown-balances tr[data-member]")].map((row) => ({
      member: row.dataset.member, name: row.querySelector("th").textContent.trim(), shown: row.dataset.balance }));
  }

  async function check() {
    const group = box.dataset.group;
    const kept = JSON.parse(localStorage.getItem(slot) || "null");
    // A phone that kept only a checkpoint (before it kept a tree) grows one from the start,
    // and its old checkpoint must be on the way.
    const fresh = { size: 0, last: GENESIS, edge: [], ended: {}, money: { members: {}, pending: {} } };
    const seen = kept && kept.seen ? structuredClone(kept.seen) : fresh;
    let now = null;
    for (let page = 0; page < PAGES; page++) {
      const answer = await fetch(`${box.dataset.evidence}?after=${seen.size}`, { credentials: "same-origin" });
      if (answer.status === 500) {
        const problem = await answer.json().catch(() => null);
        if (problem && problem.damaged) alarm(say("damaged", { seq: problem.damaged }), kept && kept.checkpoint, null);
        return;
      }
      if (!answer.ok) return;  // signed out, offline: the next visit asks again
      now = await answer.json();
      if (now.checkpoint.group !== group || !(await signed(now.checkpoint, now.key))) {
        alarm(say("unsigned"), kept && kept.checkpoint, now.checkpoint);
        return;
      }
      if (kept && kept.key.public_key !== now.key.public_key) {
        alarm(say("other_key"), kept.checkpoint, now.checkpoint);
        return;
      }
      if (now.checkpoint.size < seen.size) {
        alarm(say("shorter", { before: seen.size, after: now.checkpoint.size }), kept && kept.checkpoint, now.checkpoint);
        return;
      }
      const sealedNow = new Set();
      try {
        for (const e of now.events) {
          await witness(seen, e, group, sealedNow);
          if (kept && !kept.seen && seen.size === kept.checkpoint.size && (await root(seen.edge)) !== kept.checkpoint.root) {
            throw new Fault(say("not_extended", { before: kept.checkpoint.size }));
          }
        }
        if (now.next === null || now.next === undefined) {
          if (seen.size !== now.checkpoint.size) throw new Fault(say("gap", { seq: now.checkpoint.size, expected: seen.size + 1 }));
          if ((await root(seen.edge)) !== now.checkpoint.root) {
            throw new Fault(say("not_extended", { before: kept ? kept.checkpoint.size : 0 }));
          }
          break;
        }
      } catch (e) {
        if (!(e instanceof Fault)) throw e;
        alarm(e.message, kept && kept.checkpoint, now.checkpoint);
        return;
      }
    }
    for (const row of shownBalances()) {
      const digits = (row.shown.split(".")[1] || "").length;
      const folded = decimal(BigInt(seen.money.members[row.member] || 0), digits);
      if (units(row.shown) !== units(folded)) {
        // What the page shows is not what the log gives: the page's money is not to be trusted.
        localStorage.setItem(slot, JSON.stringify({ checkpoint: now.checkpoint, key: now.key, seen }));
        alarm(say("balances_differ", { name: row.name, shown: row.shown, folded }), kept && kept.checkpoint,
              now.checkpoint);
        return;
      }
    }
    localStorage.setItem(slot, JSON.stringify({ checkpoint: now.checkpoint, key: now.key, seen }));
    box.className = "witness ok";
    box.textContent = say(shownBalances().length ? "witnessed_money" : "witnessed", { size: now.checkpoint.size });
  }

  check().catch(() => {});
})();
