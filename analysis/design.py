"""The balanced designs of duplicate tournaments (:mod:`analysis.tournament`): which
strategy sits where in each lineup so that every strategy holds every seat equally often
and, where at most twice as many lineups as strategies allow it, sits directly after
every other strategy equally often (a Williams design); with fewer strategies than seats,
the table filled without a strategy in two adjacent seats. A game with fixed
partnerships seats one strategy per side: the design's positions are the sides."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.errors import BidlabError
from sim.games import get_game

SEARCH_NODES = 200_000
"""Most steps one search for a design's base row may take before giving up on it."""


# -- the design ------------------------------------------------------------------------

@dataclass(frozen=True)
class Design:
    """Lineups of ``k`` strategies over ``n`` positions (seats, or a game's sides).

    ``lineups[l][p]`` is the strategy (0..k-1, in the order given) at position ``p`` in
    lineup ``l``. Built as translations ``base + r (mod k)``, ``r = 0..k-1``, of one base
    row (``copies`` 1), or of a base row and its negation (``copies`` 2)."""

    k: int
    n: int
    lineups: tuple[tuple[int, ...], ...]
    copies: int
    balance: str
    """What was asked: ``after`` (seats and who follows whom) or ``seats`` (seats only,
    ``k`` lineups)."""

    @property
    def seat_counts(self) -> np.ndarray:
        """(k, n): how often each strategy sits at each position."""
        out = np.zeros((self.k, self.n), dtype=np.int64)
        for row in self.lineups:
            for p, a in enumerate(row):
                out[a, p] += 1
        return out

    @property
    def follows(self) -> np.ndarray:
        """(k, k): ``[a, b]`` counts lineups and positions ``p`` with ``a`` at ``p`` and
        ``b`` at ``p + 1`` (``b`` sits directly after ``a``)."""
        out = np.zeros((self.k, self.k), dtype=np.int64)
        for row in self.lineups:
            for a, b in zip(row, row[1:]):
                out[a, b] += 1
        return out

    @property
    def seats_balanced(self) -> bool:
        c = self.seat_counts
        return bool((c == c[0, 0]).all())

    @property
    def after_balanced(self) -> bool:
        """Every strategy directly after every other equally often (and never after
        itself)."""
        f = self.follows
        off = f[~np.eye(self.k, dtype=bool)]
        return bool(np.trace(f) == 0 and (off == off[0]).all())

    def describe(self, position: str = "seat") -> str:
        """One line on the design's balance (``position``: what a position is called)."""
        c = self.seat_counts
        text = (f"{len(self.lineups)} lineups; every strategy in every {position} {c[0, 0]} "
                f"time{'s' if c[0, 0] != 1 else ''}")
        if self.n < 2:
            return text
        f = self.follows[~np.eye(self.k, dtype=bool)]
        if self.after_balanced:
            text += f", directly after every other strategy {f[0]} time{'s' if f[0] != 1 else ''}"
        else:
            text += (f"; directly after another strategy {f.min()} to {f.max()} times (exact "
                     f"balance of who follows whom needs more lineups)")
        return text

    def to_json(self) -> dict[str, Any]:
        return {"strategies": self.k, "positions": self.n, "copies": self.copies,
                "balance": self.balance, "lineups": [list(r) for r in self.lineups],
                "seats_balanced": self.seats_balanced, "after_balanced": self.after_balanced,
                "seat_counts": self.seat_counts.tolist(), "follows": self.follows.tolist()}


def design(k: int, n: int, balance: str = "after") -> Design:
    """A balanced design of ``k >= 2`` strategies over ``n >= 1`` positions.

    Lineups are the ``k`` translations ``base + r (mod k)`` of a base row, which puts every
    strategy in every position once; the base row holds each strategy ``floor(n/k)`` or
    ``ceil(n/k)`` times and never the same one in two adjacent positions. The strategy
    that sits after another differs from it by the base row's difference there, so the
    design is balanced for who follows whom when the base row's differences cover every
    nonzero residue mod ``k`` equally often (with ``k = n`` and ``k`` even: Williams's
    row 0, 1, k-1, 2, k-2, ...). Where no row does, the base row and its negation
    together may (``2k`` lineups; odd ``k = n``: Williams's two squares). Failing both,
    or with ``balance="seats"``, ``k`` lineups whose differences are as even as they
    can be."""
    if k < 2:
        raise BidlabError(f"a tournament needs at least two strategies, got {k}")
    if n < 1:
        raise BidlabError(f"a table of {n} seats holds no strategy")
    if balance not in ("after", "seats"):
        raise BidlabError(f"design balance {balance!r}: use 'after' or 'seats'")
    if n == 1:
        return _make(k, n, (0,), 1, balance)
    if balance == "after":
        exact = _exact_base(k, n)
        if exact is not None:
            base, copies = exact
            return _make(k, n, base, copies, balance)
    return _make(k, n, _even_base(k, n), 1, balance)


