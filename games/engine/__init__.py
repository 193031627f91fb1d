"""The engine every game runs on; it names no game."""
