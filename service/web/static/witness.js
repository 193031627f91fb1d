// Every phone a witness. On each visit this browser asks the server for the group's signed
// checkpoint now and for the proof (RFC 9162 2.1.4) that today's log extends the one it
// saw last time; it checks the server's Ed25519 signature (WebCrypto) and the proof, and
// only then keeps the new checkpoint. If either fails, the group's history was rewritten
// since this phone's last visit: it says so, keeps the checkpoint it had, and offers both
// checkpoints as files, as evidence.
"use strict";

(function () {
  const say = (key, values) => window.bitkaSay(key, values);  // static/words.js
  const box = document.getElementById("witness");
  if (!box || !window.crypto || !crypto.subtle || !window.localStorage) return;
  const slot = `bitka-witness:${box.dataset.group}`;

  function canonical(value) {
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
  }
  const utf8 = (text) => new TextEncoder().encode(text);
  const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
  const fromHex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
  const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  async function node(left, right) {
    const joined = new Uint8Array(1 + left.length + right.length);
    joined[0] = 1; joined.set(left, 1); joined.set(right, 1 + left.length);
    return sha256(joined);
  }

  async function signed(cp, key) {
    const publicKey = fromBase64(key.public_key);
    if (hex(await sha256(publicKey)).slice(0, 16) !== key.id || cp.key_id !== key.id) return false;
    const { signature, ...body } = cp;
    const verifier = await crypto.subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
    return crypto.subtle.verify("Ed25519", verifier, fromBase64(signature), utf8(canonical(body)));
  }

  // RFC 9162 2.1.4.2: does a log of size `second` with root `secondRoot` extend the one of
  // size `first` with root `firstRoot`?
  async function extendsLog(first, second, firstRoot, secondRoot, proof) {
    if (first === second) return proof.length === 0 && hex(firstRoot) === hex(secondRoot);
    if (!proof.length || first > second) return false;
    const path = (first & (first - 1)) === 0 ? [firstRoot, ...proof] : proof.slice();
    let fn = first - 1, sn = second - 1;
    while (fn & 1) { fn >>= 1; sn >>= 1; }
    let fr = path[0], sr = path[0];
    for (const c of path.slice(1)) {
      if (sn === 0) return false;
      if (fn & 1 || fn === sn) {
        fr = await node(c, fr); sr = await node(c, sr);
        if (!(fn & 1)) { while (fn && !(fn & 1)) { fn >>= 1; sn >>= 1; } }
      } else {
        sr = await node(sr, c);
      }
      fn >>= 1; sn >>= 1;
    }
    return sn === 0 && hex(fr) === hex(firstRoot) && hex(sr) === hex(secondRoot);
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
    const links = document.createElement("p");
    links.append(download("checkpoint-seen-before.json", kept), " ", download("checkpoint-shown-now.json", now));
    box.append(title, said, links);
  }

  async function check() {
    const kept = JSON.parse(localStorage.getItem(slot) || "null");
    const address = box.dataset.evidence + (kept ? `?from=${kept.checkpoint.size}` : "");
    const answer = await fetch(address, { credentials: "same-origin" });
    if (!answer.ok) return;
    const now = await answer.json();
    if (!(await signed(now.checkpoint, now.key))) {
      alarm(say("unsigned"), kept, now);
      return;
    }
    if (kept) {
      const before = kept.checkpoint, after = now.checkpoint;
      if (kept.key.public_key !== now.key.public_key) {
        alarm(say("other_key"), kept, now);
        return;
      }
      if (after.size < before.size) {
        alarm(say("shorter", { before: before.size, after: after.size }), kept, now);
        return;
      }
      const proof = ((now.consistency || {}).path || []).map(fromHex);
      if (!(await extendsLog(before.size, after.size, fromHex(before.root), fromHex(after.root), proof))) {
        alarm(say("not_extended", { before: before.size }), kept, now);
        return;
      }
    }
    localStorage.setItem(slot, JSON.stringify({ checkpoint: now.checkpoint, key: now.key }));
    box.className = "witness ok";
    box.textContent = say("witnessed", { size: now.checkpoint.size });
  }

  check().catch(() => {});
})();
