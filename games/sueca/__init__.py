"""sueca: the Portuguese partnership trick game of ten cards each and the dealer's own card
for trumps (../shared/rules/sueca.md)."""
from .game import GAME as GAME
