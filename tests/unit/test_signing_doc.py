"""The worked example in the OpenAPI document is the signature the service checks: made with
`cryptography` from the example's seed, and verified by events/acts.py."""
from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import acts
from service import signing_doc as doc


def test_the_documented_example_signs_and_verifies_as_the_service_checks_it():
    private = Ed25519PrivateKey.from_private_bytes(acts.unb64url(doc.EXAMPLE_SEED, 32, "seed"))
    public = acts.b64url(private.public_key().public_bytes_raw())
    assert public == doc.EXAMPLE_KEY and acts.kid_of(public) == doc.EXAMPLE_KID
    said = doc.EXAMPLE_STATEMENT
    assert acts.message(said).decode().replace("\n", "\\n") == doc.EXAMPLE_BYTES  # shown with \n for the newline
    assert acts.b64url(private.sign(acts.message(said))) == doc.EXAMPLE_SIG
    assert acts.holds(doc.EXAMPLE_KEY, said, doc.EXAMPLE_SIG)
    assert not acts.holds(doc.EXAMPLE_KEY, {**said, "hand": "h_other"}, doc.EXAMPLE_SIG)
    parsed = acts.parse_header(doc.EXAMPLE_HEADER)
    assert (parsed.kid, parsed.nonce, parsed.sig) == (doc.EXAMPLE_KID, said["nonce"], doc.EXAMPLE_SIG)
    text = doc.description()
    assert doc.EXAMPLE_HEADER in text and all(f"`{act}`" in text for act in acts.FIELDS)
