"""What an auktsion policy sees: two float64 vectors, the public information
(``rules/auktsion.md``, "Public information") and the asking seat's own hand.

The public vector ``o`` is the same for every seat but for ``SEAT``, the seat asked;
the kernel keeps it up to date. Other players' hidden cards are never in it: only
their money, scores, purchases and the cards they laid face up. The hand vector is
the asking seat's own, laid out as ``HAND_*`` below; the kernel keeps one per seat,
filled once per deal, and hands a policy its own. Read by the policies in
``strategies/auktsion.py`` through these offsets. Integers are stored exactly (all are
far below 2**53). Per-seat blocks hold ``MAX_PLAYERS`` entries; per-rank blocks hold
13, indexed by rank (0 = two).
"""

MAX_PLAYERS = 4
N_RANKS = 13

# Action codes: a call is a bid in coins (>= min_bid) or PASS. A policy's ceiling (the
# highest open-form price it pays for a lot, settled without asking call by call) may
# instead be ASK: then the kernel asks it for every call.
PASS = -1
ASK = -2

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
# Per seat.
MONEY = 20                          # coins now
MATCH_POINTS = MONEY + MAX_PLAYERS  # points scored in earlier deals of this match
DEAL_POINTS = MATCH_POINTS + MAX_PLAYERS  # points laid face up so far in this deal
# Per rank.
LOT_STATUS = DEAL_POINTS + MAX_PLAYERS
LOT_BUYER = LOT_STATUS + N_RANKS       # -1 if not sold
LOT_PRICE = LOT_BUYER + N_RANKS        # 0 if not sold
LOT_FACE_UP = LOT_PRICE + N_RANKS      # points the buyer laid face up
SIZE = LOT_FACE_UP + N_RANKS

# The hand vector, per rank.
HAND_POINTS = 0                    # points of the seat's own cards of each rank
HAND_REST = N_RANKS                # its points in this rank and the ranks above
HAND_SIZE = 2 * N_RANKS
