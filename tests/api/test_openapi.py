"""The OpenAPI document as the tools that read it need it: valid (openapi-spec-validator), every
operation named, every header it takes or gives declared, every member of a problem listed,
and each game's rules, deal and result typed, so a generated client learns them from the
document. Redocly's lint and a generated client playing a hand: tests/e2e/test_openapi_tools.py."""
from __future__ import annotations

import re

import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate

from games.scopa import game as scopa
from games.engine.errors import RuleViolation
from games.registry import GAMES
from service import game_schemas
from tests.conftest import KOP_HANDS, KOP_TRICKS

OPERATIONS = {
    "add_bid", "add_cards", "add_claim", "add_member", "add_play", "add_trick", "assert_balance", "balances",
    "close_watch", "confirm_hand", "confirm_table", "consistency", "correct_hand", "create_group",
    "create_tournament", "dispute_hand", "draw_round", "events", "get_audit", "get_checkpoint", "get_group",
    "get_hand", "get_pay_to", "get_table", "get_tournament", "inclusion", "invite", "keys", "ledger_csv_export",
    "new_hand", "open_table", "open_watch", "pay", "put_pay_to", "redeem", "rotate_token", "season", "settle_up",
    "standings", "stats", "update_group", "void_hand", "add_device", "approve_device", "list_devices",
    "agree_to_correction", "confirm_payment", "reset_member", "check_in"}


@pytest.fixture
def doc(client):
    return client.get("/v1/openapi.json").json


def _operations(doc):
    return [(path, method, op) for path, item in doc["paths"].items() for method, op in item.items()
            if method in ("get", "post", "patch", "put", "delete")]


def _fits(doc, component: str, value) -> bool:
    schema = {"allOf": [{"$ref": f"#/components/schemas/{component}"}], "components": doc["components"]}
    return OAS30Validator(schema).is_valid(value)


def test_the_served_document_is_valid_openapi(doc):
    validate(doc)
    assert doc["servers"] and doc["info"]["license"]["name"] and doc["info"]["license"]["url"]
    assert "PaginationMetadata" not in doc["components"]["schemas"]


def test_every_operation_has_its_own_stable_snake_case_id(doc):
    """Generated clients name their functions by these: renaming one is an API change."""
    ids = [op["operationId"] for _, _, op in _operations(doc)]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids)
    assert set(ids) == OPERATIONS


def test_every_operation_says_who_may_call_it_and_its_client_errors(doc):
    for path, method, op in _operations(doc):
        assert "security" in op, (method, path)
        assert any(code.startswith("4") for code in op["responses"]), (method, path)
    assert doc["paths"]["/v1/keys"]["get"]["security"] == []
    assert doc["paths"]["/v1/invitations/{code}"]["post"]["security"] == []
    assert doc["paths"]["/v1/groups"]["post"]["security"] == [{}, {"bearer": []}]


def test_a_problem_lists_every_member_the_service_sends_and_keeps_the_others(doc):
    problem = doc["components"]["schemas"]["Problem"]
    assert problem["additionalProperties"] is True
    assert {"type", "title", "status", "detail", "errors", "version", "actual", "legal"} <= set(problem["properties"])
    assert problem["properties"]["legal"]["items"]["items"]["type"] == "string"


def _headers(response: dict) -> set[str]:
    return set(response.get("headers", {}))


def test_writes_take_if_match_and_idempotency_key_and_answer_etag_and_checkpoint(doc):
    parameters = doc["components"]["parameters"]
    assert {p["name"] for p in parameters.values()} == {"If-Match", "Idempotency-Key", "If-None-Match", "Prefer"}
    for path, method, op in _operations(doc):
        names = {parameters[p["$ref"].rsplit("/", 1)[1]]["name"] for p in op.get("parameters", []) if "$ref" in p}
        if not path.startswith("/v1/groups/{group}"):
            continue
        ok = next(code for code in op["responses"] if code.startswith("2"))
        if method == "get":
            assert names == {"If-None-Match", "Prefer"}, path  # a read may wait for news (service/live.py)
            assert "ETag" in _headers(op["responses"][ok]) and "ETag" in _headers(op["responses"]["304"]), path
        else:
            assert names == {"If-Match", "Idempotency-Key"}, (method, path)
            assert {"ETag", "Bitka-Checkpoint"} <= _headers(op["responses"][ok]), (method, path)
        if "422" in op["responses"]:
            assert "Content-Language" in _headers(op["responses"]["422"]), (method, path)


