"""Playing strength: the policies are ordered as they should be, significantly.

``pimc`` against ``greedy`` heads-up is slow (``-m slow``); the cheap orderings run by
default. Each comparison plays the same deals with the seats swapped (common random
numbers), and requires the 95% interval of the win share to lie above one half.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import strategies
from sim.games import get_game

GAME = get_game("pitch")
GS = strategies.for_game("pitch")


def win_share(challenger: str, incumbent: str, n: int, players: int = 2, seed: int = 1):
    """Win share of ``challenger`` in seat 0 and then in seat 1 against ``incumbent``
    everywhere else; returns (mean, low, high) of its per-game win share."""
    rules = GAME.make_rules({"players": players})
    wins = []
    for seat in (0, 1):
        sa = strategies.assign_seats(GS, players, [f"all={incumbent}", f"{seat}={challenger}"])
        pol = {d: (sa.ids(d), sa.params(d)) for d in GS.decisions}
        w = GAME.run_chunk(rules, pol, sa.labels, seed, 0, n)["seats"]["win"]
        wins.append(w.reshape(n, players)[:, seat])
    x = np.concatenate(wins) * players / 2          # 0.5 = par in every player count
    mean = x.mean()
    half = 1.96 * x.std(ddof=1) / math.sqrt(len(x))
    return mean, mean - half, mean + half


def test_greedy_play_beats_random_play():
    mean, lo, hi = win_share("strength+greedy", "strength+random", 2000, players=4)
    assert lo > 0.5, (mean, lo, hi)


def test_strength_bidding_beats_random_bidding():
    mean, lo, hi = win_share("strength+greedy", "random+greedy", 2000, players=4)
    assert lo > 0.5, (mean, lo, hi)


@pytest.mark.slow
def test_pimc_beats_greedy_heads_up():
    """pimc (32 samples) against greedy, both bidding with strength, 2 players, 3000
    games in each seat: pimc's win share is significantly above one half."""
    mean, lo, hi = win_share("strength+pimc:samples=32", "strength+greedy", 3000, players=2)
    assert lo > 0.5, (mean, lo, hi)


@pytest.mark.slow
def test_pimc_beats_greedy_at_four_players():
    mean, lo, hi = win_share("strength+pimc:samples=16", "strength+greedy", 2000, players=4)
    assert lo > 0.5, (mean, lo, hi)
