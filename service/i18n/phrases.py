"""The log's sentences said again in the reader's language.

The rules write English sentences into the log and into their refusals (a settlement's
explanation, an event in words, why a card may not be played). The log keeps them as they
are: its hashes never depend on who reads it. Each sentence is one f-string of the rules
filled with codes and numbers; ``extract`` puts every such f-string in the catalog as a
template (context ``log``, or ``log:<game>`` for a game's own), and here a logged sentence is
matched against the templates, its values taken out, and the translated template filled
with them. A placeholder declared a number (``{points:d}``) reads only a number; any other
reads any words: what a placeholder is named never changes what it reads.

Whose words: where the game of a sentence is known (``game``: a hand's, a table's), and
that game and another package write the same English, the game's own translation is said;
where it is not known, the shared one, else any. Every game's and the shared templates are
tried all the same, in the same order (the most literal first), so that a game saying a
sentence another package writes (one game built on another's rules) still has it said. Values that are
sentences of the log themselves are said again too; a seat's number becomes its name on a
page ("seat {seat}" in a template is the seat, so a translation writes ``{seat}`` alone).
A sentence no template matches stays English.

Reading a sentence costs a bounded amount of work whatever it holds: what a member typed
(a reason, a name: projections/typed.py) is set aside before and put back after, never read
as the rules' words; each part of a sentence is read once (``_Reading`` remembers it); a
template is tried only on a sentence that begins and ends as it does and holds its words;
and past ``_WORK`` templates tried, or ``_LONGEST`` characters, the sentence stays English.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.numbers import get_decimal_symbol

from games.registry import GAMES
from projections.typed import restored, set_aside

from .extract import NUMBER, is_log, owner
from .languages import catalog
from .money import money

_FIELD = re.compile(r"\{(\w+)(?::(" + NUMBER + r"))?\}")  # "{points}" or "{points:d}" (a number)
_SEAT_IN_VALUE = re.compile(r"\bseat (\d+)(?: \(([^()]*)\))?")
_ONE_SEAT = re.compile(r"\bseat (\d+)(?: \(([^()]*)\))?")
_SEAT_LIST = re.compile(r"\bseat \d+(?: \([^()]*\))?(?:(?:, | and )seat \d+(?: \([^()]*\))?)+")
_SEATS_JOINED = re.compile(r"\bseats (\d+(?:\+\d+)+)")  # a side of pairs: "seats 0+2"
_SIDE_IN_VALUE = re.compile(r"\bside (\d+)\b")
_MONEY = re.compile(r"^(-?[0-9]+(?:\.[0-9]+)?) ([A-Z]{3}|points)$")  # "3.00 PLN", "12 points", as the log writes them
_DECIMAL = re.compile(r"(?<![\w.,])(-?[0-9]+)\.([0-9]+)(?![\w.]|,[0-9])")  # "0.50": a stake, an amount
_DEPTH = 3  # a value inside a value inside a sentence, and no deeper
_FIELD_PATH = re.compile(r"^([a-z_]+(?:\.[a-z_]+)*): (.+)$", re.DOTALL)  # "deal.dealer: ..."
_WORDS_ONLY = frozenset({"seat {seat}", "side {side}"})  # words that name, not sentences to match
_LONGEST = 1_000  # characters; the rules' sentences run to about 250 (what members typed set aside)
_WORK = 20_000  # templates tried to read one sentence, at most (the rules' longest needs about 2,000)

SeatWord = Callable[[int, str | None], str]
SideWord = Callable[[int], str]


@dataclass(frozen=True)
class Template:
    source: str
    said: str  # the translation, with the same fields
    pattern: re.Pattern
    seats: frozenset[str]
    sides: frozenset[str]
    words: tuple[str, ...]  # its text between the fields, in order: the first begins it, the last ends it

    def may_read(self, sentence: str) -> bool:
        """Whether ``sentence`` begins and ends as this template does and holds its words
        (what its pattern asks first, at the cost of a few searches)."""
        first, *inner, last = self.words
        if not sentence.startswith(first) or not (sentence.endswith(last) or sentence.endswith(last + "\n")):
            return False
        return all(word in sentence for word in inner)


def _fields(source: str) -> tuple[re.Pattern, frozenset[str], frozenset[str], tuple[str, ...]]:
    """The regular expression that reads a sentence made from ``source``, which of its
    fields name a seat ("seat {x}", "seats {x} and {y}") or a side ("side {x}"), and its
    text between the fields."""
    out, seats, sides, words, named = ["^"], set(), set(), [], set()
    position, previous_seat = 0, False
    text = source.replace("{{", "\0").replace("}}", "\1")
    for match in _FIELD.finditer(text):
        before = text[position:match.start()]
        words.append(before.replace("\0", "{").replace("\1", "}"))
        out.append(re.escape(words[-1]))
        name = match.group(1)
        if before.endswith(("seat ", "seats ")) or (previous_seat and before == " and "):
            seats.add(name)
            previous_seat = True
        else:
            previous_seat = False
        if before.endswith("side "):
            sides.add(name)
        if name in named:
            out.append(f"(?P={name})")  # the same value said again
        elif name in seats or name in sides or match.group(2) == NUMBER:
            out.append(f"(?P<{name}>-?[0-9]+)")  # a seat, a side, a number declared: a number, never words
        else:
            out.append(f"(?P<{name}>.*?)")  # a value may be empty (a clause left out)
        named.add(name)
        position = match.end()
    words.append(text[position:].replace("\0", "{").replace("\1", "}"))
    out.append(re.escape(words[-1]) + "$")
    return re.compile("".join(out), re.DOTALL), frozenset(seats), frozenset(sides), tuple(words)


@functools.lru_cache(maxsize=None)
def _messages(language: str) -> dict[str, dict[str | None, str]]:
    """The language's translated sentences of the log, in the catalog's order: for each
    English, its translation by the game whose own it is (None: the shared one)."""
    found: Catalog | None = catalog(language)
    out: dict[str, dict[str | None, str]] = {}
    for message in found or ():
        if is_log(message.context) and isinstance(message.id, str) and message.id and message.string \
                and not message.fuzzy:
            out.setdefault(message.id, {})[owner(message.context)] = message.string
    return out


def _whose(translations: dict[str | None, str], game: str | None) -> str:
    """Of one English's translations, the one ``game`` says: its own, else the shared one,
    else another game's (the first by name)."""
    for mine in (game, None):
        if mine in translations:
            return translations[mine]
    return translations[min(translations, key=str)]


