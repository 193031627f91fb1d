"""Every page and log line of every game and preset, in each language, read as its reader
reads it: no English word left in a page that is not English, no card as its code where
the page shows faces, no rule's code where people say a word, no machine timestamp, numbers
written the language's way and counted by its plural rules.

The pages are those of a group that has played every preset (tests/api/every_page.py), as
the admin and as a seated member see them. "An English word" is a word of the same page
rendered in English that the translated page still says, unless the language says it too
(a word of its own catalog), it is a game's own term, or it is somebody's name.
"""
from __future__ import annotations

import html
import re

import pytest
from babel.numbers import get_currency_name, get_minus_sign_symbol

from events.money import MINOR_DIGITS
from games.registry import GAMES
from service.app import create_app
from service.i18n.languages import catalog, translations
from tests.api import every_page

LANGUAGES = ("pl", "it", "pt_BR")
WORD = re.compile(r"[^\W\d_]{3,}")
CARD_CODE = re.compile(r"(?<![\w-])(?:10|[2-9AJQKRT])[CDHS](?![\w-])")
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
POINT_DECIMAL = re.compile(r"(?<![\w.,])-?\d+\.\d{1,2}(?![\w.])")  # "122.00": English's decimal point
HASH = re.compile(r"\b[0-9a-f]{16,64}\b…?")
BLOCK = re.compile(r"</?(?:p|div|li|ul|ol|tr|td|th|h[1-6]|text|title|desc|dt|dd|section|label|option|button|legend|"
                   r"summary|details|table|thead|tbody|nav|header|footer|main|form|fieldset|br)\b[^>]*>")
READER_ATTRIBUTES = re.compile(r'\b(?:title|aria-label|alt|placeholder)="([^"]*)"')


def _text(page: str) -> str:
    """What a reader sees of a page: its text and the attributes a screen reader says, not
    its scripts, styles or hashes (hex, the same in every language)."""
    page = re.sub(r"<(script|style|kbd)\b[^>]*>.*?</\1>", " ", page, flags=re.S)  # kbd: what one types
    page = re.sub(r"<!--.*?-->", " ", page, flags=re.S)
    said = "\n".join(READER_ATTRIBUTES.findall(page))
    page = BLOCK.sub("\n", page)  # a block, a cell, a label of a chart: text of its own
    return HASH.sub(" ", html.unescape(re.sub(r"<[^>]+>", " ", page) + "\n" + said))


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


def _kept() -> frozenset[str]:
    """Words every language may say as they are: the games' titles, terms and codes' words,
    the presets' titles, the members' names, and bitka's own."""
    kept = {"bitka", "noc", "kart", "admin", "hash", "utc", "pln", "sha", "json", "ed25519", "merkle", "api"}
    kept |= {"english", "polski", "italiano", "português", "brasil"}  # each language by its own name
    kept |= _words(" ".join(every_page.MEMBERS) + " " + " ".join(every_page.TYPED))  # shown as typed
    kept.add("werkzeug")  # the test's browser, as the devices page names it
    kept |= {code.lower() for code in MINOR_DIGITS}  # a currency's ISO code, the same in every language
    for game in GAMES.values():
        kept |= _words(game.title) | _words(" ".join(p.title for p in game.words.presets))
        for term in game.words.glossary:
            kept |= _words(term.word)
        kept |= _words(" ".join(game.words.codes.values()))
    return frozenset(kept)


def _own_words(language: str) -> frozenset[str]:
    """The words the language's catalog itself uses: a word of these said on its page is its own."""
    said = set()
    for message in catalog(language):
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        for string in strings:
            said |= _words(re.sub(r"%\(\w+\)[sd]|\{\w+\}", " ", string or ""))
    said |= _words(" ".join(get_currency_name(code, locale=language) for code in MINOR_DIGITS))
    return frozenset(said)


def _rule_codes() -> frozenset[str]:
    """The codes of the games' rules and logs that people say otherwise ("bytow-2005",
    "bez-wyjscia", "as-dycha"): never on a page as they are."""
    codes = {code for game in GAMES.values() for code, said in game.words.codes.items() if code != said}
    for game in GAMES.values():
        for rule in game.forms.rule_fields:
            codes |= {str(o) for o in rule.options if isinstance(o, str) and re.search(r"[-\d]", o)}
    return frozenset(codes)


