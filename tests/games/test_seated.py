"""``Game.seated``, over every registered game: a rule a table's rules say keeps what they
say at a table of any number of seats; only a rule they leave unsaid is the seats' to decide
(Kop's ``players`` at a table of five)."""
from __future__ import annotations


from games.engine.errors import RuleViolation
from games.registry import GAMES

SEATS = range(2, 7)  # every number of seats a game here is played by


def test_a_rule_said_is_kept_whatever_the_number_of_seats():
    changed = []
    for game in GAMES.values():
        for field in game.forms.rule_fields:
            for value in field.options:
                raw = {**game.words.presets[0].rules, field.name: value}
                try:
                    rules = game.parse_rules(raw)
                except RuleViolation:  # a value the first preset's rules do not take with it
                    continue
                for seats in SEATS:
                    fitted = game.seated(raw, seats)
                    if fitted is not None and getattr(fitted, field.name) != getattr(rules, field.name):
                        changed.append(f"{game.name}: {field.name} {value!r} said, seated at {seats}: "
                                       f"{getattr(fitted, field.name)!r}")
    assert not changed, "\n".join(changed)
