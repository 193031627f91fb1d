// What waits for the reader's word, with one tap for all of it (#waiting; service/web/waiting.py).
// Its form (form[data-sign-all]) makes several acts at once, each of its own kind: a result
// confirmed ("confirm"), a correction agreed to ("agree"), a payment received
// ("confirm_payment"). For a member who holds keys (data-keyed="1") this phone signs each of
// them with the member's key (static/keys.js) as the form is sent, one signature and nonce
// each, into the hidden field "signatures": [{act, of, kid, nonce, sig}]; a member before keys
// sends the form as it is. The form comes with its button inert until this script has looked
// for the key: with none of the member's current keys here, the banner says so (its own words,
// translated by the server) and its button stays off. The banner is drawn again when the page's
// live part moves: each new drawing is looked at in turn, and a tap is read when it is sent, so
// a form drawn later is signed as the first one was. A form sent again unchanged (a double tap)
// carries the signatures it was given the first time.
import { keyFor, sign } from "./keys.js";

const say = (key, values) => (window.bitkaSay ? window.bitkaSay(key, values) : key);  // static/words.js
const signing = new WeakSet();  // forms being signed now: a second tap meanwhile is the same tap

async function usable(form) {
  try {
    const key = await keyFor(form.dataset.group, form.dataset.member);
    return Boolean(key) && (form.dataset.kids || "").split(" ").includes(key.kid);
  } catch (e) {
    return false;  // no key store here (a private window): as a phone without the key
  }
}

function hidden(form, name, value) {
  let input = form.querySelector(`input[type=hidden][name="${name}"]`);
  if (!input) {
    input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    form.append(input);
  }
  input.value = value;
}

// Each form of the banner as it is drawn: a keyed member's button is lifted once this phone
// can sign, or kept off with the banner's words saying why.
async function ready(form) {
  if (form.dataset.looked) return;
  form.dataset.looked = "1";
  const button = form.querySelector("button[type=submit]");
  if (form.dataset.keyed !== "1") return;
  const can = await usable(form);
  form.querySelectorAll(".waiting-no-key").forEach((p) => { p.hidden = can; });
  if (button) {
    button.disabled = !can;
    button.removeAttribute("inert");
  }
}
const look = () => document.querySelectorAll("form[data-sign-all]").forEach(ready);
look();
new MutationObserver(look).observe(document.documentElement, { childList: true, subtree: true });

async function signAll(form) {
  const items = JSON.parse(form.dataset.signAll || "[]");
  const signatures = [];
  for (const item of items) {
    const made = await sign(form.dataset.group, form.dataset.member, item.act, item.fields);
    signatures.push({ act: item.act, of: item.of, kid: made.kid, nonce: made.nonce, sig: made.sig });
  }
  hidden(form, "signatures", JSON.stringify(signatures));
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

// Before any other listener (capture, on window): the form is held until it is signed, then sent
// again as it was, and this time let through (static/taps.js keeps it while the network is away).
window.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.signAll || form.dataset.keyed !== "1") return;
  const stamp = [(form.querySelector("input[name=once]") || {}).value || "", form.dataset.signAll].join("\n");
  if (form.dataset.signedFor === stamp) return;  // signed for exactly this: it goes
  event.preventDefault();
  event.stopImmediatePropagation();
  if (signing.has(form)) return;  // a double tap while it is signed: the first tap goes
  signing.add(form);
  form.dataset.sending = "1";  // live.js leaves the banner alone while its tap is on its way
  (async () => {
    if (!(await usable(form))) {
      form.querySelectorAll(".waiting-no-key").forEach((p) => { p.hidden = false; });
      return false;
    }
    try {
      await signAll(form);
    } catch (e) {
      tell(form, say("sign_failed", { why: e && e.message ? e.message : String(e) }));
      return false;
    }
    return true;
  })().then((done) => {
    signing.delete(form);
    if (!done) delete form.dataset.sending;
    if (!done || !form.isConnected) return;
    form.dataset.signedFor = stamp;
    form.requestSubmit();
  });
}, true);
