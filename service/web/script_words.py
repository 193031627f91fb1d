"""What the pages' scripts say (the witness, the verify button, the taps a phone keeps while
the network is down, the screen kept awake), in the reader's language: the page carries them
as JSON (``base.html``), ``static/words.js`` fills their values. A sentence said of a number
("2 not sent yet") is carried in each of the language's plural categories (CLDR's: one, few,
many, other), each the catalog's form for a number of that category; the script picks the one
``Intl.PluralRules`` names for its number."""
from __future__ import annotations

from typing import Callable

from babel import Locale
from flask_babel import lazy_gettext as _l, ngettext

from ..i18n.languages import current
from .base import bp

# The placeholders of the plural sentences, kept as they are for the script to fill.
KEPT = {name: f"%({name})s" for name in ("count", "name", "group")}
# Numbers enough to meet every plural category of the four languages (Italian's "many" is a million's).
EXAMPLES = (*range(200), 1_000_000)

SAID = {
    "rewritten": _l("The group's history was rewritten since this phone's last visit."),
    # Translators: %(why)s is one of the sentences below saying what does not hold
    "keep": _l("%(why)s Keep both checkpoints as evidence: the one this phone saw last, and the one the server "
               "shows now."),
    "unsigned": _l("The server's checkpoint is not signed by the key it shows."),
    "other_key": _l("The server signs with another key than at this phone's last visit."),
    "shorter": _l("The log's size was %(before)s at this phone's last visit and is %(after)s now."),
    "not_extended": _l("What the log held at this phone's last visit (%(before)s in all) is not what it holds now."),
    # The quiet line at the foot of every page once the phone checked the log (no log size: the page moves on).
    "log_checked": _l("This phone checked the group's log: nothing was rewritten since its last visit."),
    "log_checked_money": _l("This phone checked the group's log: nothing was rewritten since its last visit, and the "
                            "balances shown are what its events give."),
    "balances_differ": _l("This page shows %(shown)s for %(name)s, but the events of the group's log give "
                          "%(folded)s."),
    "damaged": _l("The server says its store of the group's log is damaged at event %(seq)s: what it shows cannot "
                  "be checked."),
    "gap": _l("the server skipped events: event %(seq)s came where event %(expected)s was due"),
    "sealed_wrongly": _l("event %(seq)s came sealed, but only the cards of a hand in play are ever sealed"),
    "not_checked": _l("This phone could not check the group's log on this visit (%(why)s): it checks again on "
                      "the next one."),
    "offline": _l("the server did not answer"),
    "no_ed25519": _l("this browser cannot check the server's Ed25519 signature"),
    "too_long": _l("the log is too long to check on one visit"),
    "malformed": _l("the server's answer at event %(seq)s is not a log bitka writes"),
    "malformed_amount": _l("%(amount)s is not an amount bitka writes"),
    "checking": _l("Checking…"),
    "moved_meanwhile": _l("The table moved on meanwhile: it shows here as soon as you finish or close what you "
                          "started."),
    "not_verified": _l("Not verified: %(why)s."),
    # Translators: %(signer)s is the sentence "the server's key ... signed that log at ..."
    "verified": _l("Verified in this browser: every event of this hand (%(events)s in all) hashes to what the page "
                   "shows and is in the group's signed log (%(size)s in all), and %(signer)s"),
    "verified_sealed": _l("Verified in this browser: every open event of this hand (%(open)s) hashes to what the page "
                          "shows, every one of its events (%(events)s) is in the group's signed log (%(size)s in all), "
                          "and %(signer)s Sealed while the hand is in play: %(sealed)s of its events. Their place in "
                          "the signed log is proved; their content can be checked once the hand ends."),
    "signer": _l("the server's key %(key)s signed that log at %(when)s."),
    "answered": _l("the server answered %(status)s"),
    "not_this_group": _l("the checkpoint is not this group's"),
    "other_key_served": _l("the checkpoint names another key than the one served"),
    "bad_signature": _l("the server's signature on the checkpoint does not hold"),
    "no_link": _l("event %(seq)s does not link to event %(before)s"),
    "other_hash": _l("the page shows another hash for event %(seq)s than the log holds"),
    "bad_hash": _l("event %(seq)s does not hash to its hash"),
    "not_in_log": _l("event %(seq)s is not in the signed log"),
    # The witness and the verify button where the browser computes no hashes (plain HTTP, not the machine itself).
    "no_crypto": _l("This phone does not check the group's log at this address: its browser computes hashes only "
                    "over HTTPS, or on the machine that serves bitka."),
    "no_crypto_why": _l("this browser computes hashes only over HTTPS, or on the machine that serves bitka"),
    # A member's signature on a form that binds them (static/sign.js).
    "no_key_here": _l("Nothing was sent: this needs your signature, and this phone holds no key of yours. Do it on "
                      "the phone you joined with, or add this phone on the page of your devices."),
    "key_not_current": _l("Nothing was sent: this phone's key is not one of your current keys (waiting for your "
                          "approval, or stopped by a reset). Approve it from your other phone, or ask the admin for "
                          "a new invitation."),
    # Translators: %(why)s is the browser's own reason, often in English.
    "sign_failed": _l("Nothing was sent: this phone could not sign it (%(why)s)."),
    # The witness: a member's act in the log that their keys do not bear out (static/witness.js, static/acts.js).
    # Translators: %(why)s says, in English as the log's checks say it, what does not hold of event %(seq)s.
    "act_unsigned": _l("event %(seq)s binds a member without their signature holding (%(why)s)"),
    # The taps a phone keeps while the network is down (static/taps.js).
    "taps_kept": _l("Kept on this phone until bitka answers again, then sent."),
    "no_network": _l("This phone has no network now."),
    "no_answer": _l("bitka did not answer the last try."),
    # Translators: a button beside a tap that waits to be sent: the player takes it back.
    "dont_send": _l("Don't send it"),
    "sign_in_again": _l("bitka asks this phone to sign in again: what waits goes once you do."),
    # Translators: the heading over what became of the taps this phone sent when the network came back.
    "sent_heading": _l("Sent from this phone:"),
    # Translators: %(tap)s is what was tapped ("play the ace of hearts (Hand 3, Ala dealt)").
    "logged": _l("%(tap)s: logged."),
    # Translators: %(tap)s is what was tapped; the answer to its first sending was lost on the way back.
    "logged_before": _l("%(tap)s: logged (it had reached bitka already)."),
    # Translators: %(tap)s is what was tapped; %(why)s the reason bitka gave ("A♥ was already played, by Ala").
    "refused": _l("%(tap)s: not logged. %(why)s"),
    "stale": _l("The page it was tapped on was out of date: nothing was logged from it."),
    # Translators: a button under what became of the taps sent: hides that list.
    "seen": _l("OK, hide this"),
    "needs_network": _l("This needs bitka's answer, and this phone has no network now: try again when it is back."),
    # Translators: what was tapped and where: "play the ace of hearts (Hand 3, Ala dealt)".
    "tap_where": _l("%(what)s (%(where)s)"),
    # Translators: a tap and the cards ticked with it: "These are my cards: A♥ 10♥ Q♣ A♦".
    "tap_with": _l("%(what)s: %(cards)s"),
    # The screen kept awake during a hand (static/awake.js).
    "awake_needs_https": _l("This phone keeps its screen on for bitka only where bitka is served over HTTPS: set the "
                            "screen to stay on longer for the evening."),
    "awake_not_here": _l("This phone's browser does not keep the screen on for bitka: set the screen to stay on longer "
                         "for the evening."),
    # A score sheet's doubles, each one tap (static/sheet.js): the same words as the sheet's own.
    "no_doubles": _l("No doubles so far."),
    # Translators: %(double)s is the game's own name for the next double.
    "next_double": _l("Tap who gave the next double (%(double)s):"),
    "undo_double": _l("Take back the last double"),
}

