"""kop."""
from .game import GAME as GAME
