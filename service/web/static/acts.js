// Every signed act of a group's log checked again from the log alone, on the phone: the port
// of events/acts.py (which events are acts, the statement each one's signer signed, rebuilt
// from the event) and of projections/signatures.py (each member's devices as the log added
// and stopped them, the nonces used, the event that settled each hand as it stood) that the
// witness (static/witness.js) runs over every event it folds. A test holds the two to the same
// verdicts on honest and forged logs (tests/unit/test_acts_js.py): change both together.
//
// Ed25519 comes from the vendored @noble/ed25519 (through keys.js), as the phone may be
// served over plain HTTP where WebCrypto is missing. The state is plain JSON, so that the
// witness keeps it between visits. An ES module with no window: node loads it too.
import { canonical, kidOf, message } from "./keys.js";
import * as ed from "./vendor/noble-ed25519.js";

export const BEFORE_KEYS = "not signed (before keys)";

// events/acts.py FIELDS: each act and its fields.
export const FIELDS = {
  confirm: ["hand", "settlement"],
  dispute: ["hand", "settlement", "reason"],
  result: ["table", "dealer", "result"],
  cards: ["hand", "seat", "cards"],
  play: ["hand", "seat", "card", "capture"],
  agree: ["hand", "correction"],
  pay_to: ["member", "iban", "name", "pix", "blik"],
  received: ["from", "to", "amount"],
  confirm_payment: ["payment"],
  approve_device: ["member", "key"],
  check_in: ["tournament", "round", "entropy"],
};
// Acts a member may log unsigned: the cards and plays of a whole deal a scorer logged.
const SCORER_MAY_LOG = new Set(["cards", "play"]);
const HEX32 = /^[0-9a-f]{32}$/;
const CARDS = new Set(["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
  .flatMap((rank) => ["C", "S", "H", "D"].map((suit) => rank + suit)));
const SAID_ALOUD = new Set(["jack"]);

class BadSignature extends Error {}  // a signature, key or nonce that cannot be read

const isMapping = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
// Python's truth of a JSON value: null, false, 0, "", [] and {} are false.
const truthy = (value) => Boolean(value) && !(Array.isArray(value) && !value.length) &&
  !(isMapping(value) && !Object.keys(value).length);
// Python's repr of a str (or None), as its sentences quote one.
const pyRepr = (value) => (value === null ? "None" : typeof value !== "string" ? String(value)
  : value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/'/g, "\\'")}'`);
const get = (data, name) => (isMapping(data) && data[name] !== undefined ? data[name] : null);

// --- events/acts.py --------------------------------------------------------------------------

function unb64url(text, size, what) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]+={0,2}$/.test(text)) throw new BadSignature(`${what} is not base64url`);
  const bare = text.replace(/=+$/, "");
  if (bare.length % 4 === 1) throw new BadSignature(`${what} is not base64url`);
  const raw = Uint8Array.from(atob(bare.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - bare.length % 4) % 4)),
    (c) => c.charCodeAt(0));
  if (raw.length !== size) throw new BadSignature(`${what} is ${raw.length} bytes, not ${size}`);
  return raw;
}

export const kidOfKey = (key) => kidOf(unb64url(key, 32, "the key"));

export function checked(parts) {
  const kid = get(parts, "kid"), nonce = get(parts, "nonce"), sig = get(parts, "sig");
  if (typeof kid !== "string" || !HEX32.test(kid)) throw new BadSignature("kid is 32 lowercase hex digits");
  if (typeof nonce !== "string" || !HEX32.test(nonce)) throw new BadSignature("nonce is 32 lowercase hex digits");
  unb64url(sig, 64, "sig");
  return { kid, nonce, sig };
}

export function statement(act, group, nonce, fields) {
  const said = { act, group, nonce };
  for (const name of FIELDS[act]) said[name] = fields[name] === undefined ? null : fields[name];
  return said;
}

// Whether sig is key's Ed25519 signature of the statement (RFC 8032's strict reading).
export function holds(key, said, sig) {
  try {
    return ed.verify(unb64url(sig, 64, "sig"), message(said), unb64url(key, 32, "the key"), { zip215: false });
  } catch (e) {
    return false;
  }
}

export function actOf(type, data, actor) {
  switch (type) {
    case "confirmation": return "confirm";
    case "dispute": return "dispute";
    case "result": return "result";
    case "seat_cards": return "cards";
    case "play": return "play";
    case "agreement": return "agree";
    case "pay_details": return "pay_to";
    case "payment": return get(data, "to") === actor ? "received" : null;
    case "payment_received": return "confirm_payment";
    case "device_added": return get(data, "via") === "approval" ? "approve_device" : null;
    case "check_in": return "check_in";
    default: return null;
  }
}

export function cardsSent(data) {
  if (isMapping(data) && "cards" in data) return data.cards;
  if (isMapping(data) && "table" in data) return data.table;
  if (get(data, "trump") !== null) return [data.trump];
  return null;
}