PLURAL: dict[str, Callable[[int], str]] = {
    # Translators: how many taps this phone has not sent yet, at the top of the page ("2 not sent yet").
    "taps_waiting": lambda n: ngettext("%(count)s not sent yet", "%(count)s not sent yet", n, **KEPT),
    # Translators: taps another member made on this phone (or in another group): %(name)s made them in %(group)s.
    "taps_held": lambda n: ngettext(
        "%(count)s tap made on this phone by %(name)s (%(group)s) is not sent yet: it goes only while %(name)s is "
        "signed in here, from that group's pages.",
        "%(count)s taps made on this phone by %(name)s (%(group)s) are not sent yet: they go only while %(name)s is "
        "signed in here, from that group's pages.", n, **KEPT),
    # Translators: a button that drops taps not sent yet, for good.
    "forget": lambda n: ngettext("Forget it", "Forget them", n, **KEPT),
}


def forms(said: Callable[[int], str], language: str) -> dict[str, str]:
    """A sentence said of a number, in each plural category of ``language``: the catalog's form
    for the first number of that category."""
    rule, found = Locale.parse(language).plural_form, {}
    for n in EXAMPLES:
        found.setdefault(rule(n), said(n))
    return found


@bp.app_template_global("script_words")
def script_words() -> dict[str, str | dict[str, str]]:
    """The scripts' sentences in this request's language (a plural one by category)."""
    return {**{key: str(said) for key, said in SAID.items()},
            **{key: forms(said, current()) for key, said in PLURAL.items()}}
