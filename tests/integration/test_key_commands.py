"""`bitka key new`, `bitka key show` and `bitka sign`: a member who drives bitka from a script
makes a key, registers it, and confirms a hand with the header the command prints; the
private key stays in a file only its owner reads."""
from __future__ import annotations

import json
import os
import stat

from tests.command import run
from tests.conftest import KOP_HANDS, KOP_TRICKS


def _key(tmp_path, name: str) -> tuple[str, str, str]:
    path = tmp_path / f"{name}.key"
    made = run("key", "new", "--out", str(path))
    assert made.exit_code == 0, made.output
    public = made.output.split("public key: ")[1].split()[0]
    kid = made.output.split("kid: ")[1].split()[0]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600 and public not in path.read_text()
    shown = run("key", "show", "--key", str(path))
    assert shown.exit_code == 0 and public in shown.output and kid in shown.output
    return str(path), public, kid


def test_a_script_makes_a_key_registers_it_and_confirms_with_the_signature_it_prints(client, tmp_path):
    g = client.post("/v1/groups", {"name": "Skrypt", "currency": "PLN"}).json
    admin, base = client.as_(g["admin_token"]), f"/v1/groups/{g['id']}"
    members = [admin.post(f"{base}/members", {"name": n}).json for n in ("Ala", "Bob", "Cyd", "Dan")]
    table = admin.post(f"{base}/tables", {"game": "kop", "rules": {}, "stake": "1.00",
                                          "seats": [m["id"] for m in members]}).json["id"]
    hand = admin.post(f"{base}/tables/{table}/hands", {"deal": {"dealer": 0, "hands": KOP_HANDS},
                                                       "tricks": [{"cards": t} for t in KOP_TRICKS]}).json
    payer = next(m for m in members if m["id"] == hand["confirmation"]["waiting_for"][0])
    me = client.as_(payer["token"])
    path, public, kid = _key(tmp_path, "payer")
    registered = me.post(f"{base}/members/{payer['id']}/devices", {"key": public})
    assert registered.status_code == 201 and registered.json["kid"] == kid
    refused = me.post(f"{base}/hands/{hand['id']}/confirm")
    assert refused.status_code == 403
    statement = refused.json["statement"]
    header = run("sign", "--key", path, "--statement", json.dumps(statement))
    assert header.exit_code == 0, header.output
    done = me.post(f"{base}/hands/{hand['id']}/confirm", headers={"Bitka-Signature": header.output.strip()})
    assert done.status_code == 201 and payer["id"] in done.json["confirmation"]["confirmed_by"]
    # The same statement by act and fields, for the second payer's own key.
    other = next(m for m in members if m["id"] == hand["confirmation"]["waiting_for"][1])
    path2, public2, _ = _key(tmp_path, "other")
    assert client.as_(other["token"]).post(f"{base}/members/{other['id']}/devices", {"key": public2}).status_code == 201
    signed = run("sign", "--key", path2, "--group", g["id"], "confirm", f"hand={hand['id']}",
                 f"settlement={statement['settlement']}")
    assert signed.exit_code == 0, signed.output
    done = client.as_(other["token"]).post(f"{base}/hands/{hand['id']}/confirm",
                                           headers={"Bitka-Signature": signed.output.strip()})
    assert done.status_code == 201 and done.json["confirmation"]["state"] == "counted"


def test_the_key_commands_say_what_is_wrong_in_words(tmp_path):
    path = tmp_path / "k.key"
    assert run("key", "new", "--out", str(path)).exit_code == 0
    again = run("key", "new", "--out", str(path))
    assert again.exit_code == 2 and "--force" in again.output
    missing = run("sign", "--key", str(tmp_path / "none.key"), "--group", "g", "confirm", "hand=h", "settlement=s")
    assert missing.exit_code == 2 and "bitka key new" in missing.output
    (tmp_path / "bad.key").write_text("not a key\n")
    assert "not a bitka key file" in run("sign", "--key", str(tmp_path / "bad.key"), "--group", "g", "confirm",
                                         "hand=h", "settlement=s").output
    for args in (["confirm", "hand=h"], ["nope"], ["confirm", "hand=h", "settlement=s", "extra=1"],
                 ["--statement", "{not json"], ["--statement", '{"act": "confirm", "group": "g"}']):
        said = run("sign", "--key", str(path), *(["--group", "g"] if args[0] != "--statement" else []), *args)
        assert said.exit_code == 2 and "Traceback" not in said.output, (args, said.output)
