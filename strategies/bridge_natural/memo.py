"""A seat's memo: the auction reader's state after the last bid it read, so the next
question on the same board goes on from there (``reading.read_auction``).

It holds only what the calls have shown, never a hand, so partners who play the same
parameters (and so read alike) share one. Nothing here imports the bridge game
(``sim.jit`` only): ``strategies.bridge`` reads ``MEMO_SIZE`` while the bridge kernel
is still being imported (see the package's ``__init__``).
"""

from __future__ import annotations

from sim.jit import jit

MEMO_SIZE = 21
"""Length of a memo (``read_auction``): the reader's 19 variables, a flag and the seat
that wrote it."""
_M_FULL, _M_SEAT = 19, 20


@jit(inline=True)
def forget(memo):
    """Clear the memo at the start of a board."""
    memo[_M_FULL] = 0


@jit(inline=True)
def _remember(memo, me, mine, part, my_kind, pa_kind, my_n, pa_n, my_last, pa_last, opener,
              opening, response, agreed, opp_suits, opp_last, last, prev, opp_since,
              interfered, asked):
    memo[0], memo[1], memo[2], memo[3] = mine, part, my_kind, pa_kind
    memo[4], memo[5], memo[6], memo[7] = my_n, pa_n, my_last, pa_last
    memo[8], memo[9], memo[10], memo[11] = opener, opening, response, agreed
    memo[12], memo[13], memo[14], memo[15] = opp_suits, opp_last, last, prev
    memo[16], memo[17], memo[18] = opp_since, interfered, asked
    memo[_M_FULL], memo[_M_SEAT] = 1, me
