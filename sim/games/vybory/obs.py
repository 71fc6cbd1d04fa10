"""What a vybory policy sees: one int64 vector, the public information of
``rules/vybory.md`` plus the asking seat's own hand.

The kernel keeps the public part up to date as the deal goes on and writes the asking
seat's number, hand and legal cards into it just before each question (and clears them
after), so the vector never holds another seat's unplayed cards. Sets of cards are bit
masks (``sim/tricks.py``: bit ``c`` is card ``c``). Per-seat blocks hold 4 entries.
Read by ``strategies/vybory.py`` through these offsets.

Everything here is public: the announcements in order (``CALLS``; call ``k`` was made by
seat ``dealer + 1 + k``) and the types each seat has named (``NAMED``, bit ``t`` for type
``t``); the contract and the pairs; every card played and by whom, the trick in
progress, the cards and tricks each seat has won; the suits each seat has shown it lacks
(``VOIDS``, derived from the cards played); the cards each seat still holds (a count);
every score.
"""

from sim.games.vybory.rules import MAX_CALLS, PLAYERS
from sim.tricks import TrickView

NONE = 0
"""In ``CALLS``, ``CONTRACT``: no type (yet). Types are 1..8."""

# Phases.
ELECTING, PLAYING = 0, 1

# Scalars: the asking seat.
SEAT = 0
HAND = 1            # own unplayed cards (mask)
LEGAL = 2           # own legal cards now (mask; 0 during the election)
# Scalars: rules.
ALT = 3             # 1 with type_set = alt
RESULT = 4          # 1 with scoring = result
DEALS = 5           # deals_per_match
# Scalars: the deal.
DEAL = 6            # deal number in the tour, 0-based
DEALER = 7
PHASE = 8
N_CALLS = 9         # announcements made so far in this deal
CONTRACT = 10       # the type elected; NONE during the election
FIRST = 11          # the first announcer (V5); -1 during the election
SECOND = 12         # his partner, who matched him; -1 during the election
TRUMP = 13          # the contract's trump suit, -1 for none (or during the election)
LOW_WINS = 14       # 1 under lowest_wins (V9)
TRICK = 15          # trick number 0..12
LEADER = 16         # seat that led (or leads) the trick in progress
TRICK_N = 17        # cards in the trick in progress
PLAYED = 18         # every card played in this deal, the trick in progress included
LED = 19            # suit led to the trick in progress; -1 before its lead
WINNING = 20        # card winning the trick in progress so far; -1 before its lead
# Blocks.
CALLS = 21                          # MAX_CALLS entries: the types named, in order
NAMED = CALLS + MAX_CALLS           # per seat: bit set of the types it has named
SCORES = NAMED + PLAYERS            # tour scores before this deal
LEFT = SCORES + PLAYERS             # cards still in each hand
PLAYED_BY = LEFT + PLAYERS          # mask of the cards each seat has played
WON_BY = PLAYED_BY + PLAYERS        # mask of the cards each seat has won in tricks
TRICKS_BY = WON_BY + PLAYERS        # tricks each seat has won
VOIDS = TRICKS_BY + PLAYERS         # suits (4-bit set) each seat has shown it lacks
TRICK_CARDS = VOIDS + PLAYERS       # the trick in progress, in play order from LEADER
SIZE = TRICK_CARDS + PLAYERS

TRICKS = TrickView.of(globals())
"""The trick fields above, as the shared trick helpers (``sim/tricks.py``) take them."""
