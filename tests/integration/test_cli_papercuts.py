"""The command line's papercuts a new user met (issue 23, items 7-11): the groups a store
holds, --db after the command, a local checkpoint that held, --plot checked first and drawn
by hands, where bitka serve's pages are, JSON that ends its line, and Bisca for four."""
import json
import sys
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import output
from cli.main import bitka
from events.database import open_store
from projections.projector import project
from service import handlers
from service.commands import CreateGroup
from tests.command import demo_store, run


@pytest.fixture
def demo_db(tmp_path):
    db = str(tmp_path / "demo.db")
    return db, demo_store(db)


# 7. bitka groups, what bitka demo made, and --db after the command

def test_groups_lists_each_group_with_its_members_and_last_activity(demo_db):
    db, demo = demo_db
    with open_store(db, projector=project).writing() as w:
        friday = handlers.handle(CreateGroup("Piątek", "EUR"), w).id
    listed = run("--db", db, "groups")
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert lines[0].split() == ["id", "name", "members", "last", "activity"]
    assert lines[1].startswith(friday) and "Piątek" in lines[1]  # the most recently active first
    assert lines[2].startswith(demo) and "Demo: Thursday cards" in lines[2] and " 4 " in lines[2]
    assert lines[2].endswith(" UTC")
    as_json = json.loads(run("--db", db, "groups", "--json").output)
    with open_store(db).reading() as r:
        last = r.events(demo, after=r.version(demo) - 1)[0].recorded_at
    assert as_json[1] == {"id": demo, "name": "Demo: Thursday cards", "members": 4, "last_activity": last}
    assert as_json[0]["id"] == friday and as_json[0]["members"] == 0


def test_groups_of_a_store_without_any_says_so(tmp_path):
    db = str(tmp_path / "empty.db")
    open_store(db).setup().close()
    result = run("--db", db, "groups")
    assert result.exit_code == 0 and "there are no groups" in result.output
    assert json.loads(run("--db", db, "groups", "--json").output) == []


def test_demo_says_which_group_it_made_and_how_to_look_at_it(tmp_path):
    db = str(tmp_path / "demo.db")
    result = run("--db", db, "demo")
    with open_store(db).reading() as r:
        group = r.group_ids()[0]
    assert f"made group {group} (Demo: Thursday cards)" in result.output
    assert f"bitka --db {db} stats --group {group}" in result.output
    assert "serve" in result.output and "http://127.0.0.1:8000/" in result.output


def test_db_is_taken_after_the_command_too_and_wins_there(demo_db, tmp_path):
    db, _ = demo_db
    elsewhere = str(tmp_path / "none.db")
    assert run("verify", "--db", db).exit_code == 0
    assert run("--db", elsewhere, "verify", "--db", db).exit_code == 0
    assert CliRunner().invoke(bitka, ["verify", "--db", db], env={"BITKA_DB": elsewhere}).exit_code == 0
    refused = run("--db", db, "verify", "--db", elsewhere)
    assert refused.exit_code == 2 and f"there is no store at {elsewhere}" in refused.output
    assert run("groups", "--db", db).exit_code == 0
    for command in ([], ["verify"]):
        assert "the one after it wins" in " ".join(run(*command, "--help").output.split())


# 8. bitka verify --checkpoint on the store says that the checkpoint held

def test_verify_against_a_saved_checkpoint_says_it_held(demo_db, tmp_path):
    db, group = demo_db
    saved = tmp_path / "thursday.json"
    saved.write_text(run("--db", db, "checkpoint", "--group", group).output)
    size = json.loads(saved.read_text())["size"]
    result = run("--db", db, "verify", "--checkpoint", str(saved))
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith(f"every hash and link holds, and group {group} extends the checkpoint "
                                          f"of {size}")
    assert "extends the checkpoint" not in run("--db", db, "verify").output


# 9. bitka stats --plot: checked before anything is printed, drawn by hands

def test_plot_without_matplotlib_is_one_sentence_before_the_statistics(demo_db, tmp_path, monkeypatch):
    db, group = demo_db
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    result = run("--db", db, "stats", "--group", group, "--plot", str(tmp_path / "chart.png"))
    assert result.exit_code == 2 and "Ala:" not in result.output and "Traceback" not in result.output
    error = [line for line in result.output.splitlines() if line.startswith("Error:")]
    checkout = Path(__file__).resolve().parents[2]  # this test runs in a checkout
    assert error == [f"Error: --plot needs matplotlib, which is not installed here: pip install '.[plot]' "
                     f"in {checkout}"]
    assert not (tmp_path / "chart.png").exists()


class _FromAnIndex:
    def read_text(self, name):
        return None  # pip wrote no direct_url.json: bitka came from a package index


class _FromAFolder:
    def read_text(self, name):
        return '{"dir_info": {"editable": true}, "url": "file:///src/bitka"}' if name == "direct_url.json" else None


def _not_installed(name):
    raise metadata.PackageNotFoundError(name)


