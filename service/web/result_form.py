"""A hand's result as a form sends it, read back into the API's result object: the game's
own fields for a table (``Game.forms.result_fields``), each read by its kind. The score sheet
(sheet.py) and the admin's correction of a hand from its page (admin.py) both read it.

``sheet_of`` is how the page draws those fields: each with the answer of the sheet's first
choice (the contract) it hangs on, so that the page's script (static/sheet.js) shows only the
fields that answer asks, each in that answer's words; ``offers_of`` gives, after a refusal,
the values near a typed number that the game says could have happened, and ``take`` reads
the one tapped."""
from __future__ import annotations

from games.engine.possible import nearest
from projections.hands import game_of, parsed_rules
from ..i18n import phrases
from ..i18n.languages import current
from .base import whole
from .cards import faces
from .words import page_game


def result_fields(trow: dict):
    """The fields of a table's score sheet, as its game and rules give them."""
    return game_of(trow["game"]).forms.result_fields(parsed_rules(trow["game"], trow["rules"]))


def first(values: dict, name: str) -> str:
    return (values.get(name) or [""])[0]


def doubles_of(values: dict) -> list[int]:
    """The doubles the form carries: the seats that gave them, in order."""
    return [whole("doubles", s) for s in first(values, "doubles").split()]


def _sides(values: dict, prefix: str) -> list[int]:
    """The sides a form's fields name (``points0``, ``points1``...), in order."""
    named = {k[len(prefix):] for k in values if k.startswith(prefix)}
    return sorted(int(n) for n in named if n.isascii() and n.isdigit() and len(n) < 3)


def result_body(fields, values: dict) -> dict:
    """The form's strings as the API's result object: each field of the game's sheet that
    applies, read by its kind; a number that is not one is the API's 400, anything else the
    game's own 400 or 422."""
    result: dict = {}
    for field in fields:
        shown = {**{f.name: first(values, f.name) for f in fields}, **result}
        if field.when is not None and not field.when(shown):
            continue
        text = first(values, field.name)
        match field.kind:
            case "choice":
                if text:
                    result[field.name] = text
            case "seat" | "number":
                if text:
                    result[field.name] = whole(field.name, text)
            case "seats":
                result[field.name] = [whole(field.name, s) for s in values.get(field.name, []) if s]
            case "doubles":
                result[field.name] = doubles_of(values)
            case "side":  # left unchosen: left out, so the game says it is missing (never read as a tie)
                if text:
                    result[field.name] = None if text == "tie" else whole(field.name, text)
            case "per-side":
                result[field.name] = [whole(field.name, first(values, f"{field.name}{i}") or field.default)
                                      for i in _sides(values, field.name)]
    return result


def result_values(fields, result: dict | None) -> dict[str, list[str]]:
    """A result the log holds, as the form's fields would send it (what ``result_body``
    reads back): the correction's form starts from the hand's result as it stands."""
    values: dict[str, list[str]] = {}
    for field in fields:
        if not result or field.name not in result:
            continue
        given = result[field.name]
        match field.kind:
            case "seats":
                values[field.name] = [str(s) for s in given or []]
            case "doubles":
                values[field.name] = [" ".join(str(s) for s in given or [])]
            case "side":
                values[field.name] = ["tie" if given is None else str(given)]
            case "per-side":
                values.update({f"{field.name}{i}": [str(n)] for i, n in enumerate(given or [])})
            case _:
                if given is not None:
                    values[field.name] = [str(given)]
    return values


def sheet_of(fields, values: dict, offers: dict[str, list[int]] | None = None) -> list[dict]:
    """Each field as the page draws it: the field; ``by``, the sheet's first choice (the
    contract) when the field hangs on it; ``applies``, the answers of that choice that ask the
    field (None: every one); ``labels``, its question for each answer, in the reader's words;
    ``offers``, the values offered for it after a refusal."""
    deciding = next((f for f in fields if f.kind == "choice" and f.options), None)
    shown = {f.name: first(values, f.name) or f.default for f in fields}
    drawn = []
    for field in fields:
        entry = {"field": field, "by": None, "applies": None, "labels": None,
                 "offers": (offers or {}).get(field.name, [])}
        if deciding is not None and field is not deciding and (field.when or field.asked):
            answers = {value: {**shown, deciding.name: value} for value, _words in deciding.options}
            entry["by"] = deciding.name
            if field.when is not None:
                entry["applies"] = [value for value, asked in answers.items() if field.when(asked)]
            if field.asked is not None:
                entry["labels"] = {value: phrases.say(field.asked(asked), current(), drawn=faces, game=page_game())
                                   for value, asked in answers.items()}
        drawn.append(entry)
    return drawn


def offers_of(fields, values: dict, count: int = 4) -> dict[str, list[int]]:
    """After a refusal: for each number typed that the game says cannot be, with the other
    answers as they stand, the ``count`` values nearest it that can."""
    shown = {f.name: first(values, f.name) for f in fields}
    offers = {}
    for field in fields:
        if field.kind != "number" or field.plausible is None or (field.when is not None and not field.when(shown)):
            continue
        text = shown[field.name]
        if not (text.isascii() and text.isdigit()) or len(text) > 6:
            continue
        possible = field.plausible(shown)
        if possible and int(text) not in possible:
            offers[field.name] = nearest(int(text), possible, count)
    return offers


def take(fields, values: dict, tapped: str) -> None:
    """One of the values offered after a refusal, tapped (``points:74``): it stands in for the
    number typed, and every other answer stays as it was."""
    name, _colon, value = tapped.partition(":")
    if any(f.name == name and f.kind == "number" for f in fields):
        values[name] = [str(whole(name, value))]
