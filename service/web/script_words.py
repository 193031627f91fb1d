"""What the pages' scripts say (the witness, the verify button), in the reader's language:
the page carries them as JSON (``base.html``), ``static/words.js`` fills their values."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

from .base import bp

SAID = {
    "rewritten": _l("The group's history was rewritten since this phone's last visit."),
    # Translators: %(why)s is one of the sentences below saying what does not hold
    "keep": _l("%(why)s Keep both checkpoints as evidence: the one this phone saw last, and the one the server "
               "shows now."),
    "unsigned": _l("The server's checkpoint is not signed by the key it shows."),
    "other_key": _l("The server signs with another key than at this phone's last visit."),
    "shorter": _l("The log's size was %(before)s at this phone's last visit and is %(after)s now."),
    "not_extended": _l("What the log held at this phone's last visit (%(before)s in all) is not what it holds now."),
    "witnessed": _l("This phone checked the group's log: nothing was rewritten since its last visit (log size "
                    "%(size)s, signed by the server)."),
    "witnessed_money": _l("This phone checked the group's log: nothing was rewritten since its last visit (log size "
                          "%(size)s, signed by the server), and the balances shown are what its events give."),
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
}


@bp.app_template_global("script_words")
def script_words() -> dict[str, str]:
    """The scripts' sentences in this request's language."""
    return {key: str(said) for key, said in SAID.items()}
