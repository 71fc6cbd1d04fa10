"""Constrained dealing in numba: fixed hands and per-seat HCP / suit-length ranges.

``Constraints`` holds, per seat, a fixed hand (a card mask, or -1), an HCP range and a
length range per suit. Board ``i`` of seed ``s`` is dealt from stream 0 of ``(s, i)``:
attempts follow one another on that stream until one satisfies every constraint, so
the accepted board depends only on ``(s, i)`` and the constraints.

Smarter than plain rejection: each attempt deals the constrained seats first, 13 cards
at a time by a partial Fisher-Yates shuffle of the cards not fixed, and gives up on
the attempt as soon as one seat fails (a North with at least 20 HCP costs ~13 card
draws per attempt, not 52); unconstrained seats take the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np

from sim.errors import BidlabError
from sim.games.bridge import core as C
from sim.games.bridge.pbn import parse_hand
from sim.jit import jit, prange
from sim.rng import DEAL_STREAM, _below, seed_stream

# Constraint matrix ``K`` (int64, 4 seats x K_COLS).
K_FIXED, K_HCP_LO, K_HCP_HI = 0, 1, 2
K_LEN = 3            # 8 columns: (lo, hi) for clubs, diamonds, hearts, spades
K_COLS = K_LEN + 8
SUIT_LETTERS = "CDHS"


@dataclass
class Constraints:
    """Per seat (0 N, 1 E, 2 S, 3 W): ``fixed`` hand mask or None, ``hcp`` (lo, hi),
    ``lengths`` {suit letter: (lo, hi)}."""

    fixed: list = field(default_factory=lambda: [None] * 4)
    hcp: list = field(default_factory=lambda: [(0, 37)] * 4)
    lengths: list = field(default_factory=lambda: [{} for _ in range(4)])

    def matrix(self) -> np.ndarray:
        K = np.zeros((4, K_COLS), dtype=np.int64)
        taken = 0
        for s in range(4):
            f = self.fixed[s]
            K[s, K_FIXED] = -1 if f is None else f
            if f is not None:
                if bin(f).count("1") != 13:
                    raise BidlabError(f"seat {'NESW'[s]}: a fixed hand needs 13 cards")
                if taken & f:
                    raise BidlabError("two fixed hands share a card")
                taken |= f
            K[s, K_HCP_LO], K[s, K_HCP_HI] = self.hcp[s]
            for j, letter in enumerate(SUIT_LETTERS):
                lo, hi = self.lengths[s].get(letter, (0, 13))
                K[s, K_LEN + 2 * j], K[s, K_LEN + 2 * j + 1] = lo, hi
        return K

    def impossible(self) -> list[str]:
        """What no deal can meet, each named (empty where the totals allow a deal): the
        deck holds 40 high-card points and 13 cards of each suit, and a hand 13 cards.
        Fixed hands count with their own points and lengths."""
        hcp, lengths = [], []
        for s in range(4):
            f = self.fixed[s]
            if f is None:
                hcp.append(tuple(self.hcp[s]))
                lengths.append([self.lengths[s].get(x, (0, 13)) for x in SUIT_LETTERS])
            else:
                h = int(C.hcp(np.int64(f)))
                hcp.append((h, h))
                lengths.append([(n, n) for n in (int(C.suit_length(np.int64(f), j))
                                                  for j in range(4))])
        out = []
        for s in range(4):  # a fixed hand must meet its own seat's other constraints
            f = self.fixed[s]
            if f is None:
                continue
            lo, hi = self.hcp[s]
            if not lo <= hcp[s][0] <= hi:
                out.append(f"{'NESW'[s]}'s hand has {hcp[s][0]} HCP, outside --hcp {lo}-{hi}")
            for j, x in enumerate(SUIT_LETTERS):
                lo, hi = self.lengths[s].get(x, (0, 13))
                if not lo <= lengths[s][j][0] <= hi:
                    out.append(f"{'NESW'[s]}'s hand has {lengths[s][j][0]} {x}, outside "
                               f"--shape {x}{lo}-{hi}")
        low, high = sum(a for a, _ in hcp), sum(b for _, b in hcp)
        names = ", ".join(f"{'NESW'[s]} {hcp[s][0]}-{hcp[s][1]}" for s in range(4))
        if low > 40:
            out.append(f"the seats' least HCP add up to {low}, more than the deck's 40 ({names})")
        if high < 40:
            out.append(f"the seats' most HCP add up to {high}, fewer than the deck's 40 ({names})")
        for s in range(4):
            a, b = sum(r[0] for r in lengths[s]), sum(r[1] for r in lengths[s])
            if a > 13 or b < 13:
                out.append(f"{'NESW'[s]}'s suit lengths add up to {a}..{b} cards, not 13")
        for j, x in enumerate(SUIT_LETTERS):
            a, b = sum(lengths[s][j][0] for s in range(4)), sum(lengths[s][j][1] for s in range(4))
            if a > 13 or b < 13:
                out.append(f"the four hands' {x} lengths add up to {a}..{b} cards, not 13")
        return out

    @classmethod
    def parse(cls, hands: list[str] | None = None, hcp: list[str] | None = None,
              shape: list[str] | None = None) -> "Constraints":
        """From CLI items: ``N=AKQ52.K3.742.Q87`` (a fixed hand, PBN order S.H.D.C),
        ``S=10-15`` (HCP range; ``S=20`` or ``S=20-``), ``E=S5-,H0-2`` (suit lengths)."""
        c = cls()
        for item in hands or []:
            seat, hand = _seat_item(item, "--hand")
            c.fixed[seat] = parse_hand(hand)
        for item in hcp or []:
            seat, rng = _seat_item(item, "--hcp")
            c.hcp[seat] = _range(rng, 0, 37, item)
        for item in shape or []:
            seat, spec = _seat_item(item, "--shape")
            for part in spec.split(","):
                part = part.strip().upper()
                if not part or part[0] not in SUIT_LETTERS:
                    raise BidlabError(f"--shape {item!r}: write SEAT=S5-,H0-2 (suit letter, "
                                      f"then a length range)")
                c.lengths[seat][part[0]] = _range(part[1:], 0, 13, item)
        return c


def _seat_item(item: str, what: str) -> tuple[int, str]:
    seat, sep, rest = item.partition("=")
    seat = seat.strip().upper()[:1]
    if not sep or seat not in "NESW" or not seat:
        raise BidlabError(f"{what} {item!r}: write SEAT=..., SEAT one of N E S W")
    return "NESW".index(seat), rest.strip()


def _range(text: str, lo: int, hi: int, item: str) -> tuple[int, int]:
    t = text.strip()
    try:
        if "-" in t:
            a, _, b = t.partition("-")
            r = (int(a) if a else lo, int(b) if b else hi)
        else:
            r = (int(t), hi)
    except ValueError:
        raise BidlabError(f"{item!r}: cannot read the range {text!r} (e.g. 20-, 10-15, 5)") from None
    if not lo <= r[0] <= r[1] <= hi:
        raise BidlabError(f"{item!r}: range {r[0]}-{r[1]} outside {lo}..{hi}")
    return r


@jit
def _fits(hand, K, s):
    h = C.hcp(hand)
    if h < K[s, K_HCP_LO] or h > K[s, K_HCP_HI]:
        return False
    for j in range(4):
        n = C.suit_length(hand, j)
        if n < K[s, K_LEN + 2 * j] or n > K[s, K_LEN + 2 * j + 1]:
            return False
    return True


@jit
def _constrained(K, s):
    if K[s, K_HCP_LO] > 0 or K[s, K_HCP_HI] < 37:
        return True
    for j in range(8):
        if K[s, K_LEN + j] != (0 if j % 2 == 0 else 13):
            return True
    return False


@jit
def deal_constrained(seed, index, K, order, n_order, state, deck, hands, m, max_tries):
    """Board ``index`` into ``hands[m]``; returns the attempts used (-1: gave up).
    ``order``: the seats to deal, constrained ones first (``n_order`` of them)."""
    seed_stream(state, seed, index, DEAL_STREAM)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    taken = np.int64(0)
    for s in range(4):
        if K[s, K_FIXED] >= 0:
            taken |= K[s, K_FIXED]
    n = 0
    for c in range(52):
        if not (taken >> c) & 1:
            deck[n] = c
            n += 1
    for attempt in range(max_tries):
        pos = 0
        ok = True
        for k in range(n_order):
            s = order[k]
            h = np.int64(0)
            for i in range(pos, pos + 13):
                j, s0, s1, s2, s3 = _below(n - i, s0, s1, s2, s3)
                j += i
                t = deck[i]
                deck[i] = deck[j]
                deck[j] = t
                h |= np.int64(1) << deck[i]
            pos += 13
            hands[m, s] = h
            if not _fits(h, K, s):
                ok = False
                break
        if not ok:
            continue
        for s in range(4):
            if K[s, K_FIXED] >= 0:
                hands[m, s] = K[s, K_FIXED]
                if not _fits(K[s, K_FIXED], K, s):
                    return -1
        return attempt + 1
    return -1


@jit(parallel=True)
def deal_constrained_chunk(seed, start, count, n_blocks, K, order, n_order, hands, tries,
                           max_tries):
    for b in prange(n_blocks):
        state = np.zeros(4, dtype=np.uint64)
        deck = np.zeros(52, dtype=np.int64)
        for m in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            tries[m] = deal_constrained(seed, start + m, K, order, n_order, state, deck,
                                        hands, m, max_tries)


def plan(constraints: Constraints) -> tuple[np.ndarray, np.ndarray]:
    """(constraint matrix, the seats to deal: the constrained ones first)."""
    K = constraints.matrix()
    free = [s for s in range(4) if K[s, K_FIXED] < 0]
    cons = [s for s in free if _constrained(K, s)]
    return K, np.array(cons + [s for s in free if s not in cons], dtype=np.int64)


def deal(constraints: Constraints, seed: int, start: int, count: int,
         max_tries: int = 10_000_000) -> np.ndarray:
    """Boards ``start .. start + count - 1`` satisfying ``constraints``: int64
    ``(count, 4)`` masks. Raises when a board needs more than ``max_tries`` attempts."""
    wrong = constraints.impossible()
    if wrong:
        raise BidlabError("no deal can meet these constraints: " + "; ".join(wrong))
    K, order = plan(constraints)
    hands = np.zeros((count, 4), dtype=np.int64)
    tries = np.zeros(count, dtype=np.int64)
    if count:
        blocks = max(1, min(count, 4 * numba.get_num_threads()))
        deal_constrained_chunk(np.uint64(seed), start, count, blocks, K, order, len(order),
                               hands, tries, max_tries)
    if (tries < 0).any():
        raise BidlabError(f"board {start + int(np.argmax(tries < 0))}: no deal satisfies the "
                          f"constraints within {max_tries:,} attempts (are they possible?)")
    return hands
