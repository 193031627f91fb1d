// A member's own key on this phone: made here, kept here (IndexedDB), and used here to sign
// "statements" (events/acts.py, API.md "Members hold their own keys").
//
// The private key never leaves this browser: no function here sends it anywhere, and only the
// public key (base64url) and its kid are ever returned. The pages also run over plain HTTP (a
// hall's LAN address), where `crypto.subtle` does not exist, so every hash (SHA-256, SHA-512)
// and Ed25519 itself come from the vendored @noble libraries (static/vendor/README.md);
// `crypto.getRandomValues`, which plain HTTP does have, makes the private keys and the nonces.
//
// An ES module. In a page:
//   <script type="module" src="{{ url_for('web.static', filename='keys.js') }}"></script>
// then either `import { sign } from "./keys.js"` in another module, or `window.bitkaKeys` from a
// classic `defer` script placed after that tag (module and defer scripts run in document order);
// a "bitka-keys" event is dispatched on window once `window.bitkaKeys` is set.
//
// The pure part (canonical, message, b64url, kidOf, newNonce, publicKeyOf, statementOf,
// signWith, headerOf) needs neither a window nor IndexedDB, so node loads it too
// (tests/unit/test_keys_js.py holds it to Python's bytes).
import * as ed from "./vendor/noble-ed25519.js";
import { sha256, sha512 } from "./vendor/noble-hashes/sha2.js";

ed.hashes.sha512 = sha512;  // @noble/ed25519's synchronous API takes its SHA-512 from here

export const PREFIX = "bitka statement v1\n";
const DATABASE = "bitka-keys";
const STORE = "keys";

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

function bytes32(value, what) {
  if (!(value instanceof Uint8Array) || value.length !== 32) throw new TypeError(`${what} is 32 bytes (a Uint8Array)`);
  return value;
}

// --- Canonical JSON -------------------------------------------------------------------------
// Exactly Python's json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False):
// - keys sorted by Unicode code point, as Python sorts str (a plain JS sort compares UTF-16
//   units, which puts a character beyond U+FFFF before U+E000..U+FFFF: byCodePoint fixes that);
// - strings escaped as JSON.stringify escapes them, which is what Python writes with
//   ensure_ascii=False: \" \\ \b \f \n \r \t, \u00XX (lowercase) for the other controls, and
//   nothing else (not U+007F, not U+2028/U+2029, nothing non-ASCII);
// - integers only (safe integers, or BigInt): a float would not be written as Python writes it;
// - null, true, false, arrays, plain objects. Anything else is refused with a TypeError:
//   undefined (JSON.stringify would silently drop it), NaN, a Date, a lone surrogate (not
//   UTF-8; Python could not encode it either).

function wellFormed(text) {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);  // NaN past the end
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return false;
    }
  }
  return true;
}

function quoted(text) {
  if (!wellFormed(text)) throw new TypeError("canonical JSON: a string holds a lone surrogate (not UTF-8)");
  return JSON.stringify(text);
}

// UTF-16 code units in code point order: surrogates (U+D800..U+DFFF, the units of characters
// beyond U+FFFF) move above U+E000..U+FFFF. Only the first differing unit matters.
const pointOrder = (unit) => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);

export function byCodePoint(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i), y = b.charCodeAt(i);
    if (x !== y) return pointOrder(x) - pointOrder(y);
  }
  return a.length - b.length;
}

function isPlainObject(value) {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function canonical(value) {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isSafeInteger(value)) throw new TypeError(`canonical JSON holds integers only, not ${value}`);
      return String(value);  // -0 too is "0"
    case "bigint":
      return value.toString();
    case "string":
      return quoted(value);
    case "object":
      if (Array.isArray(value)) return "[" + Array.from(value, canonical).join(",") + "]";
      if (isPlainObject(value)) {
        const keys = Object.keys(value).sort(byCodePoint);
        return "{" + keys.map((k) => quoted(k) + ":" + canonical(value[k])).join(",") + "}";
      }
      throw new TypeError("canonical JSON holds plain objects and arrays only");
    default:
      throw new TypeError(`canonical JSON cannot hold ${typeof value}`);
  }
}

// --- Statements and signatures ---------------------------------------------------------------

// The bytes a device signs: "bitka statement v1\n" and the statement's canonical JSON, in UTF-8.
export const message = (statement) => new TextEncoder().encode(PREFIX + canonical(statement));