@functools.lru_cache(maxsize=None)
def templates(language: str, game: str | None = None) -> tuple[tuple[Template, ...], dict[str, str]]:
    """A language's templates, the most specific first (most literal text), and its
    sentences without fields, by their English; each as ``game`` says it (``_whose``)."""
    with_fields, plain = [], {}
    for source, translations in _messages(language).items():
        if source in _WORDS_ONLY or _only_joins(source):
            continue
        said = _whose(translations, game)
        if not _FIELD.search(source):
            plain[source.replace("{{", "{").replace("}}", "}")] = said.replace("{{", "{").replace("}}", "}")
            continue
        with_fields.append(Template(source, said, *_fields(source)))
    with_fields.sort(key=lambda t: -len(_FIELD.sub("", t.source)))
    return tuple(with_fields), plain


@functools.lru_cache(maxsize=None)
def asides(language: str, game: str | None = None) -> tuple[tuple[re.Pattern, str], ...]:
    """The language's asides: messages that are a remark in brackets added to a value (" (a
    suit missing)", " (to {target})"), each as a pattern found anywhere in a sentence and
    its translation (as ``game`` says it); a value the templates cannot read still has them said."""
    out = []
    for source, translations in _messages(language).items():
        if not source.startswith(" (") or not source.endswith(")"):
            continue
        parts = _FIELD.split(source)  # text, name, spec, text...
        pattern = "".join(re.escape(p) if i % 3 == 0 else f"(?P<{p}>[^()]*?)" if i % 3 == 1 else ""
                          for i, p in enumerate(parts) if p is not None)
        out.append((re.compile(pattern), _whose(translations, game)))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _candidates(language: str, game: str | None, first: str, last: str) -> tuple[Template, ...]:
    """The templates, in their order, that may read a sentence beginning with ``first`` and
    ending with ``last`` (its first and last characters)."""
    found, _plain = templates(language, game)
    return tuple(t for t in found if t.words[0][:1] in ("", first)
                 and (last == "\n" or t.words[-1][-1:] in ("", last)))


def _only_joins(source: str) -> bool:
    """A template whose only words join its values ("{a} and {b}"): it would read any
    sentence with "and" in it, and say only that word again."""
    words = re.findall(r"[^\W\d_]+", _FIELD.sub(" ", source))
    return bool(_FIELD.search(source)) and all(w in ("and", "or", "then", "v") for w in words)


def word(english: str, language: str, game: str | None = None) -> str:
    """One of the log's words (``words.py``, a game's code as its players say it) in
    ``language``, as ``game`` says it (``_whose``); as it is where no catalog has it."""
    said = _messages(language).get(english)
    return _whose(said, game).replace("{{", "{").replace("}}", "}") if said else english


