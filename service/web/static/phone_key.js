// This phone's own key for its member (API.md, "Members hold their own keys"), on every page:
// - a form that joins (an invitation, a new group: form[data-make-key]) or adds this phone
//   (form[data-add-key]) makes the key here, keeps it here (keys.js, IndexedDB) and sends only
//   its public half, in the form's "key" field;
// - a form that approves a phone of the member's that waits (form[data-approve]) is signed here,
//   `approve_device` {member, key}, into its "kid", "nonce" and "sig" fields;
// - #phone-key says whether this phone holds one of its member's current keys: none (its
//   storage was cleared: the way back is "Add this phone"), one that waits for approval, or one
//   the admin's reset stopped. Its state is also its data-phone attribute;
// - a key this phone keeps for a group it is no longer signed in to is asked after
//   (POST /keys/state, signed with it): one the admin's reset stopped is said on every page.
// The private key never leaves this phone: nothing here sends it, or reads it but keys.js.
// The buttons of those forms (.needs-key) show only once this script has taken them over, so no
// tap sends one before it could make or sign. The words are the page's own (translated by the
// server); this script only shows them.
import { forget, keyFor, makeKey, sign } from "./keys.js";

const DATABASE = "bitka-keys";  // keys.js's: read here only to list this phone's keys and to file
const STORE = "keys";           // the organizer's key (made before the group had an id) under it
const NEW_GROUP = "new";        // where a key made on the new-group page waits for its group's id
const CHECKED = "bitka-key-state:";  // localStorage: what /keys/state said of a kid, and when
const CHECK_AGAIN = 10 * 60 * 1000;

const words = (list) => new Set((list || "").split(" ").filter(Boolean));

