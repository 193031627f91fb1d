"""The OpenAPI document's words on members' keys: how a client signs an act, with a worked
example a client author can check their own code against (tests/unit/test_signing_doc.py
holds it to events/acts.py, so the example cannot drift from what the service checks)."""
from __future__ import annotations

from events.acts import FIELDS

# The worked example: a private key made from the bytes 1..32 (never use it), confirming a hand.
EXAMPLE_SEED = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA"
EXAMPLE_KEY = "ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ"
EXAMPLE_KID = "65b60673d6ed884bf01c2c222d82ada0"
EXAMPLE_STATEMENT = {"act": "confirm", "group": "g_3f9a1c2b7d10", "nonce": "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                     "hand": "h_5e6f7a8b9c0d",
                     "settlement": "7d5a3c1e9b2f4a6c8e0d1b3f5a7c9e2d4f6b8a0c1e3d5f7a9b2c4e6d8f0a1b3c"}
EXAMPLE_BYTES = ('bitka statement v1\\n{"act":"confirm","group":"g_3f9a1c2b7d10","hand":"h_5e6f7a8b9c0d",'
                 '"nonce":"0f1e2d3c4b5a69788796a5b4c3d2e1f0",'
                 '"settlement":"7d5a3c1e9b2f4a6c8e0d1b3f5a7c9e2d4f6b8a0c1e3d5f7a9b2c4e6d8f0a1b3c"}')
EXAMPLE_SIG = "rWwfrckNMbbJO7pQRRdREMfOPMaFBJ5kyYRoMxxJAkjgxI3nZ7nbz-U5Nc_YXk-dWpZyaq3vLmxLREeEpom0Bw"
EXAMPLE_HEADER = f"kid={EXAMPLE_KID}, nonce={EXAMPLE_STATEMENT['nonce']}, sig={EXAMPLE_SIG}"


def description() -> str:
    acts = "; ".join(f"`{act}` ({', '.join(fields)})" for act, fields in FIELDS.items())
    return (
        "\n\n## Members hold their own keys\n"
        "Each device makes its own Ed25519 key pair; the server never sees a private key. A public key is the "
        "base64url (no padding) of its 32 raw bytes; its `kid` is the first 32 hex digits of their SHA-256. A "
        "member's first device registers with `POST /v1/invitations/{code}` `{\"key\"}` or `POST "
        "/v1/groups/{g}/members/{m}/devices` `{\"key\"}` (the member's own token); a further device waits (202) "
        "until one of the member's devices approves it. From a member's first key on, what binds them is signed "
        "in the header `Bitka-Signature: kid=<kid>, nonce=<32 hex>, sig=<base64url of the 64-byte signature>` "
        "over the bytes `bitka statement v1`, a newline, then the canonical JSON (keys sorted, no spaces, UTF-8) "
        "of the statement `{\"act\", \"group\", \"nonce\", ...the act's fields}`. The acts and their fields: "
        f"{acts}. A refusal (403) carries `statement`: the one the service built from the request, to compare "
        "with what was signed. A nonce is used once per group. Members who never registered a key act as before "
        "(their acts read \"not signed (before keys)\").\n\n"
        "Worked example (never use this key): private key seed (base64url) "
        f"`{EXAMPLE_SEED}`, public key `{EXAMPLE_KEY}`, kid `{EXAMPLE_KID}`. Confirming hand `h_5e6f7a8b9c0d` "
        "whose settlement event has the hash `7d5a…1b3c`, the statement is "
        "`{\"act\": \"confirm\", \"group\": \"g_3f9a1c2b7d10\", \"nonce\": \"0f1e2d3c4b5a69788796a5b4c3d2e1f0\", "
        "\"hand\": \"h_5e6f7a8b9c0d\", \"settlement\": \"7d5a3c1e9b2f4a6c8e0d1b3f5a7c9e2d4f6b8a0c1e3d5f7a9b2c4e6d8f0a"
        f"1b3c\"}}`; the signed bytes are `{EXAMPLE_BYTES}`; the signature `{EXAMPLE_SIG}`; the header "
        f"`Bitka-Signature: {EXAMPLE_HEADER}`. From a shell: `bitka key new` and `bitka sign --group G confirm "
        "hand=H settlement=S`; from Python, `cryptography`'s `Ed25519PrivateKey.sign` over the same bytes."
    )
