"""The pages for the people at the table (a Flask blueprint beside the API)."""
from __future__ import annotations


def blueprint():
    """The pages' blueprint with every page's routes on it."""
    from . import pages, sheet  # noqa: F401 - sheet adds the score sheet's routes to pages.bp
    return pages.bp
