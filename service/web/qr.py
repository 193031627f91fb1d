"""A QR code of a link, as inline SVG (segno: pure Python), for a phone to scan off another."""
from __future__ import annotations

import io

import segno


def svg(link: str, label: str) -> str:
    """The SVG of ``link``'s QR code, titled ``label`` for screen readers."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False, svgns=True,
                                     title=label, svgclass="qr", lineclass=None)
    return out.getvalue().decode("utf-8")
