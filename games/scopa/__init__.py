"""scopa."""
from .game import GAME as GAME
