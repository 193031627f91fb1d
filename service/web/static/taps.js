// Taps that survive the network. A tap (a card, a call, a seat's cards, a score sheet's
// "Log this result", a confirmation) is a form that carries a one-time key (service/web/once.py):
// however often it is sent, bitka carries it out once. So this script keeps each tap on the
// phone (localStorage, which needs no secure context) before it sends it, with its key, the
// group and the member who made it; sends it at once; and when the network or bitka does not
// answer, keeps it, says what waits ("2 not sent yet") and sends it again, in the order the
// taps were made, as soon as bitka answers. What became of each tap sent later is said: logged,
// or not logged with the reason bitka gave ("A♥ was already played, by Ala"); said on a few
// pages, it goes by itself (``expire``), or at once when told to.
//
// A tap goes only from a page of its own group, signed in as the member who made it (the page's
// form token, which ties a form to its session, is added as it goes): a phone signed out, or
// signed in as another member, keeps what waits and says whose it is, and sends it when that
// member signs in here again, or forgets it when told to. A tap answered at once behaves as the
// form did: the page it leads to is opened, a refusal shown where it was tapped.
"use strict";

(function () {
  const say = (key, values) => window.bitkaSay(key, values);  // static/words.js
  const box = document.getElementById("taps");
  if (!box || !window.fetch || !window.URLSearchParams || !window.DOMParser) return;
  let kept;
  try {
    kept = window.localStorage;
    kept.getItem("bitka-taps");
  } catch (e) {
    return;  // no storage: the forms are sent as forms
  }
  const SLOT = "bitka-taps";
  const ALIVE = "bitka-tab:";  // + a tab's id: when it last said it is open (each tab its own key)
  const TAB = Math.random().toString(36).slice(2);
  const LEASE = 30000;  // a tab sending a tap keeps it this long from the others (a send gives up after 20 s)
  const AGAIN = [408, 409, 425, 429, 502, 503, 504];  // "not now": nothing was logged, send it again later
  const me = box.dataset.group ? { group: box.dataset.group, member: box.dataset.member, name: box.dataset.name,
    groupName: box.dataset.groupName, token: box.dataset.formToken } : null;
  const live = document.getElementById("live");
  // The forms that are taps, by where they are sent: a move at a hand, a confirmation (of a hand,
  // a table's results, or all that waits: static/waiting.js), a score sheet's result once logged.
  const TAPS = [/^\/g\/[^/]+\/hands\/[^/]+\/(move|verdict)$/, /^\/g\/[^/]+\/tables\/[^/]+\/confirm$/,
    /^\/g\/[^/]+\/tables\/[^/]+\/result$/, /^\/g\/[^/]+\/waiting$/];
  // How long what became of a tap sent later stays said: pages opened since, and time.
  const SAID_FOR = { logged: [2, 120000], logged_before: [2, 120000], refused: [4, 900000] };
  let draining = false, timer = null, failures = 0, unanswered = false, asksSignIn = false, lastShown = "";
  let leaving = false, notice = "";

  const load = () => {
    try {
      const found = JSON.parse(kept.getItem(SLOT) || "[]");
      return Array.isArray(found) ? found : [];
    } catch (e) {
      return [];
    }
  };
  const save = (taps) => kept.setItem(SLOT, JSON.stringify(taps));
  function change(id, how) {  // read, change one tap, write: what another tab wrote meanwhile stays
    const taps = load();
    const tap = taps.find((t) => t.id === id);
    if (tap) how(tap, taps);
    save(taps.filter((t) => !t.gone));
    return tap;
  }
  const mine = (t) => me && t.group === me.group && t.member === me.member;
  // A tap is sent by the tab it was tapped in while that tab is open (so that two tabs never
  // race to send one); a tab closed, or silent for 15 s, leaves its taps to the others.
  const beat = () => { try { kept.setItem(ALIVE + TAB, String(Date.now())); } catch (e) { /* full: no matter */ } };
  const alive = (tab) => tab === TAB || Date.now() - Number(kept.getItem(ALIVE + tab) || 0) < 15000;
  const waiting = (taps) => taps.filter((t) => t.state === "waiting");

  // A form's own attributes (a field named "action", as a hand's forms have, hides form.action).
  const pathOf = (form) => new URL(form.getAttribute("action") || location.href, location.href);
  const onceOf = (form) => (form.querySelector("input[name=once]") || {}).value || "";
  function isTap(form, submitter) {
    const to = pathOf(form);
    if ((form.getAttribute("method") || "").toLowerCase() !== "post" || to.origin !== location.origin || !onceOf(form)) return false;
    if (!TAPS.some((pattern) => pattern.test(to.pathname))) return false;
    if (/\/result$/.test(to.pathname)) return Boolean(submitter && submitter.name === "confirm" && submitter.value === "yes");
    return true;
  }
  function fieldsOf(form, submitter) {
    const fields = [...new FormData(form)].filter(([name, value]) => name !== "form_token" && typeof value === "string");
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    return fields;
  }
  const signature = (action, fields) => action + "?" + fields.filter(([name]) => name !== "once")
    .map(([name, value]) => `${name}=${value}`).sort().join("&");

  // What a tap is called on the page: its button's words, the cards ticked with it, and where.
  function visible(element) {
    if (!element) return "";
    const copy = element.cloneNode(true);
    copy.querySelectorAll(".visually-hidden, input").forEach((e) => e.remove());
    return copy.textContent.replace(/\s+/g, " ").trim();
  }
  function labelOf(form, submitter) {
    let what = submitter ? submitter.getAttribute("aria-label") || visible(submitter) : "";
    if (form.classList.contains("picker")) {
      const cards = [...form.querySelectorAll("input:checked")].map((i) => visible(i.closest("label"))).filter(Boolean);
      if (cards.length) what = say("tap_with", { what, cards: cards.join(" ") });
    }
    const row = form.closest("li");
    const where = visible(row && row.querySelector("a")) || visible(document.querySelector("main h1"));
    return where ? say("tap_where", { what, where }) : what;
  }
  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  // The forms a waiting tap has spent: the one it was tapped on, and every other form of that
  // page's drawing (they share its one-time key, so bitka would refuse them as out of date).
  function mark() {
    const taps = waiting(load()).filter(mine);
    const keys = new Set(taps.map((t) => t.key));
    const signs = new Set(taps.map((t) => t.sign));
    for (const form of document.querySelectorAll("form")) {
      const key = onceOf(form);
      if (!key || !isTap(form, form.querySelector("button[name=confirm][value=yes]"))) continue;
      const sign = signature(pathOf(form).pathname, fieldsOf(form, null));
      const spent = keys.has(key) || signs.has(sign);
      if (spent && !form.dataset.tapSpent) {
        form.dataset.tapSpent = key;
        form.querySelectorAll("button").forEach((b) => { b.disabled = true; });
      }
      form.classList.toggle("waiting", spent && [...taps].some((t) => t.sign === sign));
    }
  }
  function release(form) {
    delete form.dataset.tapSpent;
    form.classList.remove("waiting");
    form.querySelectorAll("button").forEach((b) => { b.disabled = false; });
  }
  const typing = () => document.activeElement && ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
  // A tap of this page that is no longer waiting was sent (by this tab or another). Logged: the
  // live part asks for the table again, any other page is shown anew as it is now. Not logged
  // (refused, or taken back): its forms may be sent again, as they are.
  function settle() {
    const taps = load();
    const keys = new Set(waiting(taps).map((t) => t.key));
    let again = false, anew = false;
    for (const form of document.querySelectorAll("form[data-tap-spent]")) {
      const key = form.dataset.tapSpent;
      if (keys.has(key)) continue;
      release(form);
      const sent = taps.find((t) => t.key === key && t.state === "done");
      if (!sent || sent.outcome.kind === "refused") continue;
      if (live && live.contains(form)) {  // what it was tapped with is done with: the table shows it
        form.reset();
        const opened = form.closest("details");
        if (opened) opened.open = false;
        again = true;
      } else {
        anew = true;
      }
    }
    if (again) document.dispatchEvent(new Event("bitka:caught-up"));
    if (anew && !typing()) go(location.pathname + location.search);
  }
  // Open ``target`` anew (never a form sent again, as reloading a page drawn by a form would).
  function go(target) {
    leaving = true;
    const here = location.pathname + location.search;
    const [path] = target.split("#");
    if (path === here) {
      history.replaceState(history.state, "", target);
      location.reload();
    } else {
      location.assign(target);
    }
  }

  function element(tag, text, attributes) {
    const made = document.createElement(tag);
    if (text) made.textContent = text;
    for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
    return made;
  }
  function render() {
    const taps = load();
    const own = waiting(taps).filter((t) => mine(t) && !(t.fresh && alive(t.tab)));  // on its first try: not waiting yet
    const held = waiting(taps).filter((t) => !mine(t));
    const done = taps.filter((t) => t.state === "done" && mine(t) && saidHere(t));
    const shown = JSON.stringify([own.map((t) => t.id), held.map((t) => t.id), done.map((t) => t.id), unanswered,
      asksSignIn, navigator.onLine, notice]);
    mark();
    if (shown === lastShown) return;
    lastShown = shown;
    box.replaceChildren();
    if (notice) box.append(element("p", notice, { class: "taps-notice" }));
    if (own.length) {
      const part = element("div", "", { class: "taps-waiting" });
      const head = element("p", "", { class: "taps-count" });
      head.append(element("strong", say("taps_waiting", { count: own.length })));
      const why = [say("taps_kept")];
      if (!navigator.onLine) why.push(say("no_network"));
      else if (unanswered) why.push(say("no_answer"));
      if (asksSignIn) why.push(say("sign_in_again"));
      part.append(head, element("p", why.join(" ")));
      const list = element("ul");
      for (const tap of own) {
        const item = element("li");
        const drop = element("button", say("dont_send"), { type: "button", class: "secondary" });
        drop.addEventListener("click", () => takeBack(tap.id));
        item.append(element("span", capital(tap.label)), drop);
        list.append(item);
      }
      part.append(list);
      box.append(part);
    }
    const whose = new Map();
    for (const tap of held) {
      const key = `${tap.group} ${tap.member}`;
      if (!whose.has(key)) whose.set(key, []);
      whose.get(key).push(tap);
    }
    for (const group of whose.values()) {
      const part = element("div", "", { class: "taps-held" });
      const first = group[0];
      // Whose and how many, never what: a seat's cards or a card not played yet are that member's alone.
      part.append(element("p", say("taps_held", { count: group.length, name: first.name, group: first.groupName })));
      const forget = element("button", say("forget", { count: group.length }), { type: "button", class: "secondary" });
      forget.addEventListener("click", () => {
        const ids = new Set(group.map((t) => t.id));
        save(load().filter((t) => !ids.has(t.id)));
        render();
      });
      part.append(forget);
      box.append(part);
    }
    if (done.length) {
      const part = element("div", "", { class: "taps-done" });
      part.append(element("p", say("sent_heading")));
      const list = element("ul");
      for (const tap of done) {
        const { kind, why } = tap.outcome || {};
        const tapSaid = capital(tap.label);
        const line = kind === "refused" ? say("refused", { tap: tapSaid, why }) : say(kind, { tap: tapSaid });
        list.append(element("li", line, { class: kind === "refused" ? "refused" : "logged" }));
      }
      const seen = element("button", say("seen"), { type: "button", class: "secondary" });
      seen.addEventListener("click", () => {
        const ids = new Set(done.map((t) => t.id));
        save(load().filter((t) => !ids.has(t.id)));
        render();
      });
      part.append(list, seen);
      box.append(part);
    }
  }
  function takeBack(id) {
    const tap = change(id, (t) => { if (t.state === "waiting" && !(t.lease && t.lease.until > Date.now())) t.gone = true; });
    if (tap && tap.gone) {
      document.querySelectorAll(`form[data-tap-spent="${CSS.escape(tap.key)}"]`).forEach(release);
    }
    render();
  }

  // bitka's answer to a tap, as what became of it.
  async function judged(answer, tap) {
    if (AGAIN.includes(answer.status)) return { kind: "again" };
    const url = new URL(answer.url || location.href, location.href);
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const problem = page.querySelector("main .problem");
    const said = problem ? problem.textContent.replace(/\s+/g, " ").trim() : say("answered", { status: answer.status });
    const why = capital(said) + (/[.!?…]$/.test(said) ? "" : ".");
    if (answer.ok && !url.pathname.startsWith(`/g/${tap.group}`)) return { kind: "sign_in" };  // the session ended
    if (answer.ok && url.searchParams.has("stale")) return { kind: "refused", why: say("stale") };
    if (answer.ok && url.searchParams.has("already")) return { kind: "logged_before", url };
    if (answer.ok && answer.redirected && !problem) return { kind: "logged", url };
    return { kind: "refused", why, page };
  }
  async function send(tap) {
    if (!tap.action.startsWith(`/g/${me.group}/`)) return { kind: "refused", why: say("answered", { status: 400 }) };
    const body = new URLSearchParams(tap.fields);
    body.append("form_token", me.token);
    const stop = new AbortController();
    const late = setTimeout(() => stop.abort(), 20000);
    try {
      const answer = await fetch(tap.action, { method: "POST", body, credentials: "same-origin", cache: "no-store",
        redirect: "follow", signal: stop.signal });
      return await judged(answer, tap);
    } catch (e) {
      return { kind: "again" };  // no network, bitka down, or no answer in time
    } finally {
      clearTimeout(late);
    }
  }
  // A tap answered at once, on the page it was tapped on: as the form would have gone.
  function atOnce(tap, result) {
    if (result.kind === "logged" || result.kind === "logged_before") {
      go(result.url.pathname + result.url.search + (tap.where === "live" ? "#live" : ""));
      return true;
    }
    const answered = result.page && result.page.getElementById("live");
    if (result.kind === "refused" && tap.where === "live" && live && answered) {
      live.innerHTML = answered.innerHTML;  // the table as it is now, with the refusal where it was tapped
      return true;
    }
    return false;
  }

  async function drain() {
    if (draining || !me) return;
    draining = true;
    clearTimeout(timer);
    timer = null;
    try {
      for (;;) {  // in the order they were tapped: the first waiting goes before any other
        const next = waiting(load()).filter(mine)[0];
        if (!next) break;
        if (next.tab !== TAB && alive(next.tab)) break;  // its own tab sends it
        if (next.lease && next.lease.tab !== TAB && next.lease.until > Date.now() && alive(next.lease.tab)) break;
        change(next.id, (t) => {
          t.lease = { tab: TAB, until: Date.now() + LEASE };
          if (t.tab !== TAB) t.fresh = false;
        });
        const result = await send(next);
        if (result.kind === "again" || result.kind === "sign_in") {
          change(next.id, (t) => { t.lease = null; t.fresh = false; });
          unanswered = result.kind === "again";
          asksSignIn = result.kind === "sign_in";
          failures += 1;
          if (result.kind === "again") timer = setTimeout(drain, Math.min(1500 * 1.5 ** failures, 10000));
          break;
        }
        failures = 0;
        unanswered = asksSignIn = false;
        const here = next.fresh && next.tab === TAB;
        if (here && atOnce(next, result)) {
          change(next.id, (t) => { t.gone = true; });
          if (result.kind !== "refused") return;  // the next page takes over
          continue;
        }
        change(next.id, (t) => {
          t.state = "done";
          t.doneAt = Date.now();
          t.lease = null;
          t.fields = [];  // what was sent (a seat's cards) is not kept once bitka has it
          t.outcome = { kind: result.kind, why: result.why };
        });
      }
    } finally {
      draining = false;
      if (!leaving) {
        expire(location.pathname);  // what became of the taps is said on this page first
        render();
        settle();
        if (!timer && waiting(load()).some(mine)) timer = setTimeout(drain, 3000);  // another tab's, or later
      }
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target, submitter = event.submitter;
    if (!(form instanceof HTMLFormElement)) return;
    if (!isTap(form, submitter)) {
      if (!navigator.onLine) {  // it needs bitka's answer: said, rather than a browser's error page
        event.preventDefault();
        notice = say("needs_network");
        render();
      }
      return;
    }
    event.preventDefault();
    if (!me || !pathOf(form).pathname.startsWith(`/g/${me.group}/`)) return;
    const fields = fieldsOf(form, submitter);
    const action = pathOf(form).pathname;
    const sign = signature(action, fieldsOf(form, null));
    const taps = load();
    if (waiting(taps).some((t) => t.key === onceOf(form))) return;  // a double tap: the first goes
    const tap = { id: `${Date.now()}-${Math.random().toString(36).slice(2)}`, key: onceOf(form), sign, action, fields,
      group: me.group, member: me.member, name: me.name, groupName: me.groupName, label: labelOf(form, submitter),
      where: live && live.contains(form) ? "live" : "page", made: Date.now(), state: "waiting", tab: TAB,
      fresh: !waiting(taps).some(mine), lease: null };
    taps.push(tap);
    save(taps);
    if (tap.where === "live") live.querySelectorAll(".problem").forEach((p) => p.remove());  // it acted again
    render();
    drain();
  });

  // A link opened with no network and no installed worker to answer it would be the browser's
  // error page: the page says why it stays instead.
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element && event.target.closest("a[href]");
    if (!link || navigator.onLine || (navigator.serviceWorker && navigator.serviceWorker.controller)) return;
    if (new URL(link.href, location.href).origin !== location.origin || link.hash && link.pathname === location.pathname) {
      return;
    }
    event.preventDefault();
    notice = say("needs_network");
    render();
  });
  window.addEventListener("online", () => { notice = ""; render(); drain(); });
  window.addEventListener("offline", render);
  window.addEventListener("storage", (event) => {
    if (event.key !== SLOT) return;
    render();
    settle();
    if (!timer && !draining && waiting(load()).some(mine)) timer = setTimeout(drain, 1000);
  });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) drain(); });
  window.addEventListener("pagehide", () => {  // leaving: what this tab was sending is the others' to send
    kept.removeItem(ALIVE + TAB);
    const taps = load();
    taps.forEach((t) => { if (t.lease && t.lease.tab === TAB) t.lease = null; });
    save(taps);
  });
  window.addEventListener("pageshow", (event) => {  // back on this page (Back): as it was, its forms usable again
    if (!event.persisted) return;
    expire(location.pathname);
    beat();
    leaving = false;
    lastShown = "";
    const keys = new Set(waiting(load()).map((t) => t.key));
    document.querySelectorAll("form[data-tap-spent]").forEach((form) => {
      if (!keys.has(form.dataset.tapSpent)) release(form);
    });
    render();
    drain();
  });
  new MutationObserver(() => mark()).observe(document.querySelector("main") || document.body,
    { childList: true, subtree: true });
  for (let i = kept.length - 1; i >= 0; i--) {  // tabs long closed
    const name = kept.key(i);
    if (name && name.startsWith(ALIVE) && Date.now() - Number(kept.getItem(name) || 0) > 3600000) kept.removeItem(name);
  }
  // What became of a tap, said long enough: in this browser tab, on no more pages than its kind
  // says (``here``: the page open now; the same page drawn again is no other; sessionStorage);
  // on this phone, for no longer (then forgotten).
  const SEEN = "bitka-taps-seen", sayFor = (t) => SAID_FOR[(t.outcome || {}).kind] || SAID_FOR.refused;
  const seenHere = () => { try { return JSON.parse(sessionStorage.getItem(SEEN) || "{}"); } catch (e) { return {}; } };
  const saidHere = (t) => (seenHere()[t.id] || []).length <= sayFor(t)[0];
  function expire(here) {
    const taps = load(), seen = seenHere(), pages = {};  // this tab's pages of each tap done
    let changed = false;
    for (const t of taps.filter((tap) => tap.state === "done" && mine(tap))) {
      if (!t.doneAt) t.doneAt = changed = Date.now();
      if (Date.now() - t.doneAt > sayFor(t)[1]) t.gone = changed = true;
      pages[t.id] = seen[t.id] || [];
      if (here && !pages[t.id].includes(here)) pages[t.id].push(here);
    }
    try { sessionStorage.setItem(SEEN, JSON.stringify(pages)); } catch (e) { /* no storage: said until forgotten */ }
    if (changed) save(taps.filter((t) => !t.gone));
    return Boolean(changed);
  }
  expire(location.pathname);
  beat();
  setInterval(() => {
    beat();
    if (expire(null)) render();
  }, 5000);
  render();
  drain();
})();
