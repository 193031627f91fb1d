// A score sheet with fewer taps (service/web/templates/_result_fields.html draws it, and
// service/web/result_form.py says what each field hangs on). Without this script the sheet is
// one form that shows every field and asks bitka again at each tap. With it:
// - only the fields that the chosen answer of the sheet's first choice (the contract) asks are
//   shown, each in that answer's words (data-by, data-applies, data-labels); the others are
//   hidden and disabled, so that they are not sent;
// - a double is one tap that changes the form and nothing else (data-doubles: the doubles'
//   names in order, data-names: the seats'), and a value offered after a refusal (a button
//   "take") is one tap that stands in for the one typed, every other answer kept;
// - once a tap answers its field, a number still to type next gets the keypad; a number typed
//   into a field that holds one replaces it; Enter never sends a double;
// - as soon as every field shown is answered, bitka is asked what the result would settle (the
//   form sent as "Show the settlement" sends it) and the parts of its answer marked data-swap
//   replace the page's: the settlement with its "Log this result", or the refusal beside the
//   answer it concerns. A change after that holds the log button until bitka has answered for
//   the form as it is now. The log itself goes as before: signed (static/sign.js) and sent
//   (static/taps.js);
// - the answers of this visit, with the form's one-time key, are kept with the page's place in
//   the history (history.state), so that Back to the sheet shows them, and their settlement,
//   again: logged once already, they are answered as sent before (service/web/once.py).
"use strict";

