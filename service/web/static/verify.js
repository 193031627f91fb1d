// The hand page checks itself as it opens (and again at each tap of its "verify" button):
// it recomputes, in this browser, what the page shows.
// Nothing the server says is taken on trust: each event's hash is recomputed from its
// canonical JSON (API.md: keys sorted, no spaces, UTF-8, the group added), each event is
// proved to be in the group's Merkle tree (RFC 9162 inclusion proofs), and the tree's
// root is checked against the checkpoint's Ed25519 signature with WebCrypto.
"use strict";

const say = (key, values) => window.bitkaSay(key, values);  // static/words.js

function canonical(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
  const keys = Object.keys(value).sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
}

const utf8 = (text) => new TextEncoder().encode(text);
const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));

function joined(prefix, ...parts) {
  const out = new Uint8Array(1 + parts.reduce((n, p) => n + p.length, 0));
  out[0] = prefix;
  let at = 1;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

async function rootFromPath(leaf, index, size, path) {
  // RFC 9162 2.1.3.2: the root an inclusion path leads to, or null if it cannot lead anywhere.
  let fn = index, sn = size - 1, r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn & 1 || fn === sn) {
      r = await sha256(joined(1, p, r));
      if (!(fn & 1)) { while (fn && !(fn & 1)) { fn >>= 1; sn >>= 1; } }
    } else {
      r = await sha256(joined(1, r, p));
    }
    fn >>= 1; sn >>= 1;
  }
  return sn === 0 ? r : null;
}

async function verifyHand(evidence) {
  const cp = evidence.checkpoint, key = evidence.key;
  if (cp.group !== evidence.group || cp.size !== evidence.size) throw new Error(say("not_this_group"));
  const publicKey = fromBase64(key.public_key);
  if (hex(await sha256(publicKey)).slice(0, 16) !== key.id || cp.key_id !== key.id) {
    throw new Error(say("other_key_served"));
  }
  const { signature, ...signed } = cp;
  const verifier = await crypto.subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
  if (!(await crypto.subtle.verify("Ed25519", verifier, fromBase64(signature), utf8(canonical(signed))))) {
    throw new Error(say("bad_signature"));
  }
  const root = fromHex(cp.root);
  const bySeq = new Map(evidence.events.map((e) => [e.seq, e]));
  let sealed = 0, checked = 0;
  for (const event of evidence.events) {
    const { hash, proof, sealed: isSealed, leaf: givenLeaf, ...envelope } = event;
    const before = bySeq.get(event.seq - 1);
    if (before && before.hash !== event.prev_hash) throw new Error(say("no_link", { seq: event.seq, before: before.seq }));
    const row = document.getElementById(`event-${event.seq}`);
    if (!row) continue;  // logged after this page was drawn: the page shows it once it comes live
    const shown = row.querySelector(".hash").getAttribute("title");
    if (shown !== hash) throw new Error(say("other_hash", { seq: event.seq }));
    checked += 1;
    let leaf;
    if (isSealed) {
      // Its content is not shown while the hand is in play: its place in the signed log is
      // proved from its leaf, and its own hash can be checked once the hand ends.
      sealed += 1;
      leaf = fromHex(givenLeaf);
    } else {
      const bytes = utf8(canonical({ ...envelope, group: evidence.group }));
      if (hex(await sha256(bytes)) !== hash) throw new Error(say("bad_hash", { seq: event.seq }));
      leaf = await sha256(joined(0, bytes));
    }
    const reached = await rootFromPath(leaf, event.seq - 1, cp.size, proof.map(fromHex));
    if (!reached || hex(reached) !== cp.root) throw new Error(say("not_in_log", { seq: event.seq }));
    row.classList.add("verified");
  }
  const signer = say("signer", { key: key.id, when: window.bitkaWhen(cp.timestamp) });
  const events = checked;
  if (!sealed) return say("verified", { events, size: cp.size, signer });
  return say("verified_sealed", { open: events - sealed, events, size: cp.size, signer, sealed });
}

document.addEventListener("DOMContentLoaded", () => {
  const button = document.getElementById("verify");
  const out = document.getElementById("verify-result");
  if (!button) return;
  async function check() {
    out.className = "verify";
    if (!window.crypto || !crypto.subtle) {  // no secure context: nothing can be computed here
      out.textContent = say("not_verified", { why: say("no_crypto_why") });
      return;
    }
    out.textContent = say("checking");
    try {
      const answer = await fetch(button.dataset.evidence, { credentials: "same-origin" });
      if (!answer.ok) throw new Error(say("answered", { status: answer.status }));
      out.textContent = await verifyHand(await answer.json());
      out.classList.add("ok");
    } catch (e) {
      out.textContent = say("not_verified", { why: e.message });
      out.classList.add("bad");
    }
  }
  button.addEventListener("click", check);
  check();
});