def test_responses_declare_location_link_language_and_their_media_types(doc):
    paths = doc["paths"]
    assert "Location" in _headers(paths["/v1/groups"]["post"]["responses"]["201"])
    assert "Retry-After" in _headers(paths["/v1/groups"]["post"]["responses"]["429"])
    assert "Location" in _headers(paths["/v1/groups/{group}/tables"]["post"]["responses"]["201"])
    assert "Location" in _headers(paths["/v1/groups/{group}/tables/{table}/hands"]["post"]["responses"]["201"])
    assert "Link" in _headers(paths["/v1/groups/{group}/events"]["get"]["responses"]["200"])
    audit = paths["/v1/groups/{group}/hands/{hand}/audit"]["get"]["responses"]["200"]
    assert "Content-Language" in _headers(audit) and {"application/json", "text/plain"} <= set(audit["content"])
    assert set(paths["/v1/groups/{group}/ledger.csv"]["get"]["responses"]["200"]["content"]) == {"text/csv"}
    assert "Retry-After" in _headers(doc["components"]["responses"]["DEFAULT_ERROR"])


def test_sizes_and_seqs_start_at_one(doc):
    proofs = "/v1/groups/{group}/proofs"
    for path, name in [("/v1/groups/{group}/checkpoint", "size"), (f"{proofs}/inclusion", "seq"),
                       (f"{proofs}/inclusion", "size"), (f"{proofs}/consistency", "from"),
                       (f"{proofs}/consistency", "to")]:
        parameter = next(p for p in doc["paths"][path]["get"]["parameters"] if p.get("name") == name)
        assert parameter["schema"]["minimum"] == 1, (path, name)


def test_a_size_of_zero_is_still_the_422_that_names_the_range(kop_table):
    r = kop_table["member"].get(f"{kop_table['base']}/checkpoint?size=0")
    assert r.status_code == 422 and "size must be from 1" in r.json["detail"]


def test_each_game_has_its_own_rules_deal_and_result_schemas(doc):
    schemas = doc["components"]["schemas"]
    for game in GAMES.values():
        for kind in ("RulesIn", "Rules", "Deal", "Result"):
            assert game_schemas.component(game, kind) in schemas, (game.name, kind)
    table_create, hand_create = schemas["TableCreate"]["properties"], schemas["HandCreate"]["properties"]
    assert len(table_create["rules"]["anyOf"]) == len(GAMES) and len(hand_create["result"]["anyOf"]) == len(GAMES)
    assert len(schemas["Deal"]["anyOf"]) == len(GAMES)
    assert len(schemas["Table"]["properties"]["rules"]["oneOf"]) == len(GAMES)
    assert schemas["ScopaRulesIn"]["properties"]["deal"]["enum"] == ["standard", "scopone", "scientifico"]
    assert schemas["KopResult"]["properties"]["contract"]["enum"][0] == "normal"
    assert "baska" in schemas["BaskaResult"]["properties"]["contract"]["enum"]  # classic's, from its rules
    assert {"bonus", "trump_suit"} <= set(schemas["BiscaResult"]["properties"])  # capixaba's
    assert set(schemas["ScopaDeal"]["properties"]) == {"dealer", "hands", "table", "stock"}


def test_every_rule_a_schema_offers_is_one_the_game_takes():
    for game in GAMES.values():
        taken = game_schemas.rule_sets(game)  # a rule a table shows only when it is not its default is read here
        for field in game.forms.rule_fields:
            for value in field.options:  # each choice is taken by some table (scopone: with four players)
                assert any(getattr(rules, field.name) == value for rules in taken), (game.name, field.name, value)
            for value in (field.low, field.high):
                if value is not None:
                    game.parse_rules({field.name: value})
            if field.high is not None:
                with pytest.raises(RuleViolation):
                    game.parse_rules({field.name: field.high + 1})


