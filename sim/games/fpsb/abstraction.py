"""fpsb's abstraction for the solver: the value on a grid, the bid on a grid whose cells
are played continuously.

An information set is the cell of the bidder's value, ``VALUES`` equal cells of [0, 1);
an action is a cell of bids, ``BIDS`` equal cells of [0, 1), and the bid is drawn
uniformly within its cell. So bids are continuous between grid points: two bidders tie
with probability 0, as in the game played with real numbers, where a coarse grid of
point bids would make ties common and cheap to exploit. Bids of 1 or more are left out:
they lose money whatever the value. The seats are symmetric (F1-F3), so one strategy
serves every seat. Size: ``VALUES`` information sets of ``BIDS`` actions.
"""

from __future__ import annotations

import numpy as np

from sim.cfr import T_ACTIONS, T_ROWS, Abstraction, table_action
from sim.games.fpsb import obs as O
from sim.jit import jit
from sim.rng import uniform

NAME = "fpsb-value-grid"
VERSION = 1
VALUES = 200
BIDS = 1000


def abstraction(rules=None) -> Abstraction:
    return Abstraction(NAME, VERSION, VALUES, BIDS,
                       {"values": VALUES, "bids": BIDS, "seats": "symmetric"})


@jit
def value_cell(value, cells):
    return min(np.int64(value * cells), cells - 1)


@jit
def solved_bid(o, rng, table, base):
    """The solution's bid for the value in ``o``: a bid cell drawn from the value cell's
    row, then a bid uniform within the cell."""
    cell = table_action(table, base, value_cell(o[O.VALUE], np.int64(table[base + T_ROWS])),
                        uniform(rng))
    return (cell + uniform(rng)) / table[base + T_ACTIONS]
