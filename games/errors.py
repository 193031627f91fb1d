"""The one error the rules raise: a move or a fact that the game does not allow."""


class RuleViolation(Exception):
    """Raised by a game's ``decide`` with a sentence a player understands."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail
