"""The rules files read a second time, apart from games/: what a card may be played, what a
hand pays, whether a result could happen. A misreading in games/ shows as a difference."""