export function b64url(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// A public key's id: the first 32 lowercase hex digits of the SHA-256 of its 32 raw bytes.
export const kidOf = (publicKey) => hex(sha256(bytes32(publicKey, "a public key"))).slice(0, 32);

export const newNonce = () => hex(crypto.getRandomValues(new Uint8Array(16)));

export const newPrivateKey = () => crypto.getRandomValues(new Uint8Array(32));

// The 32 raw bytes of the Ed25519 public key of a 32-byte private key (RFC 8032's seed).
export const publicKeyOf = (privateKey) => ed.getPublicKey(bytes32(privateKey, "a private key"));

const RESERVED = ["act", "group", "nonce"];

// {act, group, nonce, ...fields}. Pass every field of the act (events/acts.py FIELDS), null
// where the act leaves one empty: the service rebuilds the statement with all of them.
export function statementOf(act, group, nonce, fields = {}) {
  if (typeof act !== "string" || typeof group !== "string" || typeof nonce !== "string") {
    throw new TypeError("a statement's act, group and nonce are strings");
  }
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
    throw new TypeError("a statement's fields are an object");
  }
  const clash = RESERVED.find((name) => Object.prototype.hasOwnProperty.call(fields, name));
  if (clash) throw new TypeError(`"${clash}" is the statement's own, not a field`);
  return { act, group, nonce, ...fields };
}

// The Ed25519 signature (base64url, no padding, of its 64 bytes) of message(statement).
export const signWith = (privateKey, statement) =>
  b64url(ed.sign(message(statement), bytes32(privateKey, "a private key")));

export const headerOf = (kid, nonce, sig) => `kid=${kid}, nonce=${nonce}, sig=${sig}`;  // Bitka-Signature

// --- Keeping keys (IndexedDB: browser only) --------------------------------------------------
// Database "bitka-keys", store "keys", one record per `${group}:${member}`:
// {group, member, secret (Uint8Array, the private key), key (base64url public key), kid, made}.
// The record also names its group and member, so that ids holding ":" cannot be taken for
// one another ("a:b" + "c" and "a" + "b:c"): such a record is not returned for the other.

function opened() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => db.close();
      resolve(db);
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("the key store is held open by another tab"));
  });
}

// Runs one request on the store and answers its result once the transaction has completed
// (so a key is written before makeKey answers).
async function stored(mode, work) {
  const db = await opened();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode, { durability: "strict" });
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error || request.error);
      tx.onabort = () => reject(tx.error || new Error("the key store's transaction was aborted"));
    });
  } finally {
    db.close();
  }
}

const recordId = (group, member) => `${group}:${member}`;

async function recordOf(group, member) {
  const record = await stored("readonly", (store) => store.get(recordId(group, member)));
  if (!record || record.group !== group || record.member !== member) return null;
  return record;
}

// This phone's key for the member in the group, as {kid, key}, or null.
export async function keyFor(group, member) {
  const record = await recordOf(group, member);
  return record ? { kid: record.kid, key: record.key } : null;
}

// A fresh key pair for the member in the group, kept (in place of any earlier one): {kid, key}.
export async function makeKey(group, member) {
  const secret = newPrivateKey();
  const publicKey = publicKeyOf(secret);
  const record = {
    group, member, secret, key: b64url(publicKey), kid: kidOf(publicKey), made: new Date().toISOString(),
  };
  await stored("readwrite", (store) => store.put(record, recordId(group, member)));
  return { kid: record.kid, key: record.key };
}

export async function forget(group, member) {
  await stored("readwrite", (store) => store.delete(recordId(group, member)));
}

// Signs {act, group, nonce, ...fields} (a fresh nonce) with the member's kept key:
// {kid, nonce, sig, statement, header}, header being the Bitka-Signature header's value.
export async function sign(group, member, act, fields = {}) {
  const record = await recordOf(group, member);
  if (!record) throw new Error(`this phone keeps no key for ${member} in ${group}`);
  const nonce = newNonce();
  const statement = statementOf(act, group, nonce, fields);
  const sig = signWith(record.secret, statement);
  return { kid: record.kid, nonce, sig, statement, header: headerOf(record.kid, nonce, sig) };
}

if (typeof window !== "undefined") {
  window.bitkaKeys = Object.freeze({
    canonical, message, b64url, kidOf, newNonce, publicKeyOf, statementOf, signWith, headerOf,
    keyFor, makeKey, forget, sign,
  });
  window.dispatchEvent(new Event("bitka-keys"));
}
