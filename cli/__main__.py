"""``python -m cli`` runs the ``bitka`` command line."""
from .main import bitka

bitka()