def _plural_forms(language: str) -> list[tuple[re.Pattern, int, int]]:
    """Each form of each plural message of the language as a pattern over a page's text
    (the count taken out, the other values anything), with its form's index and how many
    forms the message has: a page that says one form with a count the language puts in
    another ("0 rozdania") says it wrong. A count of none is said in words ("no hand yet"):
    CLDR puts 0 in Portuguese's singular, and "0 mão" reads wrong to its readers."""
    found = []
    for message in catalog(language):
        if not isinstance(message.id, (list, tuple)) or not isinstance(message.string, (list, tuple)):
            continue
        strings = list(message.string)
        for index, string in enumerate(strings):
            if not string or "%(num)d" not in string or strings.count(string) > 1:
                continue
            parts = re.split(r"(%\(num\)d|%\(\w+\)[sd])", string)
            pattern = "".join(r"(\d+)" if p == "%(num)d" else r"\S.*?" if p.startswith("%(") else
                              re.escape(p).replace(r"\ ", "[ \xa0]+") for p in parts)
            found.append((re.compile(rf"(?<![\w.,]){pattern}(?![\w])"), index, len(strings)))
    return found


def _wrong_plurals(text: str, language: str, forms) -> list[str]:
    plural = translations(language).plural
    text = re.sub(r"[ \t\xa0]+", " ", text)
    return sorted({m.group(0) for pattern, index, _n in forms for m in pattern.finditer(text)
                   if plural(int(m.group(1))) != index or int(m.group(1)) == 0})


@pytest.fixture(scope="module")
def every_page_read(tmp_path_factory):
    """Each page's text, by language, by (who, page): the English first."""
    where = tmp_path_factory.mktemp("every-page")
    app = create_app({"BITKA_DB": str(where / "bitka.db"), "BITKA_KEY": str(where / "bitka.key"), "TESTING": True})
    group = every_page.played(app)
    read: dict[str, dict[tuple[str, str], str]] = {}
    for language in ("en", *LANGUAGES):
        read[language] = {}
        for who, browser in group["browsers"].items():
            assert browser.http.get(f"/language/{language}?next=/").status_code == 302
            for name, path in group["pages"].items():
                answer = browser.http.get(path, headers=every_page.BROWSER)
                expected = 404 if name == "not found" else 403 if who == "member" and _admins(name) else 200
                assert answer.status_code == expected, (language, who, name, answer.status_code)
                body = answer.get_data(as_text=True)
                read[language][(who, name)] = _text(body)
    yield read
    app.extensions["bitka.store"].close()


def _by_finding(found: dict) -> dict[str, list[str]]:
    """What was found, each with the pages it is on (a failure that reads in a few lines)."""
    pages: dict[str, set[str]] = {}
    for (who, name), items in found.items():
        for item in items:
            pages.setdefault(item, set()).add(f"{who}: {name}")
    return {item: sorted(where)[:4] + ([f"and {len(where) - 4} more"] if len(where) > 4 else [])
            for item, where in sorted(pages.items())}


def _admins(page: str) -> bool:
    return page.endswith(("correct", "members", "new table", "new tournament"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_word_is_left_on_a_page(every_page_read, language):
    kept, own = _kept(), _own_words(language)
    left = {}
    for key, text in every_page_read[language].items():
        english = _words(every_page_read["en"][key])
        said = _words(text)
        found = sorted((english & said) - kept - own)
        if found:
            left[key] = found
    assert not left, f"English words on the {language} pages: {_by_finding(left)}"


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
def test_cards_are_faces_and_rules_are_words_and_times_are_the_readers(every_page_read, language):
    codes = _rule_codes()
    raw = {}
    for key, text in every_page_read[language].items():
        found = CARD_CODE.findall(text) + TIMESTAMP.findall(text)
        found += [w for w in re.findall(r"[\w-]+", text) if w in codes]
        if language != "en":
            found += POINT_DECIMAL.findall(text)
        found += [m for m in re.findall(r"[−-]\S*\d", text) if m[0] != get_minus_sign_symbol(language)
                  and re.match(r"[−-]\D{0,4}\d", m)]  # a minus the language does not write
        if found:
            raw[key] = sorted({CARD_CODE.sub("<card>", f) for f in found})
    assert not raw, f"codes, machine times or English decimals on the {language} pages: {_by_finding(raw)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_counts_take_the_plural_form_the_language_gives_them(every_page_read, language):
    forms = _plural_forms(language)
    wrong = {key: _wrong_plurals(text, language, forms) for key, text in every_page_read[language].items()}
    wrong = {key: found for key, found in wrong.items() if found}
    assert not wrong, f"counts in the wrong plural form on the {language} pages: {_by_finding(wrong)}"
