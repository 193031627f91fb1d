"""The pages for the people at the table (a Flask blueprint beside the API)."""
from __future__ import annotations


def blueprint():
    """The pages' blueprint with every page's routes on it."""
    from . import admin, devices, evening, glossary, language, pages, phone, script_words, sheet, start, witness  # noqa: F401 - each adds its routes to pages.bp
    return pages.bp
