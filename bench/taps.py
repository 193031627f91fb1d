"""Every tap and typed character a person makes on a page, counted.

``Counted(page, "Ala", tally)`` is a Playwright page through which nothing is done uncounted:
each action on it, or on any locator, element, frame, keyboard, mouse or touchscreen reached
from it, adds to ``tally`` under the device's name and the tally's current step before it
is carried out. What counts:

- a tap: ``click``, ``tap``, ``check``, ``uncheck``, ``set_checked``, ``drag_to``,
  ``set_input_files``, a mouse button pressed, and a page opened, reloaded or gone back
  (``goto``, ``reload``, ``go_back``, ``go_forward``: a link followed, a refresh); a double
  click is two;
- a list (``select_option``): two taps, as on a phone (open it, choose);
- typing: ``fill`` is a tap on the field and a character for each key it takes to change
  what the field holds into the text (backspaces over what differs, then the rest); ``clear``
  a tap and a backspace per character; ``type``, ``press_sequentially``, ``insert_text`` a
  character each; ``press`` (Enter, Tab...) a character.

Reading (``inner_text``, ``count``, ``url``...) and waiting (``wait_for``, ``expect``) count
nothing. ``expect`` wants Playwright's own locator: ``raw(locator)``.

    tally = Tally()
    tally.begin("Kop, score sheet")
    page = Counted(browser.new_page(), "Ala", tally)
    page.goto(link)                       # 1 tap
    page.locator("#points").fill("70")    # 1 tap, 2 typed
    tally.step.counts                     # {"Ala": Count(taps=2, typed=2, moves=0)}
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field

SELECT_TAPS = 2  # a list on a phone: a tap opens it, a tap chooses
TAPS = {"click": 1, "tap": 1, "check": 1, "uncheck": 1, "set_checked": 1, "dblclick": 2, "drag_to": 1,
        "drag_and_drop": 1, "set_input_files": 1, "select_option": SELECT_TAPS, "goto": 1, "reload": 1,
        "go_back": 1, "go_forward": 1, "down": 1}  # ``down``: a mouse button (a key's on a keyboard)
WRAPPED = {"Page", "Frame", "Locator", "FrameLocator", "ElementHandle", "Keyboard", "Mouse", "Touchscreen"}


@dataclass
class Count:
    taps: int = 0
    typed: int = 0
    moves: int = 0  # of the taps, those that only went from page to page (``Tally.moving``)

    def __add__(self, other: "Count") -> "Count":
        return Count(self.taps + other.taps, self.typed + other.typed, self.moves + other.moves)


@dataclass
class Step:
    name: str
    how: str = ""
    counts: dict[str, Count] = field(default_factory=dict)
    notes: list[tuple[str | None, str]] = field(default_factory=list)  # (device or None, what it said)


class Tally:
    """The counts by step (a row of the bench's table) and device, with what each did, in order."""

    def __init__(self, devices: tuple[str, ...] = ()):
        self.devices = list(devices)
        self.steps: list[Step] = []
        self.actions: list[tuple[str, str, str, int, int]] = []  # step, device, action, taps, typed
        self._moving = 0

    @contextmanager
    def moving(self):
        """Within it, taps count as moves too: links and reloads that only go from page to page."""
        self._moving += 1
        try:
            yield
        finally:
            self._moving -= 1

    def begin(self, name: str, how: str = "") -> Step:
        self.steps.append(Step(name, how))
        return self.steps[-1]

    @property
    def step(self) -> Step:
        if not self.steps:
            self.begin("")
        return self.steps[-1]

    def add(self, who: str, action: str, taps: int = 0, typed: int = 0) -> None:
        if who not in self.devices:
            self.devices.append(who)
        count = self.step.counts.setdefault(who, Count())
        count.taps += taps
        count.typed += typed
        count.moves += taps if self._moving else 0
        self.actions.append((self.step.name, who, action + (" (moving)" if self._moving else ""), taps, typed))

    def note(self, text: str, who: str | None = None) -> None:
        """A way the step took, or what slowed it (``who``'s, or the step's), said beside its row."""
        if (who, text) not in self.step.notes:
            self.step.notes.append((who, text))

    @staticmethod
    def said(step: Step) -> str:
        """A step's notes in a line: the step's own, then each device's, in the order first said."""
        own = [text for who, text in step.notes if who is None]
        by: dict[str, list[str]] = {}
        for who, text in step.notes:
            if who is not None:
                by.setdefault(who, []).append(text)
        return "; ".join([*own, *(f"{who}: {', '.join(texts)}" for who, texts in by.items())])

    def of(self, step: str, who: str) -> Count:
        return next((s.counts.get(who, Count()) for s in self.steps if s.name == step), Count())

    def total(self, step: Step, devices=None) -> Count:
        return sum((c for who, c in step.counts.items() if devices is None or who in devices), Count())


def keys_to_change(old: str, new: str) -> int:
    """Keys that turn a field's ``old`` text into ``new``: a backspace for each character after
    what they share at the start, then the rest of ``new``."""
    same = 0
    while same < min(len(old), len(new)) and old[same] == new[same]:
        same += 1
    return len(old) - same + len(new) - same


def raw(thing):
    """Playwright's own object behind a counted one (for ``expect``); anything else as it is."""
    return thing._inner if isinstance(thing, Counted) else thing


class Counted:
    """A Playwright object whose every action is counted for ``who`` (see the module)."""

    __slots__ = ("_inner", "_who", "_tally")

    def __init__(self, inner, who: str, tally: Tally):
        object.__setattr__(self, "_inner", inner)
        object.__setattr__(self, "_who", who)
        object.__setattr__(self, "_tally", tally)
        if who not in tally.devices:
            tally.devices.append(who)

    def __repr__(self) -> str:
        return f"Counted({self._who}: {self._inner!r})"

    def __setattr__(self, name, value):
        setattr(self._inner, name, value)

    def __getattr__(self, name: str):
        value = getattr(self._inner, name)
        kind = type(self._inner).__name__
        if name == "fill":
            return self._fill
        if name == "clear":
            return self._clear
        if name == "press" or (name == "down" and kind == "Keyboard"):
            return self._counting(value, name, typed=lambda *a, **k: 1)
        if name in ("type", "press_sequentially", "insert_text"):
            return self._counting(value, name, typed=lambda *a, **k: len(_text(a, k)))
        if name == "dispatch_event":
            return self._counting(value, name, taps=lambda *a, **k: int(_event(a, k) in ("click", "tap")))
        if name in TAPS and callable(value):
            if name == "click" and kind == "Mouse":
                return self._counting(value, name, taps=lambda *a, **k: k.get("click_count", 1))
            return self._counting(value, name, taps=lambda *a, **k: TAPS[name])
        if callable(value):
            def passed(*args, **kwargs):
                return self._wrap(value(*args, **kwargs))
            return passed
        return self._wrap(value)

    def _wrap(self, value):
        if isinstance(value, list):
            return [self._wrap(v) for v in value]
        if type(value).__name__ in WRAPPED and type(value).__module__.startswith("playwright."):
            return Counted(value, self._who, self._tally)
        return value

    def _counting(self, method, name: str, taps=lambda *a, **k: 0, typed=lambda *a, **k: 0):
        def counted(*args, **kwargs):
            self._tally.add(self._who, f"{name} {_what(self._inner, args)}".strip(), taps(*args, **kwargs),
                            typed(*args, **kwargs))
            return self._wrap(method(*args, **kwargs))
        return counted

    def _old_value(self, args) -> tuple[str, tuple]:
        """What the field holds now, and the arguments after its selector (a page's or frame's
        ``fill(selector, value)``, a locator's ``fill(value)``)."""
        if type(self._inner).__name__ in ("Page", "Frame"):
            return self._inner.input_value(args[0]), args[1:]
        return self._inner.input_value(), args

    def _fill(self, *args, **kwargs):
        old, rest = self._old_value(args)
        new = rest[0] if rest else kwargs.get("value", "")
        self._tally.add(self._who, f"fill {_what(self._inner, args)} {new!r}", 1, keys_to_change(old, new))
        return self._inner.fill(*args, **kwargs)

    def _clear(self, *args, **kwargs):
        old, _rest = self._old_value(args)
        self._tally.add(self._who, f"clear {_what(self._inner, args)}", 1, len(old))
        return self._inner.clear(*args, **kwargs)


def _text(args, kwargs) -> str:
    """The text of ``type``/``press_sequentially``/``insert_text``: the last positional string."""
    texts = [a for a in args if isinstance(a, str)]
    return kwargs.get("text", texts[-1] if texts else "")


def _event(args, kwargs) -> str:
    texts = [a for a in args if isinstance(a, str)]
    return kwargs.get("type", texts[-1] if texts else "")


def _what(inner, args) -> str:
    """What an action was done to, for the log: the locator, or the selector or address given."""
    kind = type(inner).__name__
    if kind in ("Locator", "FrameLocator"):
        found = re.search(r"selector='(.*)'>$", repr(inner))
        return (found.group(1) if found else repr(inner)).replace(" >> visible=true >> nth=0", "")[:120]
    return str(args[0])[:90] if args and isinstance(args[0], str) else ""
