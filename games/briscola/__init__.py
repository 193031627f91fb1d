"""briscola."""
from .game import GAME as GAME
