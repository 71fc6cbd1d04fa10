"""What an auktsion policy sees: one float64 vector, public information plus the
asking seat's own hand (``rules/auktsion.md``, "Public information").

The kernel keeps the public part up to date and writes the asking seat's number and
own hand into it just before each question, so the vector never holds another seat's
hidden cards. Read by the policies in ``strategies/auktsion.py`` through these offsets. Integers are stored exactly (all are far below 2**53). Per-seat blocks
hold ``MAX_PLAYERS`` entries; per-rank blocks hold 13, indexed by rank (0 = two).
Other players' hidden cards are not here: only their money, scores, purchases and the
cards they laid face up.
"""

MAX_PLAYERS = 4
N_RANKS = 13

# Lot status values in the LOT_STATUS block.
LOT_TO_COME, LOT_OPEN, LOT_SOLD, LOT_UNSOLD = 0, 1, 2, 3

# Scalars.
SEAT = 0            # the observing seat
PLAYERS = 1
DEAL = 2            # deal number in the match, 0-based
DEALS = 3           # deals per match
DEALER = 4
LOT = 5             # rank on offer (0 = two .. 12 = ace)
FIRST_RANK = 6      # 0, or 1 with 3 players (no twos)
PRICE = 7           # current price, 0 before any bid (always 0 in the sealed form)
HIGH_BIDDER = 8     # seat of the last bid in this lot, -1 before any
CALLS = 9           # calls made so far in this lot
PASSES = 10         # passes in a row so far in this lot
STARTER = 11
SEALED = 12         # 1 in the sealed auction form
MIN_BID = 13
MIN_RAISE = 14
START_MONEY = 15
CARRY_MONEY = 16
LEFTOVER_VALUE = 17
DECK_POINTS = 18    # points of all cards in play (130 with 4 players by default)
MEAN_HAND = 19      # DECK_POINTS / PLAYERS: the points of an average hand
OWN_REST = 20       # the asking seat's points in the lot now open and the lots to come
# Per seat.
MONEY = 21                          # coins now
MATCH_POINTS = MONEY + MAX_PLAYERS  # points scored in earlier deals of this match
DEAL_POINTS = MATCH_POINTS + MAX_PLAYERS  # points laid face up so far in this deal
# Per rank.
OWN_VALUE = DEAL_POINTS + MAX_PLAYERS  # points of the asking seat's own cards of each rank
LOT_STATUS = OWN_VALUE + N_RANKS
LOT_BUYER = LOT_STATUS + N_RANKS       # -1 if not sold
LOT_PRICE = LOT_BUYER + N_RANKS        # 0 if not sold
LOT_FACE_UP = LOT_PRICE + N_RANKS      # points the buyer laid face up
SIZE = LOT_FACE_UP + N_RANKS
