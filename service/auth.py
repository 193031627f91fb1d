"""Bearer tokens: minted once, stored only as SHA-256 hashes, resolved to a principal."""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from events.errors import DomainError, Refused

ADMIN = "admin"


class Unauthenticated(DomainError):
    """No token, or one this service does not know (401)."""


@dataclass(frozen=True)
class Principal:
    group: str
    subject: str  # "admin" or a member id

    @property
    def is_admin(self) -> bool:
        return self.subject == ADMIN


def mint_token() -> tuple[str, str]:
    """A new token and the hash that is all the store ever keeps of it."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bearer(header: str | None) -> str:
    if not header:
        raise Unauthenticated("this request needs an Authorization: Bearer <token> header")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("the Authorization header must be 'Bearer <token>'")
    return token.strip()


def resolve(reader, header: str | None) -> Principal:
    """The principal a token stands for; 401 when it is missing or unknown."""
    # The store is searched by the token's SHA-256, never by the token, so how long the index
    # lookup takes tells nothing about how close a guess came; the final comparison of the
    # digests is constant-time as well.
    presented = token_hash(bearer(header))
    found = reader.credential(presented)
    if found is None or not hmac.compare_digest(found[2], presented):
        raise Unauthenticated("the token is not known to this service")
    return Principal(found[0], found[1])


def check_setup_token(header: str | None, expected: str | None) -> None:
    """When the deployment sets a setup token, creating a group needs it; otherwise anyone may."""
    if not expected:
        return
    scheme, _, given = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(token_hash(given.strip()), token_hash(expected)):
        raise Unauthenticated("creating a group on this server needs its setup token, "
                           "sent as 'Authorization: Bearer <setup token>'")


def require(principal: Principal, group: str, admin: bool = False) -> None:
    if principal.group != group:
        raise Refused("this token belongs to another group")
    if admin and not principal.is_admin:
        raise Refused("only the group's admin token may do this")
