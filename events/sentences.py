"""The log's sentences: English, as the rules and the ledger write them into events and
refusals, and said again in the reader's language on the way out (service/i18n/phrases.py).

``say(template, **values)`` is how every such sentence is written. The template is the
catalog message (context ``log``) and its placeholders are the names the author gives
here, so a sentence's translations depend on its words alone: renaming a variable, or
computing a value another way, changes no catalog. Only ``say``'s first argument is sent
to translators (service/i18n/extract.py); a string that is not said (a code, a field's
documentation for the English OpenAPI document) is not.
"""
from __future__ import annotations


def heard(template: str) -> str:
    """A template the log's sentences take as a value (a score sheet's category, a field of
    a result), marked for the translators as it is: ``phrases`` says it where it is found."""
    return template


def say(template: str, /, **values: object) -> str:
    """The sentence: ``template`` with each ``{name}`` filled with ``values[name]``."""
    return template.format(**values) if values else template.replace("{{", "{").replace("}}", "}")
