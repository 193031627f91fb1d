"""bisca."""
from .game import GAME as GAME