export function fieldsOf(act, hand, table, data) {
  const pick = (names) => Object.fromEntries(names.map((k) => [k, get(data, k)]));
  switch (act) {
    case "confirm": case "agree": case "dispute":
      return { hand, ...pick(FIELDS[act].filter((k) => k !== "hand")) };
    case "result":
      return { table, dealer: get(data, "dealer"), result: get(data, "result") };
    case "cards":
      return { hand, seat: get(data, "seat"), cards: cardsSent(data) };
    case "play": {
      const capture = get(data, "capture");
      return { hand, seat: get(data, "seat"), card: get(data, "card"), capture: truthy(capture) ? capture : null };
    }
    default:
      return pick(FIELDS[act]);
  }
}

// A logged event's act, the statement its signer signed and its signature, or null when it
// carries no signature (a field the event's "signed" holds is the one that was signed).
export function rebuilt(group, type, hand, table, data, actor) {
  const block = get(data, "signed");
  const act = actOf(type, data, actor);
  if (!isMapping(block) || act === null) return null;
  const signed = checked(block);
  const fields = fieldsOf(act, hand, table, data);
  for (const [k, v] of Object.entries(block)) if (k in fields) fields[k] = v;
  return { act, said: statement(act, group, signed.nonce, fields), signed };
}

// --- projections/devices.py ------------------------------------------------------------------

export function applyDevice(row, env) {
  const d = env.data;
  const before = row || { member: d.member, keys: [], resets: [] };
  if (env.type === "device_added") {
    return { ...before, keys: [...before.keys, { kid: d.kid, key: d.key, via: d.via, seq: env.seq,
      at: env.recorded_at, stopped: null }] };
  }
  if (env.type === "member_reset") {
    return { ...before, keys: before.keys.map((k) => (k.stopped !== null ? k : { ...k, stopped: env.seq })),
      resets: [...before.resets, { seq: env.seq, at: env.recorded_at, reason: get(d, "reason") || "" }] };
  }
  return before;
}
export const current = (row) => ((row && row.keys) || []).filter((k) => k.stopped === null);
export const everKeyed = (row) => Boolean(row && row.keys && row.keys.length);
const wasReset = (row) => Boolean(row && row.resets && row.resets.length);

export function namesACard(value) {
  if (typeof value === "string") return CARDS.has(value);
  if (Array.isArray(value)) return value.some(namesACard);
  if (isMapping(value)) {
    return Object.entries(value).some(([key, item]) => !(SAID_ALOUD.has(key) && "call" in value) && namesACard(item));
  }
  return false;
}

// --- projections/signatures.py ---------------------------------------------------------------

export const fresh = () => ({ keys: {}, nonces: {}, settled: {}, wholeDeal: {}, corrections: {}, payments: {},
  dealUnseen: {} });

// The check of one group's log, folding ``state`` (fresh() or one kept from an earlier visit).
export class Signatures {
  constructor(group, state) {
    this.group = group;
    this.s = state || fresh();
  }

  // The finding env is (a sentence naming its seq), or null; the event is folded either way.
  add(env) {
    let finding;
    try {
      finding = this.judge(env);
    } catch (e) {
      finding = `its signature cannot be read (${e && e.message})`;
    }
    this.fold(env);
    return finding === null ? null : `seq ${env.seq} (${env.type}): ${finding}`;
  }

  judge(env) {
    const data = env.data, s = this.s;
    if (env.type === "device_added") return this.device(env);
    if (env.type === "payment" && env.actor !== get(data, "to") && !truthy(get(data, "pending")) &&
        everKeyed(s.keys[get(data, "to")])) {
      return `a payment to ${get(data, "to")} counts without their word, though they held a key`;
    }
    if (env.type === "pay_details" && env.actor === "admin" && Object.keys(s.keys).length) {
      return `the admin changed how ${get(data, "member")} takes money, once members held keys`;
    }
    const act = actOf(env.type, data, env.actor);
    if (act === null || env.actor === "admin") return null;
    if (!(isMapping(data) && "signed" in data)) {
      if (!everKeyed(s.keys[env.actor])) return null;  // before keys
      if (SCORER_MAY_LOG.has(act) && s.wholeDeal[env.hand]) return null;
      const finding = `${env.actor} had a device key, and this act carries no signature of theirs`;
      if (SCORER_MAY_LOG.has(act) && s.dealUnseen && s.dealUnseen[env.hand]) {  // judged once its deal is shown
        s.dealUnseen[env.hand].push(`seq ${env.seq} (${env.type}): ${finding}`);
        return null;
      }
      return finding;
    }
    return this.signature(env, act, env.actor);
  }

