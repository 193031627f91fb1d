"""The phones' keys.js writes exactly the bytes Python reads: canonical JSON as
``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)``, kids, public keys
and Ed25519 signatures (deterministic, so Python's own signature of the same message is the
same 64 bytes). node runs keys.js's pure part once, on every case, for the whole module.

keys.js and its vendored libraries are ES modules with a ``.js`` name, so they are copied
beside a ``package.json`` saying ``"type": "module"`` (the project has none, and node would
take them for CommonJS)."""
from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from events.canonical import canonical_bytes

STATIC = Path(__file__).resolve().parents[2] / "service" / "web" / "static"
PREFIX = b"bitka statement v1\n"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH: keys.js cannot be run here")

NONCE = "0123456789abcdef0123456789abcdef"
TRICKY = [
    {"act": "confirm", "group": "g-1", "nonce": NONCE, "hand": "h-7", "settlement": {"Bożena": -120, "Łukasz": 120}},
    {"act": "result", "group": "g", "nonce": NONCE, "table": "t", "dealer": None,
     "result": {"bids": [1, [2, [3, []]], {}], "ok": True, "void": False, "none": None}},
    {"quote \" backslash \\ slash /": "\"\\/", "controls": "\x00\x01\x07\b\t\n\x0b\f\r\x1b\x1f\x7f",
     "separators": "\u2028\u2029", "emoji": "😀🂡👍🏽", "letters": "Ł ż ß é é \ufeff", "</script>": "<!--"},
    {"": 0, "a": 1, "B": 2, "b": 3, "Ł": 4, "Ż": 5, "ż": 6, "10": 7, "9": 8, "1": 9, "__proto__": 10,
     "\ue000": 11, "\uffff": 12, "😀": 13, "\U0010ffff": 14, "\ud7ff": 15, "ab": 16, "a\x00": 17},
    {"big": 2 ** 53 - 1, "small": -(2 ** 53 - 1), "zero": 0, "minus": -1, "nested": {"z": {"y": {"x": [None]}}}},
    [],
    {},
    "Bożena",
    -42,
    None,
]
# Keys beyond U+FFFF sort after U+E000..U+FFFF in Python (code points), before them in a
# plain JS sort (UTF-16 units).
ASTRAL_KEYS = {"😀": 1, "\uffff": 2, "\ue000": 3, "\U0001f600x": 4, "\U00010000": 5, "\ud7ff": 6}
REFUSED = {  # JSON texts of values canonical() must refuse: Python would not write them the same
    "float": "1.5",
    "float in a list": "[1, 0.5]",
    "unsafe integer": "9007199254740993",
    "lone high surrogate": json.dumps({"a": "\ud800"}),
    "lone low surrogate in a key": json.dumps({"\udc00": 1}),
}
SEEDS = [bytes(32), b"\xff" * 32, bytes(range(32)), hashlib.sha256(b"bitka").digest()]
STATEMENT_FIELDS = {"hand": "h-1", "settlement": {"Bożena": 30, "Żaneta": -30}, "reason": "za mało \"kart\"\n"}

DRIVER = r"""
import * as keys from "./static/keys.js";
const input = JSON.parse(await new Promise((resolve) => {
  let text = ""; process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => { text += chunk; }); process.stdin.on("end", () => resolve(text));
}));
const fromHex = (h) => Uint8Array.from(h.match(/../g) || [], (x) => parseInt(x, 16));
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const thrown = (work) => { try { work(); return null; } catch (e) { return e.name; } };
const refused = {};
for (const [name, text] of Object.entries(input.refused)) {
  refused[name] = thrown(() => keys.canonical(JSON.parse(text)));
}
refused.undefined = thrown(() => keys.canonical({ a: undefined }));
refused.NaN = thrown(() => keys.canonical({ a: NaN }));
refused.Date = thrown(() => keys.canonical(new Date(0)));
refused.nonceField = thrown(() => keys.statementOf("confirm", "g", "n", { nonce: "x" }));
const seeds = input.seeds.map((h) => {
  const secret = fromHex(h);
  const pub = keys.publicKeyOf(secret);
  const statement = keys.statementOf(input.act, input.group, input.nonce, input.fields);
  return { pub: hex(pub), key: keys.b64url(pub), kid: keys.kidOf(pub), statement,
           canonical: keys.canonical(statement), message: hex(keys.message(statement)),
           sig: keys.signWith(secret, statement) };
});
const nonces = Array.from({ length: 8 }, () => keys.newNonce());
process.stdout.write(JSON.stringify({
  canonical: input.cases.map((c) => keys.canonical(c)),
  messages: input.cases.map((c) => hex(keys.message(c))),
  astral: keys.canonical(input.astral),
  b64url: input.bytes.map((h) => keys.b64url(fromHex(h))),
  refused, seeds, nonces,
  header: keys.headerOf("k", "n", "s"),
  fresh: hex(keys.newPrivateKey()),
  bitkaKeys: typeof globalThis.bitkaKeys,
}));
"""


