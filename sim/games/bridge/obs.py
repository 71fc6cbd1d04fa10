"""What a bridge bidding policy sees: one int64 vector, the public information of
``rules/bridge.md`` (B8: every call so far, the dealer, the vulnerability) plus the
asking seat's own hand. Read by ``strategies/bridge.py`` through these offsets.

The kernel writes the asking seat's number and hand just before each question and
clears the hand after it, so the vector never holds another seat's cards.
"""

from sim.games.bridge.core import MAX_AUCTION

SEAT = 0
HAND = 1            # own cards (52-bit mask)
DEALER = 2
VUL = 3             # 0 none, 1 NS, 2 EW, 3 both (bit 0 NS, bit 1 EW)
N_CALLS = 4         # calls made so far
LAST_BID = 5        # code of the last bid (0: none yet)
LAST_BIDDER = 6     # its seat (-1: none)
DOUBLED = 7         # 0, 1 (doubled) or 2 (redoubled): the state of the last bid
LEGAL = 8           # bit set of the legal calls now (bit = call code)
CALLS = 9           # MAX_AUCTION entries: the calls from the dealer, in order
SIZE = CALLS + MAX_AUCTION