@functools.cache
def _codes() -> dict[str, tuple[str, str]]:
    """The games' codes of their logs (a role) as their players say them, with the game."""
    return {code: (game.name, said) for game in GAMES.values() for code, said in game.words.codes.items()}


def _seat_word(language: str) -> SeatWord:
    said = word("seat {seat}", language)

    def seat(n: int, name: str | None) -> str:
        base = said.replace("{seat}", str(n)) if "{seat}" in said else f"seat {n}"
        return f"{base} ({name})" if name else base
    return seat


def _side_word(language: str) -> SideWord:
    said = word("side {side}", language)
    return lambda n: said.replace("{side}", str(n)) if "{side}" in said else f"side {n}"


class _TooMuch(Exception):
    """A sentence that would take more reading than any sentence of the rules."""


@dataclass
class _Reading:
    """One sentence being read in a language: the words for seats and sides, each part of it
    read so far (by depth), and how many more templates may be tried."""
    language: str
    seat: SeatWord
    side: SideWord
    game: str | None = None  # whose sentence it is, where known
    known: dict[tuple[str, int], str | None] = field(default_factory=dict)
    work: int = _WORK

    def tried(self) -> None:
        self.work -= 1
        if self.work < 0:
            raise _TooMuch


def say(sentence: str, language: str, seat: SeatWord | None = None, side: SideWord | None = None,
        drawn: Callable[[str], str] = str, game: str | None = None) -> str:
    """``sentence`` of the log in ``language``; ``seat(n, name)`` and ``side(n)`` say a seat
    and a side (on a page: names), else the catalog's own words for them; ``drawn`` does
    what a page does to the rules' words (cards as faces); ``game``: the game whose hand or
    table the sentence is of, where known (its own translations said). What a member typed
    in it (marked, projections/typed.py) is shown as typed, none of that done to it."""
    found, plain = templates(language, game)
    shown, kept = set_aside(sentence)
    if not found and not plain:
        return restored(drawn(shown), kept)
    reading = _Reading(language, seat or _seat_word(language), side or _side_word(language), game)
    try:
        said = _said(reading, shown, 0) if len(shown) <= _LONGEST else _finished(reading, shown)
    except _TooMuch:
        said = _finished(reading, shown)
    return restored(drawn(said), kept)


def _said(reading: _Reading, sentence: str, depth: int) -> str:
    said = _matched(reading, sentence, depth)
    return _finished(reading, said if said is not None else sentence)


def _finished(reading: _Reading, said: str) -> str:
    """Seats left in English named too, asides said, and decimals written as the language
    writes them."""
    said = _named(said, reading.seat, reading.side, reading.language)
    if " (" in said:
        for pattern, translated in asides(reading.language, reading.game):
            said = pattern.sub(lambda m, t=translated: _filled(t, m.groupdict()), said)
    return _DECIMAL.sub(lambda m: m.group(1) + get_decimal_symbol(reading.language) + m.group(2), said)


def _matched(reading: _Reading, sentence: str, depth: int) -> str | None:
    """``sentence`` said by the catalog's message or template that reads it, or None (each
    part of a sentence read once)."""
    key = (sentence, depth)
    if key not in reading.known:
        reading.known[key] = _read(reading, sentence, depth)
    return reading.known[key]


def _read(reading: _Reading, sentence: str, depth: int) -> str | None:
    found, plain = templates(reading.language, reading.game)
    if sentence in plain:
        return plain[sentence]
    if depth > _DEPTH:
        return None
    # "X; then they draw: ...": a sentence and the clauses added to it, each said again (tried first,
    # so that a short template such as "{who} plays {card}" does not read the clauses as its value)
    for cut in _clause_ends(sentence) if depth <= 1 else ():
        first = _matched(reading, sentence[:cut], depth + 1)
        then = _matched(reading, sentence[cut:], depth + 1) if first is not None else None
        if then is not None:
            return first + then
    for template in _candidates(reading.language, reading.game, sentence[:1], sentence[-1:]):
        reading.tried()
        match = template.pattern.match(sentence) if template.may_read(sentence) else None
        if match is None:
            continue
        values = {}
        for name, value in match.groupdict().items():
            if name in template.seats and value.isdigit():
                values[name] = reading.seat(int(value), None)
            elif name in template.sides and value.isdigit():
                values[name] = reading.side(int(value))
            else:
                values[name] = _value(reading, value, depth)
        return _filled(template.said, values)
    noun, colon, said = sentence.partition(": ")
    if colon and noun in plain:  # "card points: 76 / 44": a field of a score sheet, named by a word of the log
        return f"{plain[noun]}: {_value(reading, said, depth)}"
    head, space, tail = sentence.partition(" ")
    if space and tail in plain:  # "{role} {outcome}": a role or a seat, then a sentence of the log
        return f"{_value(reading, head, depth)} {plain[tail]}"
    path = _FIELD_PATH.match(sentence)
    if path:  # "result: ...": a refusal of one field of a request, which keeps its API name
        said = _matched(reading, path.group(2), depth + 1)
        return None if said is None else f"{path.group(1)}: {said}"
    return None


