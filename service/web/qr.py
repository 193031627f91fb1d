"""A QR code of a link, as inline SVG (segno: pure Python), for a phone to scan off another."""
from __future__ import annotations

import io

import segno


def svg(link: str, label: str) -> str:
    """The SVG of ``link``'s QR code, titled ``label`` for screen readers, with a viewBox and
    no fixed size: the page scales it whole to the width it gives it."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False, svgns=True,
                                     title=label, svgclass="qr", lineclass=None, omitsize=True)
    return out.getvalue().decode("utf-8")