def test_the_rules_the_service_shows_fit_exactly_one_game(doc, kop_table):
    t = kop_table
    seats = [m["id"] for m in t["members"]]
    for game, rules, count in [("kop", {"entry": "seats"}, 4), ("baska", {"variant": "classic"}, 4),
                               ("scopa", {"players": 4}, 4), ("bisca", {"variant": "tres"}, 2)]:
        table = t["admin"].post(f"{t['base']}/tables", {"game": game, "rules": rules, "stake": "1.00",
                                                        "seats": seats[:count]}).json
        assert _fits(doc, "Table", table), table
        fitting = [g.name for g in GAMES.values() if _fits(doc, game_schemas.component(g, "Rules"), table["rules"])]
        assert fitting == [game]
    hand = t["admin"].post(f"{t['base']}/tables/{t['table']}/hands",
                           {"deal": {"dealer": 0, "hands": KOP_HANDS}, "tricks": [{"cards": KOP_TRICKS[0]}]}).json
    fitting = [g.name for g in GAMES.values() if _fits(doc, game_schemas.component(g, "Rules"), hand["rules"])]
    assert fitting == ["kop"]


def test_a_deal_and_a_result_of_each_game_fit_their_schemas(doc):
    assert _fits(doc, "KopDeal", {"dealer": 0, "hands": KOP_HANDS})
    assert not _fits(doc, "KopDeal", {"dealer": 0, "hands": KOP_HANDS, "stock": []})
    assert _fits(doc, "Deal", {"dealer": 1})  # seat by seat
    assert _fits(doc, "KopResult", {"contract": "normal", "stare": [0, 2], "doubles": [], "points": 60, "tricks": 3})
    assert _fits(doc, "ScopaResult", {"cards": 0, "coins": None, "primiera": 1, "settebello": 0, "scopas": [1, 0]})
    assert _fits(doc, "BiscaResult", {"points": [70, 50], "tricks": [2, 1]})
    assert not _fits(doc, "ScopaResult", {"cards": 0})


def _scopa_deal() -> dict:
    """Seat 1 plays first and holds QC (9); the table's 4C+5S and 2D+7H both make 9."""
    table, hands = ["4C", "5S", "2D", "7H"], [["AC", "AS", "3C"], ["QC", "AH", "3H"]]
    used = set(table) | {c for h in hands for c in h}
    return {"dealer": 0, "hands": hands, "table": table, "stock": [c for c in sorted(scopa.PACK) if c not in used]}


def test_a_scopa_play_that_must_choose_its_capture_gets_the_legal_ones_as_data(kop_table):
    t = kop_table
    table = t["admin"].post(f"{t['base']}/tables", {"game": "scopa", "stake": "1.00",
                                                    "seats": [m["id"] for m in t["members"][:2]]}).json
    hand = t["member"].post(f"{t['base']}/tables/{table['id']}/hands", {"deal": _scopa_deal()}).json
    r = t["member"].post(f"{t['base']}/hands/{hand['id']}/plays", {"card": "QC"})
    assert r.status_code == 422 and "say which in capture" in r.json["detail"]
    assert sorted(map(sorted, r.json["legal"])) == [["2D", "7H"], ["4C", "5S"]]
    wrong = t["member"].post(f"{t['base']}/hands/{hand['id']}/plays", {"card": "QC", "capture": ["4C"]})
    assert wrong.status_code == 422 and sorted(map(sorted, wrong.json["legal"])) == [["2D", "7H"], ["4C", "5S"]]
    other = t["member"].post(f"{t['base']}/hands/{hand['id']}/plays", {"card": "AH", "capture": ["2D"]})
    assert other.status_code == 422 and "legal" not in other.json  # captures nothing: nothing to list
    ok = t["member"].post(f"{t['base']}/hands/{hand['id']}/plays", {"card": "QC", "capture": r.json["legal"][0]})
    assert ok.status_code == 201


def test_the_reference_page_is_served_from_this_server_alone(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.get_data(as_text=True))
    assert sources and all(s.startswith("/docs/") for s in sources)
    for source in sources:
        asset = client.get(source)
        assert asset.status_code == 200 and asset.data, source
    assert b'"validatorUrl": null' in client.get("/docs/start.js").data
    assert client.get("/docs/assets/../../__init__.py").status_code == 404
    license_url = client.get("/v1/openapi.json").json["info"]["license"]["url"]
    if license_url.startswith("/"):
        assert client.get(license_url).status_code == 200
