"""baska."""
from .game import GAME as GAME
