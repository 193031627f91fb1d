// A member's signature on the forms that bind them (API.md, "Members hold their own keys";
// service/web/signed_form.py draws what a form needs). A form (or the one button of it that
// binds) carries:
//   data-act     the act (confirm, dispute, result, cards, play, pay_to, received, confirm_payment)
//   data-group, data-member   whose key signs
//   data-keyed   "1" when that member holds keys (their acts must be signed), "0" before keys
//   data-kids    the member's current key ids
//   data-fields  the act's fields the page knows (JSON)
//   data-pick    what the form's own inputs give as it is sent: "cards" (the cards ticked, in
//                the order shown), "reason" (a dispute's reason), "pay_to" (the details typed)
//   data-each    instead of one signature: a list of fields (a table's "confirm all": each
//                hand and its settlement), each signed, into the hidden field "signatures"
//   inert        (a member who holds keys) until this script is ready to sign
// As the form is sent, this phone signs the act with the member's key (static/keys.js) and
// fills the hidden fields kid, nonce and sig; the form then goes on as before (static/taps.js
// keeps it, signature and all, while the network is away). A member who holds keys but not on
// this phone is told so, and nothing is sent. A form sent again unchanged (a double tap, or a
// tap sent again later) carries the signature it was given the first time: one nonce per tap.
import { keyFor, sign } from "./keys.js";

const say = (key, values) => (window.bitkaSay ? window.bitkaSay(key, values) : key);  // static/words.js
const PARTS = ["kid", "nonce", "sig"];
const signing = new WeakSet();  // forms being signed now: a second tap meanwhile is the same tap

// What the form's own inputs add to the act's fields, as the service reads the same form.
const PICKS = {
  cards: (form) => ({ cards: [...form.querySelectorAll("input[name=card]:checked")].map((i) => i.value) }),
  reason: (form) => ({ reason: String((form.elements.namedItem("reason") || {}).value || "").trim() }),
  pay_to: (form) => Object.fromEntries(["iban", "name", "pix", "blik"].map((name) => {
    const input = form.elements.namedItem(name);
    return [name, (input && input.value) || null];  // as typed; null where empty
  })),
};

function signerOf(form, submitter) {
  if (submitter && submitter.dataset && submitter.dataset.act) return submitter;
  return form.dataset.act ? form : null;
}

function hidden(form, name, value) {
  let input = [...form.querySelectorAll(`input[type=hidden][name="${name}"]`)][0];
  if (!input) {
    input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    form.append(input);
  }
  input.value = value;
}

function tell(form, text) {
  let said = form.querySelector(".sign-problem");
  if (!said) {
    said = document.createElement("p");
    said.className = "problem sign-problem";
    said.setAttribute("role", "alert");
    form.prepend(said);
  }
  said.textContent = text;
}

function forget(form) {
  const said = form.querySelector(".sign-problem");
  if (said) said.remove();
}

// What one tap of this form signs: the act and every field (the picked ones as they stand now).
function asked(form, by) {
  const known = JSON.parse(by.dataset.fields || "{}");
  const pick = PICKS[by.dataset.pick];
  const each = by.dataset.each ? JSON.parse(by.dataset.each) : null;
  const fields = each ? each : { ...known, ...(pick ? pick(form) : {}) };
  const once = (form.querySelector("input[name=once]") || {}).value || "";
  return { act: by.dataset.act, group: by.dataset.group, member: by.dataset.member, fields, each: Boolean(each),
    stamp: JSON.stringify([once, by.dataset.act, fields]) };
}

// Signs the form's act into its hidden fields; false (and said on the form) when it cannot.
async function signed(form, by, what) {
  let key = null;
  try {
    key = await keyFor(what.group, what.member);
  } catch (e) {
    key = null;  // no key store here (a private window): as a phone without the key
  }
  if (!key) {
    tell(form, say("no_key_here"));
    return false;
  }
  if (!(by.dataset.kids || "").split(" ").includes(key.kid)) {
    tell(form, say("key_not_current"));
    return false;
  }
  try {
    if (what.each) {
      const signatures = [];
      for (const item of what.fields) {
        const made = await sign(what.group, what.member, what.act, item);
        signatures.push({ hand: item.hand, kid: made.kid, nonce: made.nonce, sig: made.sig });
      }
      hidden(form, "signatures", JSON.stringify(signatures));
    } else {
      const made = await sign(what.group, what.member, what.act, what.fields);
      PARTS.forEach((name) => hidden(form, name, made[name]));
    }
  } catch (e) {
    tell(form, say("sign_failed", { why: e && e.message ? e.message : String(e) }));
    return false;
  }
  forget(form);
  return true;
}

// A form that binds a member who holds keys comes inert (signed_form.py), so that nothing is
// tapped before this script can sign it: ready now, and so is each one a live part brings later.
function ready() {
  document.querySelectorAll("[data-act][inert]").forEach((element) => element.removeAttribute("inert"));
}
ready();
new MutationObserver(ready).observe(document.documentElement, { childList: true, subtree: true });

// First of every listener (capture, on window): the form is held until it is signed, then sent
// again as it was (its button too), and this time let through to taps.js or the browser.
window.addEventListener("submit", (event) => {
  const form = event.target, submitter = event.submitter;
  if (!(form instanceof HTMLFormElement)) return;
  const by = signerOf(form, submitter);
  if (!by || by.dataset.keyed !== "1") return;  // nothing to sign, or a member before keys
  const what = asked(form, by);
  if (form.dataset.signedFor === what.stamp) return;  // signed for exactly this: it goes
  event.preventDefault();
  event.stopImmediatePropagation();
  if (signing.has(form)) return;  // a double tap while it is signed: the first tap goes
  signing.add(form);
  signed(form, by, what).then((done) => {
    signing.delete(form);
    if (!done || !form.isConnected) return;
    form.dataset.signedFor = what.stamp;
    if (submitter && submitter.form === form) form.requestSubmit(submitter); else form.requestSubmit();
  });
}, true);