@pytest.fixture(scope="module")
def js(tmp_path_factory) -> dict:
    """What keys.js answers for every case, from one run of node."""
    where = tmp_path_factory.mktemp("keys_js")
    (where / "static").mkdir()
    shutil.copy(STATIC / "keys.js", where / "static" / "keys.js")
    shutil.copytree(STATIC / "vendor", where / "static" / "vendor")
    (where / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    (where / "driver.js").write_text(DRIVER, encoding="utf-8")
    given = {"cases": TRICKY, "astral": ASTRAL_KEYS, "refused": REFUSED, "seeds": [s.hex() for s in SEEDS],
             "act": "dispute", "group": "grupa-Łódź", "nonce": NONCE, "fields": STATEMENT_FIELDS,
             "bytes": [bytes(range(n)).hex() for n in range(7)] + [b"\xfb\xff\xfe".hex()]}
    done = subprocess.run([NODE, "driver.js"], cwd=where, input=json.dumps(given), capture_output=True,
                          text=True, encoding="utf-8", timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def python_canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_canonical_json_is_pythons(js):
    for value, text, message in zip(TRICKY, js["canonical"], js["messages"], strict=True):
        assert text == python_canonical(value)
        assert bytes.fromhex(message) == PREFIX + python_canonical(value).encode("utf-8") \
            == PREFIX + canonical_bytes(value)


def test_keys_beyond_the_basic_plane_sort_by_code_point(js):
    assert js["astral"] == python_canonical(ASTRAL_KEYS)
    assert list(json.loads(js["astral"])) == ["\ud7ff", "\ue000", "\uffff", "\U00010000", "😀", "\U0001f600x"]


def test_what_python_would_write_otherwise_is_refused(js):
    assert js["refused"] == {**dict.fromkeys(REFUSED, "TypeError"), "undefined": "TypeError", "NaN": "TypeError",
                             "Date": "TypeError", "nonceField": "TypeError"}


def test_b64url_has_no_padding(js):
    raws = [bytes(range(n)) for n in range(7)] + [b"\xfb\xff\xfe"]
    assert js["b64url"] == [base64.urlsafe_b64encode(raw).rstrip(b"=").decode() for raw in raws]


def test_public_keys_and_kids_are_pythons(js):
    for seed, got in zip(SEEDS, js["seeds"], strict=True):
        raw = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        assert bytes.fromhex(got["pub"]) == raw
        assert got["key"] == base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        assert got["kid"] == hashlib.sha256(raw).hexdigest()[:32]


def test_signatures_verify_in_python_and_equal_pythons_own(js):
    expected = {"act": "dispute", "group": "grupa-Łódź", "nonce": NONCE, **STATEMENT_FIELDS}
    message = PREFIX + python_canonical(expected).encode("utf-8")
    for seed, got in zip(SEEDS, js["seeds"], strict=True):
        assert got["statement"] == expected
        assert bytes.fromhex(got["message"]) == message
        assert re.fullmatch(r"[A-Za-z0-9_-]{86}", got["sig"])
        sig = base64.urlsafe_b64decode(got["sig"] + "==")
        private = Ed25519PrivateKey.from_private_bytes(seed)
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(got["pub"])).verify(sig, message)  # raises if not
        assert private.sign(message) == sig


def test_nonces_and_private_keys_are_fresh_random_hex(js):
    assert all(re.fullmatch(r"[0-9a-f]{32}", n) for n in js["nonces"])
    assert len(set(js["nonces"])) == len(js["nonces"])
    assert re.fullmatch(r"[0-9a-f]{64}", js["fresh"]) and js["fresh"] != "0" * 64


def test_header_and_no_window_in_node(js):
    assert js["header"] == "kid=k, nonce=n, sig=s"
    assert js["bitkaKeys"] == "undefined"  # the browser-only part stays out of node's way


def test_vendored_files_are_the_published_ones():
    """Each vendored file's sha256 is the one static/vendor/README.md records (from npm)."""
    vendor = STATIC / "vendor"
    recorded = dict(re.findall(r"^\| `([^`]+)` \| [^|]+ \| `([0-9a-f]{64})` \|$",
                               (vendor / "README.md").read_text(encoding="utf-8"), re.MULTILINE))
    present = {p.relative_to(vendor).as_posix() for p in vendor.rglob("*") if p.is_file()} - {"README.md"}
    assert set(recorded) == present
    for name, digest in recorded.items():
        assert hashlib.sha256((vendor / name).read_bytes()).hexdigest() == digest, name