def _clause_ends(sentence: str) -> list[int]:
    """Where a clause added to a sentence may start ("; ..."), the last one first."""
    return sorted((m.start() for m in re.finditer("; ", sentence)), reverse=True)


def _value(reading: _Reading, value: str, depth: int) -> str:
    """A value taken out of a sentence: an amount of money as the language writes it; a
    sentence of the log itself, or parts of one joined by "; " or ", ", said again; seats
    and sides in it named."""
    amount = _MONEY.match(value)
    if amount:
        return money(amount.group(1), amount.group(2), reading.language)
    if value in _codes():  # a code of a game's log (a role), as its players say it (in the language, a word)
        game, said = _codes()[value]
        return word(said, reading.language, reading.game or game)
    whole = _matched(reading, value, depth + 1)
    if whole is not None:
        return whole
    for joint in ("; ", ", "):
        if joint in value:
            parts = _bracketed(value.split(joint), joint)
            said = [_said(reading, p, depth + 1) for p in parts]
            if said != parts:
                return joint.join(said)
    return _named(value, reading.seat, reading.side, reading.language)


def _bracketed(parts: list[str], joint: str) -> list[str]:
    """Parts of a value split at ``joint`` joined again where the split fell inside brackets
    ("a contract (alone, silent)" is one part)."""
    out: list[str] = []
    for part in parts:
        if out and out[-1].count("(") > out[-1].count(")"):
            out[-1] += joint + part
        else:
            out.append(part)
    return out


def _named(text: str, seat: SeatWord, side: SideWord, language: str) -> str:
    """Seats and sides the log names in English ("seat 1 (Ala)", "seat 0 and seat 2") said
    in ``language``, a list of them as the language lists ("Ala i Cyd")."""
    def listed(m):
        seats = [seat(int(n), name or None) for n, name in _ONE_SEAT.findall(m.group(0))]
        return format_list(seats, locale=language)
    text = _SEAT_LIST.sub(listed, text)
    text = _SEATS_JOINED.sub(lambda m: format_list([seat(int(n), None) for n in m.group(1).split("+")],
                                                   locale=language), text)
    text = _SEAT_IN_VALUE.sub(lambda m: seat(int(m.group(1)), m.group(2)), text)
    return _SIDE_IN_VALUE.sub(lambda m: side(int(m.group(1))), text)


def _filled(said: str, values: dict[str, str]) -> str:
    text = said.replace("{{", "\0").replace("}}", "\1")
    text = _FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), text)
    return text.replace("\0", "{").replace("\1", "}")


def covered(sentence: str, language: str, game: str | None = None) -> bool:
    """Whether a message or a template of ``language`` reads ``sentence`` (within the work
    any sentence may take)."""
    shown, _kept = set_aside(sentence)
    reading = _Reading(language, _seat_word(language), _side_word(language), game)
    try:
        return len(shown) <= _LONGEST and _matched(reading, shown, 0) is not None
    except _TooMuch:
        return False


def on_page(sentence: str, language: str, seats: Sequence[str], sides: Sequence[Sequence[int]] = (),
            drawn: Callable[[str], str] = str, game: str | None = None) -> str:
    """A sentence of the log on a page: seats and sides by the players' names (a side of
    two as "Ala i Bob", as the language lists names), ``drawn`` and ``game`` as ``say``
    takes them."""
    def seat(n: int, name: str | None) -> str:
        return seats[n] if n < len(seats) else (name or _seat_word(language)(n, None))

    def side(n: int) -> str:
        if n >= len(sides):
            return _side_word(language)(n)
        return format_list([seats[s] for s in sides[n] if s < len(seats)], locale=language)
    return say(sentence, language, seat, side, drawn, game)


def trail(found: dict, language: str) -> dict:
    """A hand's audit trail with its words in ``language``: each event in words and the
    explanation (the events themselves, the settlement's included, stay as logged). What
    members typed, marked in a trail read with ``marked=True``, is shown as typed; the
    hand's game says its own words."""
    game = found.get("game")
    for event in found["events"]:
        event["summary"] = say(event["summary"], language, game=game)
        event["by"] = restored(*set_aside(event["by"]))
        if "signed" in event:
            event["signed"] = say(event["signed"], language, game=game)
    found["explanation"] = [say(line, language, game=game) for line in found["explanation"]]
    return found
