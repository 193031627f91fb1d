"""What waits for the reader's word, near the top of every page of their group: the results
that wait for them to confirm (at every table), the corrections that wait for them to agree,
the payments that wait for them to say they got the money; said by how many and where ("2
results at <a table>, 1 payment from Ala"), with one tap that says yes to all of them.

The tap binds the member: their phone signs each act it makes (``confirm``, ``agree``,
``confirm_payment``) with its key (static/waiting.js), one signature each, as a table's
"confirm all" does; a member who never had a key acts unsigned, as before keys. It acts on
what the banner listed, never on what came after it was drawn: each item carries the hash
its act speaks of, and an item whose hash moved on (a result corrected meanwhile) makes the
whole tap refused, nothing logged; an item that no longer waits (confirmed from another
page meanwhile) is passed over. The form carries the page's one-time key (service/web/once.py),
so a double tap, or Back and a tap, logs nothing twice. The member lands back on the page
they tapped on.

``GET /g/<group>/waiting`` answers the banner alone (an empty answer when nothing waits), for
a page's script to draw it again when the page's live part moves (base.html's
``#waiting[data-refresh]``).
"""
from __future__ import annotations

from collections import Counter, defaultdict

from flask import Response, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from events import acts
from events.errors import DomainError, Invalid, Refused, Unprocessable
from events.money import format_amount, parse_amount
from projections import balances, devices
from projections.groups import member_name
from .. import handlers
from ..commands import Agree, Confirm, ConfirmPayment
from ..handlers import lookups
from ..http import store
from ..i18n.languages import current
from ..i18n.money import money
from . import once, session
from .addresses import same_site
from .base import bp, table_title, together
from .hand_shown import settlement_hash
from .signed_form import in_words, signatures_of

ACTS = ("confirm", "agree", "confirm_payment")  # each is also the form's field listing what it acts on


def waiting_for(r, grow: dict, member: str) -> dict:
    """What waits for ``member``'s word in the group: ``items``, each act the tap makes (its
    act, what it is of, the hash it speaks of and the fields its signature holds), and
    ``disputed``, the results that wait for them but that someone disputed (those are said on
    their hand's page, not confirmed with the rest)."""
    group, items, disputed = grow["id"], [], []
    for hand, entry in r.pending_entries(group):
        if member not in balances.waiting(entry):
            continue
        if entry["state"] == "disputed":
            disputed.append({"hand": hand, "table": entry["table"]})
            continue
        settlement = settlement_hash(r, group, lookups.hand_model(r, group, hand))
        items.append({"act": "confirm", "of": hand, "table": entry["table"], "hash": settlement,
                      "fields": {"hand": hand, "settlement": settlement}})
    brow = r.row(balances.NAME, group, "")
    for entry in balances.corrections_waiting(brow):
        if member in entry["waiting_for"] and member not in entry["agreed"]:
            correction = r.hash_at(group, entry["seq"])
            items.append({"act": "agree", "of": entry["hand"], "table": entry["table"], "hash": correction,
                          "fields": {"hand": entry["hand"], "correction": correction}})
    for p in balances.payments_waiting(brow):
        if p["to"] == member:
            payment = r.hash_at(group, p["payment"])
            items.append({"act": "confirm_payment", "of": str(p["payment"]), "from": p["from"], "amount": p["amount"],
                          "hash": payment, "fields": {"payment": payment}})
    return {"items": items, "disputed": disputed}


def _said(r, grow: dict, found: dict) -> dict:
    """What waits, as the banner says it: results and corrections by table, payments by
    payer (with their sum), the disputed results by hand."""
    group, names = grow["id"], {}

    def table(tid: str) -> dict:
        if tid not in names:
            trow = r.row("table", group, tid)
            game, stake = table_title(trow, grow), money(trow["stake"], grow["currency"], current())
            # Translators: a table's name: %(game)s is the game, %(stake)s the stake, an amount of money.
            names[tid] = {"id": tid, "row": trow, "name": _("%(game)s at %(stake)s", game=game, stake=stake)}
        return names[tid]

    results = Counter(i["table"] for i in found["items"] if i["act"] == "confirm")
    corrections = Counter(i["table"] for i in found["items"] if i["act"] == "agree")
    paid: dict[str, list[int]] = defaultdict(list)
    for i in found["items"]:
        if i["act"] == "confirm_payment":
            paid[i["from"]].append(parse_amount(i["amount"], grow["digits"]))
    disputed = []
    for d in found["disputed"]:
        t, number = table(d["table"]), r.hand_number(group, d["table"], d["hand"]) or "?"
        players = together(member_name(grow, m) for m in t["row"]["seats"])
        # Translators: a result that waits, by its hand's number at its table; %(table)s is the table's name
        # ("<a way to play> at 1.00 zł"), %(players)s who sits at it ("Ala, Bob and Cyd").
        title = _("Hand %(number)s at %(table)s (%(players)s)", number=number, table=t["name"], players=players)
        disputed.append({"hand": d["hand"], "title": title})
    return {"results": [{"table": table(t), "count": n} for t, n in results.items()],
            "corrections": [{"table": table(t), "count": n} for t, n in corrections.items()],
            "payments": [{"name": member_name(grow, m), "count": len(amounts),
                          "amount": money(format_amount(sum(amounts), grow["digits"]), grow["currency"], current())}
                         for m, amounts in paid.items()],
            "disputed": disputed}


def _back(group: str, path: str | None) -> str:
    """The page of this group the tap came from (the group's page for anything else)."""
    path = same_site((path or "").split("?")[0])
    if path == f"/g/{group}" or path.startswith(f"/g/{group}/"):
        return path
    return url_for("web.group_page", group=group)


def _here(group: str) -> str:
    """The page being drawn, to come back to after the tap: a page asked for, else the page a
    form was sent from (a refusal drawn at a form's address)."""
    if request.endpoint == "web.waiting_part":
        return _back(group, request.args.get("back"))
    if request.method == "GET":
        return _back(group, request.path)
    return _back(group, request.form.get("back") or (request.referrer or "").partition(request.host)[2])


def banner(r, grow: dict, who: session.Session, key: str, back: str) -> Markup:
    """The banner for the member signed in as ``who`` ("" when nothing waits, or for the admin)."""
    if who.member is None:
        return Markup("")
    found = waiting_for(r, grow, who.member)
    if not found["items"] and not found["disputed"]:
        return Markup("")
    row = r.row(devices.NAME, grow["id"], who.member)
    keyed = devices.ever_keyed(row)
    signs = [{"act": i["act"], "of": i["of"], "fields": i["fields"]} for i in found["items"]]
    return Markup(render_template(
        "_waiting.html", group=grow["id"], said=_said(r, grow, found), items=found["items"], signs=signs,
        member=who.member, keyed=keyed, kids=[k["kid"] for k in devices.current(row)],
        form_token=session.form_token(who), once_key=key, back=back))


@bp.app_context_processor
def _waiting_banner() -> dict:
    """``waiting_banner(page_key)`` for base.html: the banner of the page's group for the
    member reading it, its forms keyed with the page's one-time key (so that the banner's tap
    and the page's own forms are one drawing of the page: only one of them is carried out);
    ``waiting_refresh(page_key)``, the address that draws it again."""
    def drawn(page_key: str | None = None) -> Markup:
        viewer = g.get("viewer")
        if not viewer or not viewer.get("member"):
            return Markup("")
        group = viewer["group"]
        try:
            with store().reading() as r:
                who = session.signed_in(r, group)
                grow = r.row("group", group, "")
                if who is None or grow is None:
                    return Markup("")
                return banner(r, grow, who, page_key if isinstance(page_key, str) and page_key else once.key(),
                              _here(group))
        except DomainError:  # a page that says why the group cannot be read (damaged) says only that
            return Markup("")

    def refresh(page_key: str | None = None) -> str:
        group = g.viewer["group"]
        return url_for("web.waiting_part", group=group, back=_here(group), once=page_key or None)
    return {"waiting_banner": drawn, "waiting_refresh": refresh}


@bp.get("/g/<group>/waiting")
def waiting_part(group):
    """The banner alone, for the member signed in to the group (an empty answer when nothing
    waits for them); 403 for a browser not signed in to the group."""
    with store().reading() as r:
        who = session.signed_in(r, group)
        grow = r.row("group", group, "")
        if who is None or grow is None:
            return Response("", 403, mimetype="text/html")
        return Response(banner(r, grow, who, once.key(), _here(group)), mimetype="text/html")


def _asked(form) -> dict[str, list[tuple[str, str]]]:
    """What the tap acts on, as the banner listed it: per act, (what it is of, the hash its act
    speaks of)."""
    asked = {}
    for act in ACTS:
        pairs = [value.split(" ", 1) for value in form.getlist(act)]
        if any(len(pair) != 2 for pair in pairs) or len(pairs) > 500:
            unread = _("this form's list of what waits for you cannot be read: open the page again and send it anew")
            raise Invalid(unread, errors={act: [unread]})
        asked[act] = [(of, hashed) for of, hashed in pairs]
    return asked


def _signatures(form) -> dict[tuple[str, str], acts.Signed]:
    """The signatures the phone made, one per act: ``[{"act", "of", "kid", "nonce", "sig"}]``."""
    return signatures_of(form, key=lambda item: (str(item.get("act")), str(item.get("of"))))


def _command(act: str, group: str, member: str, of: str, signed):
    if act == "confirm":
        return Confirm(group, member, of, signed)
    if act == "agree":
        return Agree(group, member, of, signed)
    return ConfirmPayment(group, member, int(of), signed)


@bp.post("/g/<group>/waiting")
def waiting_done(group):
    """One tap: every result, correction and payment the banner listed, confirmed, agreed to
    and received, each signed on the member's phone; back to the page it was tapped on."""
    with store().reading() as r:
        who = session.signed_in(r, group)
    if who is None:
        return redirect(url_for("web.sign_in_page"))
    session.check_form(who)
    if who.member is None:
        raise Refused(_("the admin's sign-in gives no member's word: each member confirms what waits for them"))
    member, asked, signatures = who.member, _asked(request.form), _signatures(request.form)
    back = _back(group, request.form.get("back"))

    def act(w):
        now = {(i["act"], i["of"]): i for i in waiting_for(w, lookups.group_row(w, group), member)["items"]}
        for kind in ACTS:
            for of, hashed in asked[kind]:
                item = now.get((kind, of))
                if item is None:
                    continue  # it no longer waits for this member (said from another page meanwhile)
                if hashed != item["hash"]:
                    raise Unprocessable(_("What waits for you changed since this page was drawn: nothing was logged. "
                                          "Look at it again here, and tap again if you still agree."))
                signed = signatures.get((kind, of))
                with in_words(signed is not None):
                    handlers.handle(_command(kind, group, member, of, signed), w)
        return back
    return once.write(group, "waiting", {kind: sorted(asked[kind]) for kind in ACTS}, act)
