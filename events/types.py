"""The event vocabulary of API.md, and which events belong to a hand."""

EVENT_TYPES = frozenset({
    "group_created", "group_updated", "member_added", "table_opened", "deal", "seat_cards", "bid", "trick", "play",
    "claim", "result", "settlement", "hand_voided", "confirmation", "dispute", "correction", "payment", "assertion",
    "table_closed", "pay_details", "tournament_created", "round_drawn", "watch_opened", "watch_closed",
    # Members hold their own keys: a device added or stopped, and the signed acts that are events of their own.
    "device_added", "member_reset", "agreement", "payment_received", "check_in",
})
# The events of a hand's play, from its deal (or result) to its settlement or void: what a
# hand's state is folded from and what its game decides again on replay.
HAND_EVENTS = frozenset({"deal", "seat_cards", "bid", "trick", "play", "claim", "result", "settlement",
                         "hand_voided"})
# What is said of a settled hand afterwards: a payer confirms it, a player disputes it, the
# admin corrects it (a correction also re-settles later hands of its table).
VERDICT_EVENTS = frozenset({"confirmation", "dispute", "correction"})