(function () {
  const box = document.querySelector("[data-sheet]");
  const form = box && box.closest("form");
  if (!form || !window.fetch || !window.DOMParser || !window.CSS) return;
  const say = (key, values) => (window.bitkaSay ? window.bitkaSay(key, values) : key);  // static/words.js
  const outcome = form.querySelector("#sheet-outcome[data-swap]");  // the settlement, on a page that shows one
  const fields = [...box.querySelectorAll(".sheet-field")];
  const doubles = box.querySelector("[data-doubles]");
  const typed = (element) => element instanceof HTMLInputElement && !["radio", "checkbox", "hidden"].includes(element.type);
  let given = doubles ? doubles.querySelector("input[type=hidden]").value.split(/\s+/).filter(Boolean).map(Number) : [];
  let shownFor = null, asked = 0, timer = null, plain = false;

  function show(element, yes) {  // [hidden] alone loses to a style that sets how a box is displayed
    element.hidden = !yes;
    element.style.display = yes ? "" : "none";
  }

  function answerOf(name) {
    const checked = form.querySelector(`input[name="${CSS.escape(name)}"]:checked`);
    return checked ? checked.value : "";
  }

  // Each field the chosen answer asks, in its words; the others out of sight and out of the form.
  function applies() {
    fields.forEach((field) => {
      if (!field.dataset.by) return;
      const chosen = answerOf(field.dataset.by);
      if (field.dataset.applies !== undefined) {
        const yes = field.dataset.applies.split(" ").includes(chosen);
        show(field, yes);
        field.querySelectorAll("input, button").forEach((control) => { control.disabled = !yes; });
      }
      const label = field.querySelector("[data-label]");
      const words = field.dataset.labels ? JSON.parse(field.dataset.labels)[chosen] : null;
      if (label && words) label.textContent = words;
    });
  }

  function answered(field) {
    if (field.hidden || field.dataset.kind === "doubles") return true;
    if (field.dataset.kind === "seats") {
      return field.querySelectorAll("input:checked").length >= Number(field.dataset.count || 1);
    }
    const radios = [...field.querySelectorAll("input[type=radio]")];
    if (radios.length) return radios.some((radio) => radio.checked);
    return [...field.querySelectorAll("input")].filter(typed).every((input) => input.value.trim() !== "");
  }
  const complete = () => fields.every(answered);

  // The first field still to answer, when it is a number to type: its keypad comes up.
  function pending() {
    const next = fields.find((field) => !answered(field));
    const input = next && [...next.querySelectorAll("input")].find((i) => typed(i) && !i.disabled && !i.value.trim());
    if (input) input.focus();
    return Boolean(input);
  }

  function button(name, value, words) {
    const made = document.createElement("button");
    Object.assign(made, { type: "submit", className: "secondary", name, value: String(value), textContent: words });
    made.formNoValidate = true;
    return made;
  }

  function help(words) {
    const said = document.createElement("p");
    said.className = "help";
    said.textContent = words;
    return said;
  }

  // The doubles as given so far, and a button for each seat that may give the next one.
  function drawDoubles() {
    const ladder = JSON.parse(doubles.dataset.ladder), names = JSON.parse(doubles.dataset.names);
    doubles.querySelector("input[type=hidden]").value = given.join(" ");
    const parts = [];
    if (given.length) {
      const list = document.createElement("ol");
      list.className = "doubles";
      given.forEach((seat, i) => {
        const item = document.createElement("li");
        item.textContent = `${names[seat]}: ${ladder[i] || ""}`;
        list.append(item);
      });
      parts.push(list);
    } else {
      parts.push(help(say("no_doubles")));
    }
    if (given.length < ladder.length) {
      const next = ladder[given.length], row = document.createElement("div");
      row.className = "actions";
      names.forEach((name, seat) => row.append(button("double", seat, `${name}: ${next}`)));
      parts.push(help(say("next_double", { double: next })), row);
    }
    if (given.length) parts.push(button("undo", 1, say("undo_double")));
    doubles.querySelector(".doubles-now").replaceChildren(...parts);
  }

  // What the form sends now, but what only says it was shown (or logged).
  function sent() {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (name !== "previewed" && name !== "confirm" && typeof value === "string") params.append(name, value);
    }
    return params.toString();
  }

  // The log button stands only for the form as bitka last answered it.
  function holdLog() {
    const log = outcome && outcome.querySelector("button[name=confirm][value=yes]");
    if (log) log.disabled = sent() !== shownFor;
  }

  function swap(page) {
    page.querySelectorAll("[data-swap][id]").forEach((fresh) => {
      const here = document.getElementById(fresh.id);
      if (here) here.replaceChildren(...[...fresh.childNodes].map((node) => document.importNode(node, true)));
    });
    form.querySelectorAll("[id]").forEach((here) => {  // each answer marked as bitka marks it now
      const fresh = page.getElementById(here.id);
      if (!fresh || here.closest("[data-swap]")) return;
      for (const name of ["aria-invalid", "aria-describedby"]) {
        if (fresh.hasAttribute(name)) here.setAttribute(name, fresh.getAttribute(name)); else here.removeAttribute(name);
      }
    });
    applies();  // what came in belongs to a field shown or not, as the rest of it
  }

  // bitka's answer for the form as it is now: true once it is on the page.
  async function ask() {
    const mine = ++asked, now = sent(), body = new URLSearchParams(now);
    body.append("confirm", "no");
    let page;
    try {
      const answer = await fetch(form.getAttribute("action") || location.href,
        { method: "POST", body, credentials: "same-origin", cache: "no-store" });
      page = new DOMParser().parseFromString(await answer.text(), "text/html");
    } catch (e) {
      return false;  // no answer: "Show the settlement" sends the form itself
    }
    if (mine !== asked) return true;  // asked again meanwhile: that answer is the one to show
    if (!page.getElementById("sheet-outcome")) return false;  // not the sheet (signed out meanwhile)
    swap(page);
    shownFor = now;
    holdLog();
    const active = document.activeElement;
    if (outcome.querySelector(".preview") && !typed(active)) outcome.scrollIntoView({ block: "nearest" });
    return true;
  }

  // This visit's answers, with its one-time key, where Back finds them (not the session's token).
  function remember() {
    const kept = new URLSearchParams(sent());
    kept.delete("form_token");
    try {
      history.replaceState({ ...(history.state || {}), sheet: kept.toString() }, "");
    } catch (e) { /* a browser that keeps no state: Back shows the sheet as the server draws it */ }
  }

  function recall() {
    const kept = history.state && typeof history.state.sheet === "string" ? new URLSearchParams(history.state.sheet) : null;
    if (!kept) return false;
    form.querySelectorAll("[data-sheet] input[type=checkbox], [data-sheet] input[type=radio]").forEach((c) => {
      c.checked = kept.getAll(c.name).includes(c.value);
    });
    form.querySelectorAll("[data-sheet] input").forEach((input) => {
      if (typed(input) && kept.has(input.name)) input.value = kept.get(input.name);
    });
    const once = form.querySelector("input[name=once]");
    if (once && kept.get("once")) once.value = kept.get("once");
    if (doubles) {
      given = (kept.get("doubles") || "").split(/\s+/).filter(Boolean).map(Number);
      drawDoubles();
    }
    return true;
  }

  function changed(atOnce) {
    applies();
    if (!outcome) return;
    remember();
    holdLog();
    clearTimeout(timer);
    if (sent() === shownFor || !complete()) return;
    if (atOnce) ask(); else timer = setTimeout(ask, 600);  // a number being typed: when the typing stops
  }

  function set(name, value) {
    const radio = [...form.querySelectorAll(`input[type=radio][name="${CSS.escape(name)}"]`)].find((r) => r.value === value);
    if (radio) radio.checked = true;
    const input = form.querySelector(`input[name="${CSS.escape(name)}"]`);
    if (!radio && input) input.value = value;
  }

  box.addEventListener("click", (event) => {
    const tapped = event.target instanceof Element && event.target.closest("button[name]");
    if (!tapped || !box.contains(tapped)) return;
    if (doubles && (tapped.name === "double" || tapped.name === "undo")) {
      event.preventDefault();
      const seat = tapped.name === "double" ? Number(tapped.value) : null;
      if (seat === null) given.pop(); else given.push(seat);
      drawDoubles();
      if (!pending()) {  // the keypad for a number still to type, else the same seat's button again
        const again = seat === null ? null : doubles.querySelector(`button[name=double][value="${seat}"]`);
        (again || doubles.querySelector("button[name=undo]") || doubles).focus();
      }
      changed(true);
    } else if (tapped.name === "take" && outcome) {
      event.preventDefault();
      const [name, value] = tapped.value.split(":");
      set(name, value);
      changed(true);
    }
  });

  box.addEventListener("change", (event) => {
    const control = event.target;
    if (!(control instanceof HTMLInputElement)) return;
    if (control.type === "radio" || control.type === "checkbox") {
      applies();
      const field = control.closest(".sheet-field");
      if (field && answered(field)) pending();
    }
    changed(true);
  });
  box.addEventListener("input", (event) => { if (typed(event.target)) changed(false); });
  // A number typed into a field that holds one replaces it: the field comes with its number
  // selected, by a tap (once the tap is over, which would otherwise place the caret) or a key.
  let justFocused = null;
  box.addEventListener("focusin", (event) => {
    const input = event.target;
    if (!typed(input) || !input.value) return;
    justFocused = input;
    input.select();
  });
  box.addEventListener("click", (event) => {
    if (event.target === justFocused && justFocused.selectionStart === justFocused.selectionEnd) justFocused.select();
    justFocused = null;
  });
  box.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !typed(event.target)) return;
    event.preventDefault();  // the form's first button is a double: Enter moves on instead
    if (pending()) return;
    event.target.blur();
    changed(true);
  });

  form.addEventListener("submit", (event) => {  // "Show the settlement": asked without leaving the page
    const by = event.submitter;
    if (!outcome || plain || (by && by.name === "confirm" && by.value === "yes")) return;
    event.preventDefault();
    event.stopPropagation();
    clearTimeout(timer);
    ask().then((shown) => {
      if (shown) return;
      plain = true;  // no answer to the script: the form goes as a form, and taps.js says what it can
      if (by && by.form === form) form.requestSubmit(by); else form.requestSubmit();
      plain = false;
    });
  });

  if (outcome && outcome.querySelector("button[name=confirm][value=yes]")) {
    applies();
    shownFor = sent();  // shown with the page
  } else if (outcome && recall()) {
    changed(true);  // Back to this visit's sheet: its answers, and bitka's answer for them, again
  } else {
    applies();
  }
})();
