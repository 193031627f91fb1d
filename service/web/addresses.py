"""Where a page may send a browser next: a path of this site, never another site's address.

Browsers read much more as another site than ``//host``: a tab or a newline inside is
dropped (``/\\t/evil.example`` is ``//evil.example``), a backslash is a slash
(``/\\evil.example``), and a header may not hold a newline at all. So a path is taken only
as RFC 3986 writes one, in ASCII: a single ``/`` first, then the characters of a path and
a query (percent-escapes stay escaped, so ``/%2F/x`` is a path here); anything else is ``/``.

Example::

    >>> same_site("/g/g_1?choose=1"), same_site("/\\t/evil.example"), same_site("/\\\\evil.example")
    ('/g/g_1?choose=1', '/', '/')
"""
from __future__ import annotations

import re

_PATH = re.compile(r"/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*")
_LONGEST = 2_000


def same_site(target: str | None) -> str:
    """``target`` if it is a path of this site, else ``/``."""
    if target and len(target) <= _LONGEST and _PATH.fullmatch(target):
        return target
    return "/"
