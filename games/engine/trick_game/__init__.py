"""The trick-taking core: what every trick game with one card per seat a trick shares,
written once (Bisca, Sueca, and the games built next on it).

A trick game declares its play as data (``TrickRules``, play.py) and keeps its hand in a
frozen dataclass that has the fields the core reads (``TrickHand``, hand.py); the core
does the rest:

- ``values.CardValues``: the ranks high to low (the same in every suit), the points of each
  rank and of the last trick, in the game's ``Unit`` (a point; a third, three to the
  point); who takes a trick (the highest trump, else the highest card of the suit led).
- ``hand``: the hand in play (who leads, whose turn, every card played by seat, who holds a
  card), the hand after a card and after a trick, and the outline of the hand's view.
- ``play``: the legal cards (follow suit or not, plus a game's own restriction), a card
  played alone, a whole trick, and the trick's event (its winner, points, draws and
  whatever else the game scores in it).
- ``stock``: the stock drawn after each trick, top first, with the card turned face up under
  it drawn last; its draws, known when the stock was dealt, owed seat by seat when not;
  ``stock_seen``: such a hand dealt seat by seat, each seat logging its first cards and
  each card it draws (the game turns the face-up card up in its own words).

Dealing seat by seat, the same in every game, is ``cards.dealt_round``. A game's own
module then holds what is its own: its rules, its deal's fields, its
scoring and its words.
"""
