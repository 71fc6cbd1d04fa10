"""What a pitch policy sees: one int64 vector, the public information of
``rules/pitch.md`` plus the asking seat's own hand.

The kernel keeps the public part up to date as the deal goes on and writes the asking
seat's number, hand and legal cards into it just before each question, so the vector
never holds another seat's unplayed cards. Sets of cards are bit masks
(``sim/tricks.py``: bit ``c`` is card ``c``, bit 52 the joker). Per-seat blocks hold
``MAX_PLAYERS`` entries. Read by ``strategies/pitch.py`` through these offsets.

Everything here is public: the bids; the pitcher, contract and trump; every card played
and by whom (``PLAYED_BY``), the cards of the trick in progress, the cards each seat
has won (``WON_BY``: tricks are turned face down in the real game, but every card of
them was seen); the suits each seat has shown it lacks (``VOIDS``, derived from the
cards played); the cards each seat still holds (a count); every score.
"""

from sim.games.pitch.rules import MAX_PLAYERS
from sim.tricks import TrickView

# Bid codes (``BIDS`` entries and a bid policy's answer).
PASS = 0
"""A pass. Bids are 1..4."""
HOLD = -1
"""The dealer takes the contract at the highest bid (P3)."""
NOT_YET = -2
"""In ``BIDS``: the seat has not spoken yet in this deal."""

# Phases.
BIDDING, PLAYING = 0, 1

# Scalars: the asking seat.
SEAT = 0
HAND = 1            # own unplayed cards (mask)
LEGAL = 2           # own legal cards now (mask; 0 while bidding)
# Scalars: rules.
PLAYERS = 3
JOKER = 4           # 1 in the 53-card game
MIN_BID = 5
DEALER_HOLD = 6
STUCK_DEALER = 7    # 1 if all_pass = stuck_dealer
LOW_CAPTURED = 8    # 1 if low_to = captured
TIE_PITCHER = 9     # 1 if game_tie = pitcher
SMUDGE = 10
TARGET = 11
DECK = 12           # mask of every card in the deck (52 or 53)
# Scalars: the deal.
DEAL = 13           # deal number in the game, 0-based (redeals count)
DEALER = 14
PHASE = 15
HIGH_BID = 16       # highest bid so far (0: none)
HIGH_BIDDER = 17    # -1: none
PITCHER = 18        # -1 while bidding
CONTRACT = 19       # 0 while bidding
TRUMP = 20          # suit 0..3; -1 before the first card is led
TRICK = 21          # trick number 0..5
LEADER = 22         # seat that led (or leads) the trick in progress
TRICK_N = 23        # cards in the trick in progress
PLAYED = 24         # every card played in this deal, the trick in progress included
LED = 25            # effective suit led to the trick in progress; -1 before its lead
WINNING = 26        # card winning the trick in progress so far; -1 before its lead
# Per seat.
BIDS = 27                          # NOT_YET, PASS, a bid 1..4 or HOLD
SCORES = BIDS + MAX_PLAYERS        # game scores before this deal
LEFT = SCORES + MAX_PLAYERS        # cards still in each hand
PLAYED_BY = LEFT + MAX_PLAYERS     # mask of the cards each seat has played
WON_BY = PLAYED_BY + MAX_PLAYERS   # mask of the cards each seat has won in tricks
VOIDS = WON_BY + MAX_PLAYERS       # suits (4-bit set) each seat has shown it lacks
TRICK_CARDS = VOIDS + MAX_PLAYERS  # the trick in progress, in play order from LEADER
SIZE = TRICK_CARDS + MAX_PLAYERS

TRICKS = TrickView.of(globals())
"""The trick fields above, as the shared trick helpers (``sim/tricks.py``) take them."""
