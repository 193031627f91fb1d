"""tressette: the Italian trick game of thirds, with no trumps, for four in pairs or two with
a stock (../shared/rules/tressette.md)."""
from .game import GAME as GAME
