"""Keys on the pages, as an attacker would try them (API.md, "Members hold their own keys",
"Invitations"): the organizer is a member with one sign-in that holds the admin's rights too;
a phone joins with a key it made (the browser's script is played here by ``Device``), or
without one when it runs no scripts; no link signs anyone in as a member who holds a key, and
no page adds a key for anyone but the member signed in; a phone added later waits for one of
the member's phones to approve it; the admin's reset is said on every member's page for 30
days, and a stopped key's phone learns of it by asking with that key."""
from __future__ import annotations

import html
import re
import secrets
from datetime import datetime, timedelta, timezone

import pytest

from projections import devices
from service.web import key_state, session as web_session
from tests.keys.devices import Device


def _hidden(text: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', text).group(1)


class Phone:
    """A browser of its own (its own cookie jar) whose script is a ``Device``."""

    def __init__(self, app):
        self.app, self.http, self.device = app, app.test_client(), Device()

    def get(self, path, **kw):
        return self.http.get(path, **kw)

    def text(self, path) -> str:
        answer = self.http.get(path)
        assert answer.status_code == 200, (path, answer.status_code, answer.get_data(as_text=True)[-800:])
        return html.unescape(answer.get_data(as_text=True))

    def post(self, path, data, **kw):
        return self.http.post(path, data=data, **kw)

    def form(self, path) -> dict:
        page = self.text(path)
        found = {"form_token": _hidden(page, "form_token")}
        if 'name="once"' in page:
            found["once"] = _hidden(page, "once")
        return found

    def start_group(self, name="Czwartek", organizer="Ola", key=True, confirmations="payers") -> str:
        page = self.text("/new")
        data = {"signin_token": _hidden(page, "signin_token"), "name": name, "currency": "PLN",
                "confirmations": confirmations}
        if organizer is not None:
            data["organizer"] = organizer
        if key:
            data["key"] = self.device.key
        made = self.post("/new", data)
        assert made.status_code == 303, made.get_data(as_text=True)
        self.welcome = made.headers["Location"]
        return self.welcome.split("/")[2]

    def invite(self, group, name=None, member=None):
        body = {"name": name} if name else {"member": member}
        return self.post(f"/g/{group}/members", {**self.form(f"/g/{group}/members"), **body})

    def link(self, group, name) -> str:
        answer = self.invite(group, name=name)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        return re.search(r'href="http://localhost(/join/[^"]+)"', answer.get_data(as_text=True))[1]

    def join(self, link, key=True, expect=303, **extra):
        self.get(link)
        data = {"signin_token": _hidden(self.text("/?choose=1"), "signin_token"), **extra}
        if key:
            data["key"] = self.device.key
        answer = self.post(link, data)
        assert answer.status_code == expect, answer.get_data(as_text=True)
        return answer


def _store(app):
    return app.extensions["bitka.store"]


def _version(app, group) -> int:
    with _store(app).reading() as r:
        return r.version(group)


def _row(app, group, member):
    with _store(app).reading() as r:
        return r.row(devices.NAME, group, member)


def _member(app, group, name) -> str:
    with _store(app).reading() as r:
        return next(m["id"] for m in r.row("group", group, "")["members"] if m["name"] == name)


def _events(app, group) -> list[tuple[str, str]]:
    with _store(app).reading() as r:
        return [(e.type, e.actor) for e in r.events(group, limit=1000)]


def _kids(app, group, member) -> list[str]:
    return [k["kid"] for k in devices.current(_row(app, group, member))]


@pytest.fixture
def keyed(app):
    """Ola's new group (Ola its organizer, with her phone's key), and Bożena, who joined with hers."""
    ola = Phone(app)
    group = ola.start_group()
    bozena = Phone(app)
    bozena.join(ola.link(group, "Bożena"))
    return {"group": group, "ola": ola, "bozena": bozena, "ola_id": _member(app, group, "Ola"),
            "bozena_id": _member(app, group, "Bożena")}


def test_the_organizer_is_a_member_with_her_key_and_one_sign_in_holds_both_rights(app, keyed):
    group, ola = keyed["group"], keyed["ola"]
    assert _kids(app, group, keyed["ola_id"]) == [ola.device.kid]
    welcome = ola.text(ola.welcome)
    assert "Keep your link" in welcome and "one sign-in for both" in welcome
    page = ola.text(f"/g/{group}")
    assert "Signed in as <strong>Ola, the admin</strong>" in page
    assert "See this page as the admin" in page and "The admin's controls" not in page  # her own view
    assert "The admin's controls" in ola.text(f"/g/{group}?as=admin")
    assert "Invite a new player" in ola.text(f"/g/{group}/members")  # the admin's page, no second sign-in
    assert "Your keys" in ola.text(f"/g/{group}/devices")  # her own devices: a member's page
    # Members are added and a table opened as the admin; a hand is started as Ola, who sits at it.
    for name in ("Cyd", "Dan"):
        ola.link(group, name)
    page = ola.text(f"/g/{group}/tables/new")
    ids = dict((n, m) for m, n in re.findall(r'<option value="(m_[0-9a-f]+)">([^<]+)</option>', page))
    opened = ola.post(f"/g/{group}/tables/new", {
        **ola.form(f"/g/{group}/tables/new"), "preset": "kop:0", "stake": "1", "entry": "seats", "dealer": "",
        **{f"seat{i}": ids[n] for i, n in enumerate(["Ola", "Bożena", "Cyd", "Dan"])}})
    assert opened.status_code == 303, opened.get_data(as_text=True)
    table = opened.headers["Location"].rsplit("/", 1)[1]
    started = ola.post(f"/g/{group}/tables/{table}/play", ola.form(f"/g/{group}/tables/{table}"))
    assert started.status_code == 303, started.get_data(as_text=True)
    actors = {t: a for t, a in _events(app, group) if t in ("table_opened", "deal")}
    assert actors == {"table_opened": "admin", "deal": keyed["ola_id"]}, _events(app, group)


def test_a_form_sent_from_the_admins_view_of_a_page_acts_as_the_admin(app, keyed):
    group, ola = keyed["group"], keyed["ola"]
    for name in ("Cyd", "Dan"):
        ola.link(group, name)
    page = ola.text(f"/g/{group}/tables/new")
    ids = dict((n, m) for m, n in re.findall(r'<option value="(m_[0-9a-f]+)">([^<]+)</option>', page))
    opened = ola.post(f"/g/{group}/tables/new", {
        **ola.form(f"/g/{group}/tables/new"), "preset": "kop:0", "stake": "1", "entry": "seats", "dealer": "",
        **{f"seat{i}": ids[n] for i, n in enumerate(["Bożena", "Cyd", "Dan", "Ola"])}})
    table = opened.headers["Location"].rsplit("/", 1)[1]
    seen = f"http://localhost/g/{group}/tables/{table}?as=admin"
    started = ola.post(f"/g/{group}/tables/{table}/play", ola.form(f"/g/{group}/tables/{table}?as=admin"),
                       headers={"Referer": seen})
    assert started.status_code == 303
    assert [a for t, a in _events(app, group) if t == "deal"] == ["admin"]


def test_a_phone_joins_with_the_key_it_made_and_the_page_says_the_groups_confirmations_first(app):
    ola = Phone(app)
    group = ola.start_group(confirmations="off")
    link = ola.link(group, "Bożena")
    bozena = Phone(app)
    page = bozena.text(link)
    assert "Results count at once: this group confirms nothing." in page and "Joining agrees to it." in page
    assert f'data-make-key="{group}"' in page and 'name="key" value=""' in page
    bozena.join(link)
    member = _member(app, group, "Bożena")
    row = _row(app, group, member)
    assert [(k["kid"], k["via"]) for k in row["keys"]] == [(bozena.device.kid, "invitation")]
    other = Phone(app)
    group2 = other.start_group(name="Family")
    assert "Results count once every player who pays in them agrees." in Phone(app).text(other.link(group2, "Ewa"))


def test_a_browser_without_scripts_still_joins_without_a_key_as_before(app):
    ola = Phone(app)
    group = ola.start_group(key=False)  # no script: the organizer too joins without a key
    assert _row(app, group, _member(app, group, "Ola")) is None
    assert "Invite a new player" in ola.text(f"/g/{group}/members")
    bozena, link = Phone(app), ola.link(group, "Bożena")
    page = bozena.text(link)  # its one button without scripts: the other shows once the script can make a key
    assert '<noscript><button type="submit">I am Bożena: sign me in on this phone</button></noscript>' in page
    bozena.join(link, key=False)
    assert _row(app, group, _member(app, group, "Bożena")) is None
    assert "Signed in as <strong>Bożena</strong>" in bozena.text(f"/g/{group}")


def test_a_new_link_for_a_member_who_holds_a_key_is_refused_in_words_and_appends_nothing(app, keyed):
    group, ola = keyed["group"], keyed["ola"]
    members = ola.text(f"/g/{group}/members")
    assert "New link for Bożena" not in members and "New link for Ola" not in members
    assert "Bożena holds a key on their own phone" in members
    before = _version(app, group)
    with _store(app).reading() as r:
        unused = r.unused_invitations(group)
    answer = ola.invite(group, member=keyed["bozena_id"])
    text = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 409
    assert ("Bożena approves a new phone on one of their own phones, or, if they lost them all, you reset "
            "Bożena's devices first") in text
    assert _version(app, group) == before
    with _store(app).reading() as r:
        assert r.unused_invitations(group) == unused


def test_no_page_adds_a_key_for_anyone_but_the_member_signed_in(app, keyed):
    group, ola, bozena_id = keyed["group"], keyed["ola"], keyed["bozena_id"]
    stranger = Device()
    before, bozena_row = _version(app, group), _row(app, group, bozena_id)
    # The form names Bożena: the page adds for the one signed in (Ola, who holds a key: it waits).
    answer = ola.post(f"/g/{group}/devices/add", {**ola.form(f"/g/{group}/devices"), "key": stranger.key,
                                                 "member": bozena_id})
    assert answer.status_code == 303 and f"asked={stranger.kid}" in answer.headers["Location"]
    assert _row(app, group, bozena_id) == bozena_row and _version(app, group) == before
    # ... nor from the admin's view of the page (the admin adds no key to anyone).
    answer = ola.post(f"/g/{group}/devices/add?as=admin", {**ola.form(f"/g/{group}/devices"), "key": Device().key})
    assert answer.status_code == 303
    assert _row(app, group, bozena_id) == bozena_row and _version(app, group) == before
    # An admin signed in alone (an old group's way) has no member to add a key for.
    old = Phone(app)
    old_group = old.start_group(organizer=None, key=False)
    refused = old.post(f"/g/{old_group}/devices/add", {**old.form(f"/g/{old_group}/devices"), "key": Device().key})
    assert refused.status_code == 403 and "The admin holds no key" in refused.get_data(as_text=True)
    # Ola approving the phone that waits for Bożena: there is none waiting for Ola by that kid.
    bozena_new = Device()
    keyed["bozena"].post(f"/g/{group}/devices/add", {**keyed["bozena"].form(f"/g/{group}/devices"),
                                                    "key": bozena_new.key})
    signature = ola.device.signature("approve_device", group, member=bozena_id, key=bozena_new.key)
    answer = ola.post(f"/g/{group}/devices/{bozena_new.kid}/approve", {**ola.form(f"/g/{group}/devices"),
                                                                        **signature})
    assert answer.status_code == 404 and _version(app, group) == before


def test_a_phone_that_lost_its_key_is_added_and_approved_on_another_of_the_members_phones(app, keyed):
    group, bozena, member = keyed["group"], keyed["bozena"], keyed["bozena_id"]
    page = bozena.text(f"/g/{group}")
    assert f'data-kids="{bozena.device.kid}"' in page and 'data-keyed="1"' in page  # the script tells
    assert "Add this phone" in page and "ask the admin to reset your devices" in page
    cleared = Device()  # the same phone, its storage cleared: a new key
    asked = bozena.post(f"/g/{group}/devices/add", {**bozena.form(f"/g/{group}/devices"), "key": cleared.key})
    assert asked.status_code == 303
    said = bozena.text(asked.headers["Location"])
    assert "This phone waits for approval" in said and f'data-waiting="{cleared.kid}"' in said
    assert "A new phone waits for your approval." in bozena.text(f"/g/{group}")
    before = _version(app, group)
    form = bozena.form(f"/g/{group}/devices")
    unsigned = bozena.post(f"/g/{group}/devices/{cleared.kid}/approve", form)
    assert unsigned.status_code == 403 and _version(app, group) == before
    by_itself = cleared.signature("approve_device", group, member=member, key=cleared.key)
    refused = bozena.post(f"/g/{group}/devices/{cleared.kid}/approve", {**bozena.form(f"/g/{group}/devices"),
                                                                         **by_itself})
    assert refused.status_code == 403 and _version(app, group) == before  # a waiting key approves nothing
    signature = bozena.device.signature("approve_device", group, member=member, key=cleared.key)
    approved = bozena.post(f"/g/{group}/devices/{cleared.kid}/approve", {**bozena.form(f"/g/{group}/devices"),
                                                                          **signature})
    assert approved.status_code == 303, approved.get_data(as_text=True)
    assert sorted(_kids(app, group, member)) == sorted([bozena.device.kid, cleared.kid])
    assert [k["via"] for k in _row(app, group, member)["keys"]] == ["invitation", "approval"]
    assert "A new phone waits for your approval." not in bozena.text(f"/g/{group}")


def test_a_reset_is_said_on_every_members_pages_and_stops_the_members_key(app, keyed):
    group, ola, bozena, member = keyed["group"], keyed["ola"], keyed["bozena"], keyed["bozena_id"]
    celina = Phone(app)
    celina.join(ola.link(group, "Celina"))
    before = _version(app, group)
    empty = ola.post(f"/g/{group}/members/{member}/reset", {**ola.form(f"/g/{group}/members"), "reason": " "})
    assert empty.status_code == 400 and _version(app, group) == before
    refused = celina.post(f"/g/{group}/members/{member}/reset", {**celina.form(f"/g/{group}"), "reason": "mine",
                                                               "once": "web-" + secrets.token_urlsafe(16)})
    assert refused.status_code == 403 and _version(app, group) == before
    reset = ola.post(f"/g/{group}/members/{member}/reset", {**ola.form(f"/g/{group}/members"),
                                                           "reason": "lost her phone on the bus"})
    assert reset.status_code == 303
    assert "Bożena's devices are reset" in ola.text(reset.headers["Location"])
    assert _kids(app, group, member) == [] and _events(app, group)[-1] == ("member_reset", "admin")
    with app.test_request_context("/"):
        today = key_state.day(datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
    said = f"The admin reset Bożena's devices on {today}: lost her phone on the bus"
    for phone, path in ((ola, f"/g/{group}"), (celina, f"/g/{group}"), (celina, f"/g/{group}/devices"),
                        (ola, f"/g/{group}/members")):
        assert said in phone.text(path), path
    assert bozena.get(f"/g/{group}").status_code == 302  # her sign-in ended with her keys
    # Her new phone joins by a new link, "via reset"; the old one learns, by asking with its key.
    assert "New link for Bożena" in ola.text(f"/g/{group}/members")
    new = Phone(app)
    new.join(_link_for(ola, group, member))
    assert [k["via"] for k in _row(app, group, member)["keys"]] == ["invitation", "reset"]
    asked = _asked(bozena, group, member)
    assert asked.json["state"] == "stopped"
    said = asked.json["said"]
    assert "stopped this phone's key of Bożena" in said and "lost her phone on the bus" in said
    assert _asked(new, group, member).json == {"state": "current"}
    forged = Device()
    forged.kid = bozena.device.kid  # the kid is public; the key is not
    assert _asked(Phone(app), group, member, device=forged).json == {"state": "unknown"}


def _link_for(ola, group, member) -> str:
    answer = ola.invite(group, member=member)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return re.search(r'href="http://localhost(/join/[^"]+)"', answer.get_data(as_text=True))[1]


def _asked(phone, group, member, device=None):
    device = device or phone.device
    signature = device.signature("key_state", group, member=member)
    return phone.http.post("/keys/state", json={"group": group, "member": member, **signature})


def test_a_reset_is_announced_for_30_days_and_no_longer():
    at = "2026-03-01T20:00:00.000000Z"
    rows = [{"member": "m_1", "keys": [], "resets": [{"seq": 9, "at": at, "reason": "lost"}]}]
    start = datetime(2026, 3, 1, 20, tzinfo=timezone.utc)
    assert [r["member"] for r in key_state.announced(rows, start + timedelta(days=29, hours=23))] == ["m_1"]
    assert key_state.announced(rows, start + timedelta(days=30, seconds=1)) == []
    assert key_state.announced(rows, start) != []


def test_the_organizers_own_links_never_turn_her_phone_into_someone_else(app, keyed):
    group, ola = keyed["group"], keyed["ola"]
    # The admin's link opened on her phone: she stays Ola, with the admin's rights.
    admin_link = re.search(r'href="http://localhost(/join/[^"]+)"', ola.text(ola.welcome))[1]
    ola.join(admin_link, key=False)
    assert "Signed in as <strong>Ola, the admin</strong>" in ola.text(f"/g/{group}")
    # Celina's invitation opened on Ola's phone: refused in words, and still Celina's to take.
    link = ola.link(group, "Celina")
    page = ola.get(link)
    assert page.status_code == 409 and "open it on Celina's own phone" in html.unescape(page.get_data(as_text=True))
    ola.join(link, expect=409)
    assert "Signed in as <strong>Ola, the admin</strong>" in ola.text(f"/g/{group}")
    assert "Invite a new player" in ola.text(f"/g/{group}/members")
    Phone(app).join(link)  # unused: Celina takes it on her own phone


def test_an_old_groups_admin_link_still_signs_in_and_a_members_link_there_asks_first(app):
    admin = Phone(app)
    group = admin.start_group(organizer=None, key=False)  # made before organizers: the admin alone
    assert "You are signed in as its admin on this browser." in admin.text(admin.welcome)
    admin_link = re.search(r'href="http://localhost(/join/[^"]+)"', admin.text(admin.welcome))[1]
    laptop = Phone(app)
    laptop.join(admin_link, key=False)
    assert "Signed in as <strong>the admin</strong>" in laptop.text(f"/g/{group}")
    link = admin.link(group, "Ala")
    page = admin.get(link).get_data(as_text=True)
    assert "This phone is signed in to Czwartek as its admin" in page and 'name="both" value="1"' in page
    admin.join(link, expect=409)  # sent without saying "I am Ala and the admin": nothing happens
    assert "Signed in as <strong>the admin</strong>" in admin.text(f"/g/{group}")
    admin.join(link, both="1")
    assert "Signed in as <strong>Ala, the admin</strong>" in admin.text(f"/g/{group}")
    assert "Invite a new player" in admin.text(f"/g/{group}/members")
    assert _kids(app, group, _member(app, group, "Ala")) == [admin.device.kid]


def test_replacing_the_admins_tokens_keeps_the_organizer_signed_in_with_both_rights(app, keyed):
    group, ola = keyed["group"], keyed["ola"]
    answer = ola.post(f"/g/{group}/admin-token", ola.form(f"/g/{group}/admin-token"))
    assert answer.status_code == 200
    assert "Signed in as <strong>Ola, the admin</strong>" in ola.text(f"/g/{group}")
    assert "Invite a new player" in ola.text(f"/g/{group}/members")


def test_signing_out_ends_the_admins_rights_with_the_members_sign_in(app, keyed):
    group, ola = keyed["group"], keyed["ola"]
    kept = ola.http.get_cookie(web_session.COOKIE).value
    answer = ola.post("/signout", {**ola.form(f"/g/{group}"), "group": group})
    assert answer.status_code == 303
    with _store(app).reading() as r:
        assert r.session(web_session.session_hash(kept)) is None
        assert r.session(web_session._linked(kept)) is None
        assert [row for row in r.sessions_of(group, "admin")] == []


def test_the_organizer_who_resets_her_own_devices_keeps_the_admins_rights_on_her_phone(app, keyed):
    group, ola = keyed["group"], keyed["ola"]
    reset = ola.post(f"/g/{group}/members/{keyed['ola_id']}/reset", {**ola.form(f"/g/{group}/members"),
                                                                   "reason": "a new phone"})
    assert reset.status_code == 303 and _kids(app, group, keyed["ola_id"]) == []
    page = ola.text(f"/g/{group}")
    assert "Signed in as <strong>the admin</strong>" in page and "The admin reset Ola's devices on" in page
    assert "Invite a new player" in ola.text(f"/g/{group}/members")