def test_the_plot_hint_names_bitka_plot_only_where_bitka_came_from_an_index(monkeypatch, tmp_path):
    installed = tmp_path / "site-packages"  # the code's folder, without bitka's pyproject.toml
    monkeypatch.setattr(metadata, "distribution", lambda name: _FromAnIndex())
    assert output.plot_install_hint(installed) == "pip install 'bitka[plot]'"
    monkeypatch.setattr(metadata, "distribution", lambda name: _FromAFolder())
    assert output.plot_install_hint(installed) == "pip install '.[plot]' in the bitka checkout"
    monkeypatch.setattr(metadata, "distribution", _not_installed)
    assert output.plot_install_hint(installed) == "pip install '.[plot]' in the bitka checkout"
    checkout = tmp_path / "bitka"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text('[project]\nname = "bitka"\n')
    monkeypatch.setattr(metadata, "distribution", lambda name: _FromAnIndex())  # a stale egg-info in the checkout
    assert output.plot_install_hint(checkout) == f"pip install '.[plot]' in {checkout}"


def test_plot_to_a_file_that_cannot_be_written_says_so_before_the_statistics(demo_db):
    db, group = demo_db
    if not Path("/proc/version").is_file():
        pytest.skip("needs a file nobody may write, root included (Linux's /proc/version)")
    result = run("--db", db, "stats", "--group", group, "--plot", "/proc/version")
    assert result.exit_code == 2 and "--plot /proc/version cannot be written" in result.output
    assert "Ala:" not in result.output


def test_plot_leaves_no_file_behind_when_it_only_checked(demo_db, tmp_path):
    db, _ = demo_db
    chart = tmp_path / "chart.png"
    assert run("--db", db, "stats", "--group", "g_nope", "--plot", str(chart)).exit_code == 2
    assert not chart.exists()


def test_the_plot_counts_hands_along_its_x_axis(demo_db, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure
    db, group = demo_db
    drawn = []
    monkeypatch.setattr(Figure, "savefig", lambda figure, path, **kw: drawn.append(figure))
    assert run("--db", db, "stats", "--group", group, "--plot", str(tmp_path / "chart.png")).exit_code == 0
    axes = drawn[0].axes[0]
    with open_store(db).reading() as r:
        hands = {e.hand for e in r.scan(group) if e.type == "settlement"}
        last_seq = r.version(group)
    xs = [x for line in axes.get_lines() for x in line.get_xdata()]
    assert axes.get_xlabel() == "hands"
    assert min(xs) == 0 and max(xs) == len(hands) < last_seq  # hands, not seqs


# 10. bitka serve says where the pages are; every JSON body ends its line

def test_serve_names_the_pages_address_and_the_api(tmp_path, monkeypatch):
    from cli import server
    started = []
    monkeypatch.setattr(server, "run_gunicorn", lambda *args: started.append(args))
    result = run("--db", str(tmp_path / "club.db"), "serve", "--port", "8123")
    assert result.exit_code == 0 and started, result.output
    assert "pages at http://127.0.0.1:8123/ , API at http://127.0.0.1:8123/v1" in result.output


def test_every_json_body_ends_with_a_newline(client):
    g = client.post("/v1/groups", {"name": "Czwartek", "currency": "PLN"})
    admin = client.as_(g.json["admin_token"])
    base = f"/v1/groups/{g.json['id']}"
    answers = [g, admin.get(base), admin.get("/v1/keys"), admin.get("/v1/openapi.json"),
               admin.get(f"{base}/nowhere"), client.get(base), admin.post(f"{base}/members", {"name": ""}),
               admin.post(f"{base}/tables", {"game": "whist", "rules": {}, "stake": "1.00", "seats": []})]
    for r in answers:
        assert r.mimetype in ("application/json", "application/problem+json"), (r.request.path, r.mimetype)
        assert r.data.endswith(b"\n") and not r.data.endswith(b"\n\n"), (r.request.path, r.data[-40:])
        assert int(r.headers["Content-Length"]) == len(r.data)
    etag = answers[1].headers["ETag"]
    unchanged = admin.get(base, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == etag


# 11. A Bisca table for four with the default variant names the variants for four

def test_a_bisca_table_of_four_under_the_default_variant_names_quatro_and_capixaba(kop_table):
    t = kop_table
    for rules in ({}, {"variant": "tres"}):
        r = t["admin"].post(f"{t['base']}/tables", {"game": "bisca", "rules": rules, "stake": "1.00",
                                                     "seats": [m["id"] for m in t["members"]]})
        assert r.status_code == 422
        assert r.json["detail"] == ("bisca tres is played by 2 players, not 4; for 4 players choose one of the "
                                    "variants quatro, capixaba")
    three = t["admin"].post(f"{t['base']}/tables", {"game": "bisca", "rules": {}, "stake": "1.00",
                                                     "seats": [m["id"] for m in t["members"][:3]]})
    assert three.status_code == 422 and three.json["detail"] == ("this bisca table is played by 2 players; "
                                                                 "3 seats were given")