  signature(env, act, member, keys) {
    const found = rebuilt(this.group, env.type, env.hand, env.table, env.data, env.actor);
    if (found === null) throw new TypeError("cannot unpack non-iterable NoneType object");
    const { said, signed } = found;
    const key = (keys || current(this.s.keys[member])).find((k) => k.kid === signed.kid);
    if (!key) return `${signed.kid} is not a current key of ${member} at this point`;
    if (Object.prototype.hasOwnProperty.call(this.s.nonces, signed.nonce)) return `its nonce ${signed.nonce} was used before`;
    if (!holds(key.key, said, signed.sig)) return `the signature is not ${signed.kid}'s over the statement this event makes`;
    if (keys) return null;  // checked late (an event shown sealed first): its settlement was checked by none then
    if ((act === "confirm" || act === "dispute") && said.settlement !== (this.s.settled[env.hand] || null)) {
      return "it speaks of a settlement that is not the hand's as it stood";
    }
    if (act === "agree" && !this.s.corrections[said.correction]) return "it agrees to no correction of this log";
    if (act === "confirm_payment" && !this.s.payments[said.payment]) return "it confirms no payment of this log";
    return null;
  }

  device(env) {
    const data = env.data, row = this.s.keys[get(data, "member")];
    if (get(data, "kid") !== kidOfKey(get(data, "key"))) return "its kid is not its key's";
    if (Object.values(this.s.keys).some((r) => r.keys.some((k) => k.kid === data.kid))) return "its key was added before";
    const via = get(data, "via");
    if (via === "approval") {
      if (env.actor !== data.member || !("signed" in data)) return "an approval signed by none of the member's current devices";
      return this.signature(env, "approve_device", data.member);
    }
    if (current(row).length) return `${data.member} had a current key, so no invitation, token or reset adds one`;
    if (via === "reset" && !wasReset(row)) return `${data.member} was never reset`;
    if (!["invitation", "token", "reset"].includes(via)) return `no device comes ${pyRepr(via)}`;
    return null;
  }

  fold(env) {
    const data = env.data, s = this.s;
    if ((env.type === "device_added" || env.type === "member_reset") && isMapping(data) && "member" in data) {
      s.keys[data.member] = applyDevice(s.keys[data.member], env);
    }
    const block = get(data, "signed");
    if (isMapping(block) && typeof block.nonce === "string") s.nonces[block.nonce] = env.seq;
    if (env.type === "deal" && namesACard(data)) {
      s.wholeDeal[env.hand] = true;
    } else if (env.type === "settlement") {
      s.settled[env.hand] = env.hash;
    } else if (env.type === "correction") {
      s.corrections[env.hash] = true;
      s.settled[data.hand] = env.hash;
      for (const again of data.settlements || []) s.settled[again.hand] = env.hash;
    } else if (env.type === "payment") {
      s.payments[env.hash] = true;
    }
  }

  // What a phone may check later of an event served sealed now (a seat's cards while the hand
  // is in play): whose act it is and the keys that member held at this point.
  sealedNow(env) {
    const row = this.s.keys[env.actor];
    if (env.type === "deal") {  // whether a scorer logged its cards (and may log its plays unsigned): told later
      this.s.dealUnseen = this.s.dealUnseen || {};
      this.s.dealUnseen[env.hand] = this.s.dealUnseen[env.hand] || [];
    }
    return { actor: env.actor, keyed: everKeyed(row), keys: current(row) };
  }

  // The finding an event first served sealed is, once shown (``kept``: sealedNow's answer then).
  shownLate(env, kept) {
    let finding;
    try {
      const act = actOf(env.type, env.data, env.actor);
      if (act === null || env.actor === "admin") {
        finding = null;
      } else if (!(isMapping(env.data) && "signed" in env.data)) {
        finding = kept.keyed && !(SCORER_MAY_LOG.has(act) && this.s.wholeDeal[env.hand])
          ? `${env.actor} had a device key, and this act carries no signature of theirs` : null;
      } else {
        finding = this.signature(env, act, env.actor, kept.keys);
      }
    } catch (e) {
      finding = `its signature cannot be read (${e && e.message})`;
    }
    const block = get(env.data, "signed");
    if (isMapping(block) && typeof block.nonce === "string") this.s.nonces[block.nonce] = env.seq;
    if (env.type === "deal") {
      const deferred = (this.s.dealUnseen || {})[env.hand] || [];
      delete (this.s.dealUnseen || {})[env.hand];
      if (namesACard(env.data)) this.s.wholeDeal[env.hand] = true;
      else if (deferred.length) return deferred[0];
    }
    return finding === null ? null : `seq ${env.seq} (${env.type}): ${finding}`;
  }
}

// How an act's event reads in an audit: signed by which key, or before keys.
export function saidOf(env) {
  const block = get(env.data, "signed");
  return isMapping(block) ? `signed by key ${block.kid}` : BEFORE_KEYS;
}

export { canonical };
