"""Pure rules of the games bitka scores: no I/O, standard library only."""
