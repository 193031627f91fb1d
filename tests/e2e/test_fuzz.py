"""Schemathesis against the live server's own OpenAPI document: generated requests, valid and
invalid, on real and made-up resources, with and without the right token. No 5xx, every answer
matches what the document says, and every error is problem+json."""
from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.conftest import KOP_HANDS
from tests.e2e.conftest import call

pytestmark = pytest.mark.e2e

# Bounded for CI; raise BITKA_FUZZ_EXAMPLES locally for a longer hunt.
EXAMPLES = int(os.environ.get("BITKA_FUZZ_EXAMPLES", "12"))
CONFORMANCE = [not_a_server_error, status_code_conformance, content_type_conformance,
               response_schema_conformance, response_headers_conformance]


def _world(base):
    """A group with members, a Kop table and a dealt hand, so generated requests can land on real ids."""
    _, g = call(base, "POST", "/v1/groups", {"name": "Fuzz", "currency": "PLN"})
    admin = g["admin_token"]
    members = [call(base, "POST", f"/v1/groups/{g['id']}/members", {"name": n}, admin)[1] for n in "ABCD"]
    _, table = call(base, "POST", f"/v1/groups/{g['id']}/tables",
                    {"game": "kop", "stake": "1.00", "seats": [m["id"] for m in members]}, admin)
    _, hand = call(base, "POST", f"/v1/groups/{g['id']}/tables/{table['id']}/hands",
                   {"deal": {"dealer": 0, "hands": KOP_HANDS}}, admin)
    assert hand.get("id"), hand
    ids = {"group": g["id"], "member": members[0]["id"], "table": table["id"], "hand": hand["id"]}
    tokens = {"admin": admin, "member": members[1]["token"], "none": None, "forged": "b" * 43}
    return ids, tokens


def _problem_shape(response):
    if response.status_code >= 400 and response.request.method != "HEAD":
        content_type = response.headers.get("content-type", [""])[0]  # schemathesis lower-cases header names
        assert content_type.startswith("application/problem+json"), response.text[:300]
        body = response.json()
        assert isinstance(body.get("title"), str) and body.get("status") == response.status_code, body
        assert isinstance(body.get("detail"), str) and body["detail"], body


def test_generated_requests_get_documented_answers_and_never_a_5xx(server):
    base, _ = server
    ids, tokens = _world(base)
    schema = schemathesis.openapi.from_url(base + "/v1/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20  # the document describes the whole API, not a corner of it

    failures = []
    for operation in operations:
        real = {name: ids[name] for name in ("group", "member", "table", "hand") if "{" + name + "}" in operation.path}
        strategies = [operation.as_strategy(), operation.as_strategy(generation_mode=GenerationMode.NEGATIVE)]
        if real:
            strategies.append(operation.as_strategy(path_parameters=real))
            strategies.append(operation.as_strategy(generation_mode=GenerationMode.NEGATIVE, path_parameters=real))

        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  phases=[Phase.explicit, Phase.generate],  # report the first failure, do not spend CI shrinking it
                  suppress_health_check=list(HealthCheck))
        @given(case=st.one_of(strategies), who=st.sampled_from(sorted(tokens)))
        def exercise(case, who):
            token = tokens[who]
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            if case.meta is not None and case.meta.generation.mode == GenerationMode.NEGATIVE:
                # Invalid input: only promise no 5xx and a problem+json, since the document cannot
                # list every way a request can be wrong.
                response = case.call(headers=headers, timeout=30)
                assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text[:300]}"
            else:
                response = case.call_and_validate(headers=headers, checks=CONFORMANCE, timeout=30)
            _problem_shape(response)

        try:
            exercise()
        except Exception as e:  # collect every operation's failure, then report them all
            failures.append(f"{operation.method.upper()} {operation.path}: {e}")
    assert not failures, "\n\n".join(failures)
