"""A device key for a script, and its signature on a statement (API.md "Members hold their own
keys"): what a member who drives bitka from a shell or a program uses instead of a phone.

``bitka key new`` makes an Ed25519 key pair and keeps the private half in a file only its owner
reads; ``bitka key show`` prints the public key and kid to register; ``bitka sign`` signs a
statement (given whole, as a 403 answer gives it, or as an act and its fields) and prints the
``Bitka-Signature`` header's value. Nothing here talks to a server or reads a store.
"""
from __future__ import annotations

import json
import os
import secrets
import sys
from pathlib import Path

import click
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from events import acts

DEFAULT_KEY = "bitka-device.key"


@click.group("key")
def key() -> None:
    """A device key of your own, for a script (a phone makes its own in the browser)."""


@key.command("new")
@click.option("--out", default=DEFAULT_KEY, show_default=True, type=click.Path(dir_okay=False),
              help="Where to keep the private key (readable by you alone).")
@click.option("--force", is_flag=True, help="Replace a key file that exists (its key is lost).")
def new_key(out, force):
    """Make a new Ed25519 key pair: the private key goes to --out (mode 0600) and never leaves
    it; the public key and its kid are printed, to register with

    \b
      POST /v1/invitations/{code} {"key": "<public key>"}   (an invitation)
      POST /v1/groups/{g}/members/{m}/devices {"key": ...}  (your own token)

    \b
    Examples:
      bitka key new
      bitka key new --out ~/.bitka/ala.key
    """
    path = Path(out).expanduser()
    if path.exists() and not force:
        raise click.UsageError(f"{path} exists: its key would be lost (use --force to replace it)")
    private = Ed25519PrivateKey.generate()
    seed = private.private_bytes_raw()
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(acts.b64url(seed) + "\n")
    os.chmod(path, 0o600)
    _show(private, f"a new key in {path} (keep it: whoever holds it signs as you)")


@key.command("show")
@click.option("--key", "key_file", default=DEFAULT_KEY, show_default=True, type=click.Path(dir_okay=False))
def show_key(key_file):
    """Print a key file's public key and kid.

    \b
    Example:
      bitka key show --key ~/.bitka/ala.key
    """
    _show(_load(key_file), str(key_file))


@click.command("sign")
@click.option("--key", "key_file", default=DEFAULT_KEY, show_default=True, type=click.Path(dir_okay=False),
              help="The private key file (bitka key new).")
@click.option("--group", help="The group (with an act and its fields).")
@click.option("--statement", "whole", help="A whole statement as JSON ('-': read it from standard input), such as "
                                           "the `statement` of a 403 answer; a null nonce is filled in.")
@click.option("--json", "as_json", is_flag=True, help="Print {kid, nonce, sig, statement} as JSON.")
@click.argument("act", required=False)
@click.argument("fields", nargs=-1)
def sign(key_file, group, whole, as_json, act, fields):
    """Sign a statement with your device key and print the Bitka-Signature header's value.
    Give the statement whole (--statement), or an act, --group and each field as NAME=VALUE
    (seat, dealer, round, cards, capture and result as JSON; null as null; the rest as text).

    \b
    Examples:
      bitka sign --group $GID confirm hand=$H settlement=$S
      curl ... -H "Bitka-Signature: $(bitka sign --group $GID confirm hand=$H settlement=$S)"
      bitka sign --statement "$STATEMENT"    (a 403 answer's statement, as JSON)
    """
    private = _load(key_file)
    said = _statement(whole, group, act, fields)
    said["nonce"] = said.get("nonce") or secrets.token_hex(16)
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    kid = acts.kid_of(acts.b64url(public))
    sig = acts.b64url(private.sign(acts.message(said)))
    if as_json:
        click.echo(json.dumps({"kid": kid, "nonce": said["nonce"], "sig": sig, "statement": said},
                              ensure_ascii=False))
    else:
        click.echo(f"kid={kid}, nonce={said['nonce']}, sig={sig}")


def _statement(whole: str | None, group: str | None, act: str | None, fields) -> dict:
    if whole is not None:
        if act or fields or group:
            raise click.UsageError("give the statement whole (--statement) or as an act and its fields, not both")
        text = sys.stdin.read() if whole == "-" else whole
        try:
            said = json.loads(text)
        except ValueError as e:
            raise click.UsageError(f"--statement is not JSON: {e}") from None
        if not isinstance(said, dict) or said.get("act") not in acts.FIELDS or not isinstance(said.get("group"), str):
            raise click.UsageError("--statement must be an object with an act bitka knows and a group")
        expected = {"act", "group", "nonce", *acts.FIELDS[said["act"]]}
        if set(said) != expected:
            raise click.UsageError(f"a {said['act']} statement has exactly {', '.join(sorted(expected))}")
        return said
    if act not in acts.FIELDS or not group:
        raise click.UsageError(f"name --group and an act: one of {', '.join(acts.FIELDS)}")
    given = {}
    for item in fields:
        name, eq, value = item.partition("=")
        if not eq or name not in acts.FIELDS[act]:
            raise click.UsageError(f"{item!r}: a {act} statement's fields are {', '.join(acts.FIELDS[act])} "
                                   "(as NAME=VALUE)")
        given[name] = _value(name, value)
    missing = [f for f in acts.FIELDS[act] if f not in given]
    if missing:
        raise click.UsageError(f"a {act} statement also needs {', '.join(missing)} (null where none)")
    return acts.statement(act, group, None, given)


JSON_FIELDS = frozenset({"seat", "dealer", "round", "cards", "capture", "result"})  # the rest are text


def _value(name: str, text: str):
    """A field's value as typed: JSON for numbers, lists and objects (seat=1, cards='["QD"]'),
    null for null, text for the rest (ids, hashes, amounts: 1e5 stays the text it is)."""
    if text == "null":
        return None
    if name not in JSON_FIELDS:
        return text
    try:
        return json.loads(text)
    except ValueError:
        raise click.UsageError(f"{name}={text}: {name} is JSON (a number, a list or an object)") from None


def _load(key_file) -> Ed25519PrivateKey:
    path = Path(key_file).expanduser()
    try:
        text = path.read_text().strip()
        return Ed25519PrivateKey.from_private_bytes(acts.unb64url(text, 32, "the key file"))
    except FileNotFoundError:
        raise click.UsageError(f"no key file at {path}: make one with `bitka key new --out {path}`") from None
    except (OSError, UnicodeDecodeError, acts.BadSignature) as e:
        raise click.UsageError(f"{path} is not a bitka key file ({e})") from None


def _show(private: Ed25519PrivateKey, where: str) -> None:
    public = acts.b64url(private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))
    click.echo(f"{where}\npublic key: {public}\nkid: {acts.kid_of(public)}")
