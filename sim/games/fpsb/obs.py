"""What an fpsb bidder sees (F1, F2): its seat, the number of bidders and its own value;
nothing of the other bidders. A bid is a number >= 0."""

SEAT, PLAYERS, VALUE = range(3)
SIZE = 3
