"""The event vocabulary of API.md, and which events belong to a hand."""

EVENT_TYPES = frozenset({
    "group_created", "member_added", "table_opened", "deal", "seat_cards", "bid", "trick", "play", "claim",
    "result", "settlement", "hand_voided", "payment", "assertion", "table_closed",
})
HAND_EVENTS = frozenset({"deal", "seat_cards", "bid", "trick", "play", "claim", "result", "settlement",
                         "hand_voided"})