def _make(k: int, n: int, base: Sequence[int], copies: int, balance: str) -> Design:
    rows = [tuple((b + r) % k for b in base) for r in range(k)]
    if copies == 2:
        rows += [tuple((-b + r) % k for b in base) for r in range(k)]
    return Design(k, n, tuple(rows), copies, balance)


def _williams(k: int) -> list[int]:
    row, lo, hi = [0], 1, k - 1
    while len(row) < k:
        row.append(lo)
        lo += 1
        if len(row) < k:
            row.append(hi)
            hi -= 1
    return row


def _exact_base(k: int, n: int) -> tuple[list[int], int] | None:
    """(base row, copies) of an exactly balanced design, or None."""
    steps = n - 1
    if k == n:
        return _williams(k), 1 if k % 2 == 0 else 2
    if steps % (k - 1) == 0:
        q = steps // (k - 1)
        base = _search(k, n, lambda used, d: used[d] < q)
        if base is not None:
            return base, 1
    if (2 * steps) % (k - 1) == 0:
        q = 2 * steps // (k - 1)   # each residue q times over the row and its negation

        def fits(used, d):
            both = used[d] + used[k - d] if 2 * d != k else 2 * used[d]
            return both + (2 if 2 * d == k else 1) <= q
        base = _search(k, n, fits)
        if base is not None:
            return base, 2
    return None


def _even_base(k: int, n: int) -> list[int]:
    """A base row whose differences are as even as one row allows (each residue used
    ``floor`` or ``ceil`` of ``(n-1)/(k-1)`` times), else the cyclic row 0, 1, 2, ..."""
    steps = n - 1
    lo, hi = steps // (k - 1), -(-steps // (k - 1))
    base = _search(k, n, lambda used, d: used[d] < hi,
                   lambda used: min(used[1:]) >= lo)
    return base if base is not None else [i % k for i in range(n)]


def _search(k: int, n: int, fits, accept=None) -> list[int] | None:
    """Depth-first search for a base row: starts at 0; each step adds a difference
    ``d`` in 1..k-1 that ``fits(used, d)`` (``used``: differences so far); every
    strategy at most ``ceil(n/k)`` times, in the end at least ``floor(n/k)``."""
    most, least = -(-n // k), n // k
    used = [0] * k
    count = [0] * k
    row = [0]
    count[0] = 1
    nodes = 0

    def step() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > SEARCH_NODES:
            return False
        if len(row) == n:
            return min(count) >= least and (accept is None or accept(used))
        # strategies still needing a seat must fit into the seats left
        if sum(max(0, least - c) for c in count) > n - len(row):
            return False
        for d in range(1, k):
            nxt = (row[-1] + d) % k
            if count[nxt] >= most or not fits(used, d):
                continue
            used[d] += 1
            count[nxt] += 1
            row.append(nxt)
            if step():
                return True
            row.pop()
            count[nxt] -= 1
            used[d] -= 1
        return False

    return list(row) if step() else None


def positions(game: str, n_seats: int) -> tuple[tuple[int, ...], ...]:
    """The design's positions of ``game``: the seats of each side where seats play in
    fixed partnerships (``Game.sides``: bridge), else one seat each."""
    sides = get_game(game).sides
    if sides:
        return tuple(seats for _, seats in sides)
    return tuple((s,) for s in range(n_seats))


def position_names(game: str, n_positions: int) -> tuple[str, ...]:
    sides = get_game(game).sides
    return tuple(name for name, _ in sides) if sides else tuple(f"seat {p}"
                                                              for p in range(n_positions))
