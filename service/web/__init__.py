"""The pages for the people at the table (a Flask blueprint beside the API).

Every page module puts its routes on base.bp as it is imported: importing them here is
what puts every page on the blueprint.
"""
from __future__ import annotations

from . import (  # noqa: F401 - each adds its routes (or its template globals) to base.bp
    admin, card_by_card, devices, evening, glossary, group, hands, keys_pages, language, pay_to, phone, script_words,
    next_hand, sheet, signin, start, table_shown, tournament_paper, tournaments, waiting, watch, witness,
)
from . import hall, offline  # noqa: F401 - the hall's address as a QR code; bitka installed on a phone
from .base import bp


def blueprint():
    """The pages' blueprint with every page's routes on it."""
    return bp
