"""What an aukcio policy sees: the public vector ``o`` (``rules/aukcio.md``, "Public
information") and its own hand vector.

The public vector is the same for every seat but for ``SEAT``: the face cards each
player owns, how many money cards each holds, the cards in the payment pile, the lot
on offer and its calls, and what is left of the auction deck. Nobody's money cards are
in it; the hand vector holds the asking seat's own. Integers are stored exactly.

Face cards are numbered by *kind*, ``suit * 4 + rank`` with rank 0..3 = J, Q, K, A and
suits C, D, H, S (two decks hold two cards of each kind). Money is counted by value:
index ``i`` = 0..8 is the number card worth ``i + 2``, ``JOKER`` (9) the jokers.
"""

MAX_PLAYERS = 6
KINDS = 16
VALUES = 10
JOKER = 9

# Action codes: a call is a bid in thousands (>= 1) or PASS. A policy's ceiling (the
# highest open-bidding price it pays for the lot, settled without asking call by call)
# may instead be ASK: then the kernel asks it for every call.
PASS = -1
ASK = -2

# Scalars.
SEAT = 0             # the observing seat
PLAYERS = 1
DECKS = 2
HAND_SIZE = 3
BUYER_DRAW = 4
ACE_DRAW = 5
JOKERS_PER_PAYMENT = 6
SINGLE = 7           # 1 with single bidding (K7)
BOTTOM = 8           # 1 when unsold cards go under the auction deck (K11)
LOT = 9              # lots turned so far, this one excluded
CARD = 10            # kind of the face card on offer
TURNER = 11
SITTING_OUT = 12     # seat that bought the last lot, -1 if none (K9)
FIRST = 13           # first to speak in this lot (K5)
HIGH_BID = 14        # 0 before any bid
HIGH_BIDDER = 15     # -1 before any bid
CALLS = 16           # calls so far in this lot
AUCTION_LEFT = 17    # face cards still in the auction deck (the one on offer excluded)
DRAW_PILE = 18       # money cards in the draw pile
PAYMENT_PILE = 19    # money cards in the payment pile
# Per seat.
MONEY_CARDS = 20                       # money cards held
IN_LOT = MONEY_CARDS + MAX_PLAYERS     # 1 while the seat may still call in this lot
# Per kind.
IN_DECK = IN_LOT + MAX_PLAYERS         # copies still in the auction deck
# Per value: cards in the payment pile (they go back into play at the next reshuffle).
PAID = IN_DECK + KINDS
# Per seat and kind: face cards owned, at OWNED + seat * KINDS + kind.
OWNED = PAID + VALUES
SIZE = OWNED + MAX_PLAYERS * KINDS

# The hand vector.
HAND_COUNT = 0               # cards per value (JOKER last)
HAND_MOST = VALUES           # the most the seat can pay (K6)
HAND_HELD = VALUES + 1       # money cards held
HAND_LEN = VALUES + 2