function opened() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE);  // its version as keys.js made it (1 when new)
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function records() {
  const db = await opened();
  try {
    return await new Promise((resolve, reject) => {
      const request = db.transaction(STORE, "readonly").objectStore(STORE).getAll();
      request.onsuccess = () => resolve(request.result || []);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

// A record filed under another group and member (the organizer's, made on the new-group page)
// filed again under its own: the same private key, never copied anywhere else.
async function refile(record, group, member) {
  const db = await opened();
  try {
    await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, "readwrite", { durability: "strict" });
      const store = tx.objectStore(STORE);
      store.put({ ...record, group, member }, `${group}:${member}`);
      store.delete(`${record.group}:${record.member}`);
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

const randomHex = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");

function submitOnce(form, work) {
  form.addEventListener("submit", async (event) => {
    if (form.dataset.keyReady === "1") return;  // filled: it goes as it is
    event.preventDefault();
    if (form.dataset.keyBusy === "1") return;
    form.dataset.keyBusy = "1";
    form.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    try {
      await work(form);
    } catch (e) {
      // No key store here (a private window that keeps none): the form goes without a key, as
      // before keys, and the server says what that means.
    }
    form.dataset.keyReady = "1";
    HTMLFormElement.prototype.submit.call(form);
  });
}

function field(form, name, value) {
  const input = form.querySelector(`input[name="${name}"]`);
  if (input) input.value = value;
}

async function makeFor(form) {
  const group = form.dataset.makeKey || form.dataset.addKey;
  let member = form.dataset.member;
  if (group === NEW_GROUP) {
    const organizer = form.elements.namedItem("organizer");
    if (!organizer || !organizer.value.trim()) return;  // the admin only, who plays not: no member, no key
    for (const r of await records()) if (r.group === NEW_GROUP) await forget(r.group, r.member);  // an earlier try's
    member = randomHex();
  }
  const made = await makeKey(group, member);
  field(form, "key", made.key);
}

async function signApproval(form) {
  const { group, member, key } = form.dataset;
  const signed = await sign(group, member, "approve_device", { member, key });
  field(form, "kid", signed.kid);
  field(form, "nonce", signed.nonce);
  field(form, "sig", signed.sig);
}

// This phone's key for the page's member: kept under them, or (the organizer's) under the
// new-group slot, found by its kid among the member's keys and filed under them.
async function mine(group, member, known) {
  const kept = await keyFor(group, member);
  if (kept && known.has(kept.kid)) return kept;
  const found = (await records()).find((r) => known.has(r.kid) && !(r.group === group && r.member === member));
  if (found && found.group === NEW_GROUP) {
    await refile(found, group, member);
    return keyFor(group, member);
  }
  return kept;
}

function show(box, state) {
  box.dataset.phone = state;
  box.querySelectorAll(".phone-state").forEach((p) => { p.hidden = p.dataset.state !== state; });
}

async function phoneState(box) {
  const { group, member } = box.dataset;
  if (!group || !member) return;
  const kids = words(box.dataset.kids), waiting = words(box.dataset.waiting), stopped = words(box.dataset.stopped);
  const key = await mine(group, member, new Set([...kids, ...waiting, ...stopped]));
  const kid = key ? key.kid : null;
  const state = kid && kids.has(kid) ? "current" : kid && waiting.has(kid) ? "waiting"
    : kid && stopped.has(kid) ? "stopped" : box.dataset.keyed === "1" ? "none" : "keyless";
  show(box, state);
  if (state === "waiting") box.querySelectorAll(".waiting-notice").forEach((p) => { p.hidden = true; });
  devicesPage(state, kid);
}

// The page of devices: this phone's key marked, its own waiting line said, the add form offered.
function devicesPage(state, kid) {
  const line = document.getElementById("this-key");
  if (line && kid && state !== "none" && state !== "keyless") {
    line.textContent = (line.dataset.said || "").replace("%(kid)s", kid.slice(0, 8));
    line.hidden = false;
  }
  document.querySelectorAll(".key-list li[data-kid]").forEach((li) => {
    const mark = li.querySelector(".this-phone");
    if (mark) mark.hidden = li.dataset.kid !== kid;
  });
  document.querySelectorAll("[data-waiting-kid]").forEach((p) => {
    const itself = p.dataset.waitingKid === kid;
    p.hidden = !itself;
    const approve = p.parentElement && p.parentElement.querySelector(".approve");
    if (approve && itself) approve.hidden = true;  // a phone does not approve itself
  });
  document.querySelectorAll(".add-phone").forEach((d) => { d.hidden = !(state === "none" || state === "keyless"); });
}

// Keys this phone keeps for groups (or members) other than the page's: stopped ones are said.
async function stoppedElsewhere(box) {
  const out = box.querySelector(".stopped-elsewhere");
  if (!out) return;
  const here = `${box.dataset.group || ""}:${box.dataset.member || ""}`;
  for (const r of await records()) {
    if (r.group === NEW_GROUP || `${r.group}:${r.member}` === here) continue;
    const said = await stateOf(r);
    if (!said || said.state !== "stopped") continue;
    const p = document.createElement("p");
    p.className = "notice";
    p.textContent = said.said + " ";
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "secondary";
    drop.textContent = out.dataset.forget || "OK";
    drop.addEventListener("click", async () => {
      await forget(r.group, r.member);
      localStorage.removeItem(CHECKED + r.kid);
      p.remove();
    });
    p.append(drop);
    out.append(p);
    out.hidden = false;
  }
}

async function stateOf(record) {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(CHECKED + record.kid) || "null"); } catch (e) { kept = null; }
  if (kept && (kept.state === "stopped" || Date.now() - kept.at < CHECK_AGAIN)) return kept;
  const signed = await sign(record.group, record.member, "key_state", { member: record.member });
  const answer = await fetch("/keys/state", {
    method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin",
    body: JSON.stringify({ group: record.group, member: record.member, kid: signed.kid, nonce: signed.nonce,
                           sig: signed.sig }),
  });
  if (!answer.ok) return null;
  const said = { ...(await answer.json()), at: Date.now() };
  try { localStorage.setItem(CHECKED + record.kid, JSON.stringify(said)); } catch (e) { /* full: ask again */ }
  return said;
}

async function start() {
  document.querySelectorAll("form[data-make-key], form[data-add-key]").forEach((f) => submitOnce(f, makeFor));
  document.querySelectorAll("form[data-approve]").forEach((f) => submitOnce(f, signApproval));
  document.querySelectorAll(".needs-key").forEach((b) => { b.hidden = false; });  // their forms make keys now
  const box = document.getElementById("phone-key");
  if (!box || typeof indexedDB === "undefined") return;
  try {
    await phoneState(box);
  } catch (e) {
    box.dataset.phone = "unknown";  // no key store here: nothing to say of keys
  }
  try {
    await stoppedElsewhere(box);
  } catch (e) { /* the network or the key store failed: asked again on the next page */ }
  box.dataset.checked = "1";
}

start();
