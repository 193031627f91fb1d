"""The language links send a browser back only to a path of this site, however another
site's address is written into ``next`` (issue 30: ``/language/pl?next=/%09/evil.example``
answered ``Location: //evil.example``)."""
from __future__ import annotations

from urllib.parse import quote, urlsplit

import pytest

ELSEWHERE = [
    "/%09/evil.example", "/%0a/evil.example", "/%0d%0a/evil.example", "/%20/evil.example", "%09//evil.example",
    "//evil.example", "///evil.example", "/\\evil.example", "\\\\evil.example", "/%5Cevil.example",
    "/%5C%5Cevil.example", "%2F%2Fevil.example", "/%2F/evil.example%23", "https://evil.example/",
    "HTTPS:evil.example", "javascript:alert(1)", "/\u3000/evil.example", "/%E3%80%80/evil.example",
    "http:/\\evil.example", " /g/x",
]


@pytest.mark.parametrize("target", ELSEWHERE)
def test_next_never_leads_to_another_site(client, target):
    answer = client.http.get(f"/language/pl?next={target}")
    assert answer.status_code == 302
    location = answer.headers["Location"]
    parts = urlsplit(location)
    assert location.startswith("/") and not location.startswith(("//", "/\\")) and not parts.netloc
    assert not any(ch.isspace() or ch == "\\" or ord(ch) < 0x20 for ch in location), location
    assert "evil.example" not in location or location.startswith("/%"), location  # escaped: a path here


def test_next_keeps_a_path_of_this_site_with_its_query(client):
    for target in ("/g/g_0123456789ab", "/g/g_0123456789ab/hands/h_0123456789ab?already=1", "/"):
        answer = client.http.get(f"/language/it?next={quote(target)}")
        assert answer.headers["Location"] == target
        assert "bitka_lang=it" in answer.headers["Set-Cookie"]
