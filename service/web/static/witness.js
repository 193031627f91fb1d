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
//
// Every signed act among those events (a confirmation, a card played, a payment received...) is
// checked as `bitka verify` checks it (static/acts.js, the port of projections/signatures.py):
// signed by a key the log gave its member and did not stop, over the statement the event makes,
// with a nonce not used before; an act of a member who held a key but carries no signature, or a
// device added that nothing in the log explains, is reported as a rewrite is.
//
// What it found is said where it matters: a log rewritten (or a page that shows what the log
// does not give) loudly at the top of the page (#witness-alarm), with the evidence; a log that
// holds, or a visit that could check nothing, in a quiet line at the foot of the page (#witness),
// without the log's size, which the page's live part would soon leave behind.
"use strict";

(function () {
  const say = (key, values) => window.bitkaSay(key, values);  // static/words.js
  const box = document.getElementById("witness");
  if (!box || !window.localStorage) return;
  const loud = document.getElementById("witness-alarm") || box;  // where a log rewritten is said
  if (!window.crypto || !crypto.subtle) {  // no secure context (a hall's network over plain HTTP): said, not checked
    box.textContent = say("no_crypto");
    return;
  }
  const slot = `bitka-witness:${box.dataset.group}`;
  const ACTS = new URL("acts.js", document.currentScript.src).href;  // the signed acts' check (an ES module)
  let signatures = null;  // that check over this group's log, as this phone folds it
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
    if (!m) throw new Fault(say("malformed_amount", { amount: String(text) }));
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
  // What a correction changes (projections/balances.py _corrected): a pending hand's payouts at
  // once; the corrected hand, pending, a new result (or counted, voided); and, returned, the
  // changes to hands that count, which ``changed`` applies or keeps for the members they lower.
  function corrected(members, pending, d) {
    const changes = [];
    for (const adjustment of d.adjustments || []) {
      const change = payoutsOf(adjustment.payouts), held = pending[adjustment.hand];
      if (!held) { changes.push([adjustment.hand, change]); continue; }
      const bySeat = new Map(change.map(([seat, , amount]) => [seat, BigInt(amount)]));
      held.payouts = held.payouts.map(([seat, member, amount]) =>
        [seat, member, (BigInt(amount) + (bySeat.get(seat) || 0n)).toString()]);
    }
    const again = pending[d.hand];
    if (again && "waits_for" in d && !d.void) {
      pending[d.hand] = { ...again, state: "pending", actor: "admin", confirmed: [] };
    } else if (again) {
      delete pending[d.hand];
      add(members, again.payouts);
    }
    for (const adjustment of d.adjustments || []) {
      const now = pending[adjustment.hand];
      if (adjustment.hand !== d.hand && now && now.state === "pending" && !waiting(now).length) {
        add(members, now.payouts);
        delete pending[adjustment.hand];
      }
    }
    if (pending[d.hand] && !waiting(pending[d.hand]).length) { add(members, pending[d.hand].payouts); delete pending[d.hand]; }
    return changes;
  }
  // A correction's or void's changes to hands that count: at once, unless it waits for the word
  // of the members it lowers (its ``waits_for``).
  function changed(money, e, changes) {
    const waits = e.data.waits_for;
    if (!Array.isArray(waits) || !waits.length) {
      for (const [, change] of changes) add(money.members, change);
      return;
    }
    money.corrections = money.corrections || {};
    money.corrections[e.seq] = { changes, waitingFor: [...waits], agreed: [] };
  }
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
        if (!entry) throw new Fault(say("malformed", { seq: e.seq }));
        entry.confirmed.push(e.actor);
        if (!waiting(entry).length) { add(members, entry.payouts); delete pending[e.hand]; }
        break;
      }
      case "dispute": {
        const entry = pending[e.hand];
        if (!entry) throw new Fault(say("malformed", { seq: e.seq }));
        entry.state = "disputed";
        entry.confirmed = entry.confirmed.filter((m) => m !== e.actor);
        break;
      }
      case "hand_voided":
        if (pending[e.hand]) delete pending[e.hand];
        else changed(money, e, [[e.hand, (d.reversed || []).map((p) => [p.seat, p.member, (-units(p.amount)).toString()])]]);
        break;
      case "correction":
        changed(money, e, corrected(members, pending, d));
        break;
      case "agreement": {  // a member a correction lowers agrees: once all have, it counts
        const entry = (money.corrections || {})[d.seq];
        if (!entry) throw new Fault(say("malformed", { seq: e.seq }));
        entry.agreed.push(e.actor);
        if (!entry.waitingFor.some((m) => !entry.agreed.includes(m))) {
          delete money.corrections[d.seq];
          for (const [, change] of entry.changes) add(members, change);
        }
        break;
      }
      case "payment": {
        if (d.pending) {  // it counts once its receiver signs for it
          money.payments = money.payments || {};
          money.payments[e.seq] = { from: d.from, to: d.to, amount: units(d.amount).toString() };
          break;
        }
        const amount = units(d.amount);
        members[d.from] = (BigInt(members[d.from] || 0) + amount).toString();
        members[d.to] = (BigInt(members[d.to] || 0) - amount).toString();
        break;
      }
      case "payment_received": {
        const held = (money.payments || {})[d.seq];
        if (!held) throw new Fault(say("malformed", { seq: e.seq }));
        delete money.payments[d.seq];
        members[held.from] = (BigInt(members[held.from] || 0) + BigInt(held.amount)).toString();
        members[held.to] = (BigInt(members[held.to] || 0) - BigInt(held.amount)).toString();
        break;
      }
    }
  }

  async function signed(cp, key) {
    const publicKey = fromBase64(key.public_key);
    if (hex(await sha256(publicKey)).slice(0, 16) !== key.id || cp.key_id !== key.id) return false;
    const { signature, ...body } = cp;
    let verifier;
    try {
      verifier = await crypto.subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
    } catch (e) {  // a browser without Ed25519 in its WebCrypto: it can check nothing, and says so
      throw new Unchecked(say("no_ed25519"));
    }
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
    box.className = "witness";  // the quiet line says nothing: the top of the page says it all
    box.textContent = "";
    loud.className = "witness alarm";
    loud.setAttribute("role", "alert");
    loud.textContent = "";
    const title = document.createElement("strong");
    title.textContent = say("rewritten");
    const said = document.createElement("p");
    said.textContent = say("keep", { why });
    loud.append(title, said);
    if (kept || now) {
      const links = document.createElement("p");
      if (kept) links.append(download("checkpoint-seen-before.json", kept), " ");
      if (now) links.append(download("checkpoint-shown-now.json", now));
      loud.append(links);
    }
  }

  class Fault extends Error {}  // the log, or what the page shows of it, cannot be true
  class Unchecked extends Error {}  // nothing could be checked on this visit

  // The bytes an event's hash is taken of, as API.md builds them (its group added).
  function envelopeBytes(e, group) {
    const { hash, sealed, leaf, ...envelope } = e;
    return utf8(canonical({ ...envelope, group }));
  }

  // A member's act whose signature does not hold: said as a rewrite is.
  function judged(finding, e) {
    if (finding !== null) throw new Fault(say("act_unsigned", { seq: e.seq, why: finding }));
  }

  // One event, checked and folded into ``seen``; a Fault says why it cannot be true.
  async function witness(seen, e, group, sealedNow) {
    if (e.seq !== seen.size + 1) throw new Fault(say("gap", { seq: e.seq, expected: seen.size + 1 }));
    if (e.prev_hash !== seen.last) throw new Fault(say("no_link", { seq: e.seq, before: seen.size }));
    if (e.type === "deal" || e.type === "result") seen.opened[e.hand] = e.seq;
    let leaf;
    if (e.sealed === true) {
      // Only a card event of a hand dealt before and still in play; what it holds is checked
      // against its leaf and hash once it is shown (``again``).
      if (!SEALABLE.has(e.type) || !e.hand || !seen.opened[e.hand] || seen.ended[e.hand] ||
          !/^[0-9a-f]{64}$/.test(e.leaf) || !/^[0-9a-f]{64}$/.test(e.hash)) {
        throw new Fault(say("sealed_wrongly", { seq: e.seq }));
      }
      sealedNow.add(e.hand);
      seen.sealed[e.seq] = { type: e.type, hand: e.hand, hash: e.hash, leaf: e.leaf, acts: signatures.sealedNow(e) };
      leaf = fromHex(e.leaf);
    } else {
      const bytes = envelopeBytes(e, group);
      if (hex(await sha256(bytes)) !== e.hash) throw new Fault(say("bad_hash", { seq: e.seq }));
      leaf = await hashed(0, bytes);
      if (ENDING.has(e.type) && e.hand) {
        if (sealedNow.has(e.hand)) throw new Fault(say("sealed_wrongly", { seq: e.seq }));
        seen.ended[e.hand] = e.seq;
      }
      judged(signatures.add(e), e);
      fold(seen.money, e);
    }
    await grow(seen.edge, leaf);
    seen.size = e.seq;
    seen.last = e.hash;
  }

  // An event served sealed before, served again: the same claims, and once shown, contents
  // that hash to its hash and leaf. A money event dressed as a card stops here.
  async function shownAgain(seen, e, group) {
    const before = seen.sealed[e.seq];
    if (e.type !== before.type || e.hand !== before.hand || e.hash !== before.hash) {
      throw new Fault(say("sealed_wrongly", { seq: e.seq }));
    }
    if (e.sealed === true) {
      if (e.leaf !== before.leaf || seen.ended[e.hand]) throw new Fault(say("sealed_wrongly", { seq: e.seq }));
      return;
    }
    const bytes = envelopeBytes(e, group);
    if (hex(await sha256(bytes)) !== before.hash || hex(await hashed(0, bytes)) !== before.leaf) {
      throw new Fault(say("bad_hash", { seq: e.seq }));
    }
    if (before.acts && before.acts.actor !== e.actor) throw new Fault(say("sealed_wrongly", { seq: e.seq }));
    if (before.acts) judged(signatures.shownLate(e, before.acts), e);
    delete seen.sealed[e.seq];
  }

  function shownBalances() {
    return [...document.querySelectorAll("#shown-balances tr[data-member]")].map((row) => ({
      member: row.dataset.member, name: row.querySelector("th").textContent.trim(), shown: row.dataset.balance }));
  }

  let latest = null;  // the last answer read, for the evidence an alarm offers

  // An answer of witness.json, or why there is none: a damaged store is a fault of the log,
  // anything else (offline, signed out, a server error) means this visit checked nothing.
  async function ask(query) {
    let answer;
    try {
      answer = await fetch(`${box.dataset.evidence}?${query}`, { credentials: "same-origin" });
    } catch (e) {
      throw new Unchecked(say("offline"));
    }
    if (answer.status === 500) {
      const problem = await answer.json().catch(() => null);
      if (problem && problem.damaged) throw new Fault(say("damaged", { seq: problem.damaged }));
    }
    if (!answer.ok) throw new Unchecked(say("answered", { status: answer.status }));
    try {
      latest = await answer.json();
    } catch (e) {
      throw new Unchecked(say("answered", { status: answer.status }));
    }
    return latest;
  }

  // What this phone saw last time, or a fresh start (the version changes what is kept).
  const VERSION = 4;
  const FRESH = () => ({ v: VERSION, size: 0, last: GENESIS, edge: [], opened: {}, ended: {}, sealed: {},
                         money: { members: {}, pending: {} }, acts: null });

  async function follow(kept, seen, group) {
    let now = null;
    for (let page = 0; page < PAGES; page++) {
      now = await ask(`after=${seen.size}`);
      const cp = now.checkpoint;
      if (!cp || cp.group !== group || !(await signed(cp, now.key))) throw new Fault(say("unsigned"));
      if (kept && kept.key.public_key !== now.key.public_key) throw new Fault(say("other_key"));
      if (cp.size < seen.size) throw new Fault(say("shorter", { before: seen.size, after: cp.size }));
      const sealedNow = new Set();
      for (const e of now.events || []) {
        await witness(seen, e, group, sealedNow);
        if (kept && !kept.seen && seen.size === kept.checkpoint.size && (await root(seen.edge)) !== kept.checkpoint.root) {
          throw new Fault(say("not_extended", { before: kept.checkpoint.size }));
        }
      }
      if (now.next === null || now.next === undefined) {
        if (seen.size !== cp.size) throw new Fault(say("gap", { seq: cp.size, expected: seen.size + 1 }));
        if ((await root(seen.edge)) !== cp.root) throw new Fault(say("not_extended", { before: kept ? kept.checkpoint.size : 0 }));
        return now;
      }
      if (now.next !== seen.size || !(now.events || []).length) {  // each page moves on, or the log is whole
        throw new Fault(say("gap", { seq: now.next, expected: seen.size + 1 }));
      }
    }
    throw new Unchecked(say("too_long"));
  }

  async function again(seen, group) {
    const asked = Object.keys(seen.sealed).map(Number).sort((a, b) => a - b);
    for (let at = 0; at < asked.length; at += 200) {
      const batch = asked.slice(at, at + 200);
      const answer = await ask(`after=${seen.size}&again=${batch.join(",")}`);
      const shown = new Map((answer.again || []).map((e) => [e.seq, e]));
      for (const seq of batch) {
        if (!shown.has(seq)) throw new Fault(say("gap", { seq, expected: seq }));
        await shownAgain(seen, shown.get(seq), group);
      }
    }
  }

  function showWitnessed() {
    box.className = "witness ok";
    box.removeAttribute("role");
    box.textContent = say(shownBalances().length ? "log_checked_money" : "log_checked");
  }

  async function check() {
    const group = box.dataset.group;
    const kept = JSON.parse(localStorage.getItem(slot) || "null");
    // A phone that kept an older state grows its tree again from the start, and the
    // checkpoint it kept must be on the way.
    const start = kept && kept.seen && kept.seen.v === VERSION ? JSON.parse(JSON.stringify(kept.seen)) : FRESH();
    const before = kept && kept.seen && kept.seen.v === VERSION ? kept : kept && { checkpoint: kept.checkpoint, key: kept.key };
    try {
      let acts;
      try {
        acts = await import(ACTS);
      } catch (e) {  // a browser without ES modules: it cannot check the members' signatures
        throw new Unchecked(say("no_ed25519"));
      }
      start.acts = start.acts || acts.fresh();
      signatures = new acts.Signatures(group, start.acts);
      const now = await follow(before, start, group);
      await again(start, group);
      const keep = () => localStorage.setItem(slot, JSON.stringify({ checkpoint: now.checkpoint, key: now.key, seen: start }));
      for (const row of shownBalances()) {
        const digits = (row.shown.split(".")[1] || "").length;
        const folded = decimal(BigInt(start.money.members[row.member] || 0), digits);
        if (units(row.shown) !== units(folded)) {
          keep();  // the log holds; what the page shows of it does not
          throw new Fault(say("balances_differ", { name: row.name, shown: row.shown, folded }));
        }
      }
      keep();
      showWitnessed();
    } catch (e) {
      if (e instanceof Unchecked) {
        box.className = "witness unchecked";
        box.textContent = say("not_checked", { why: e.message });
      } else {
        // A fault of the log, or an answer so malformed the phone could not read it as one.
        const why = e instanceof Fault ? e.message : say("malformed", { seq: start.size + 1 });
        alarm(why, kept && kept.checkpoint, latest && latest.checkpoint);
      }
    }
  }

  check().catch(() => {});
})();
