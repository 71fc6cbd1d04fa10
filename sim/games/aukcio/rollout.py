"""Bid-EV rollouts for aukcio: play the rest of a match from a situation.

Rollout ``r`` deals the money cards nobody has seen (not in the asking seat's hand nor
in the payment pile) at random: each other seat as many as it holds, the rest in a
random order as the draw pile; and shuffles the face cards still in the auction deck.
That is every deal consistent with the public information (``rules/aukcio.md``), each
equally likely. Then the candidate call is made and the policies play the rest of the
lot and of the match. Every candidate starts rollout ``r`` from the same random
streams ``(seed, r, stream)``: common random numbers.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from sim import harness as H
from sim.cards import JOKER
from sim.game import Rollouts
from sim.games.aukcio import kernel as K
from sim.games.aukcio import obs as O
from sim.games.aukcio.core import card_kind
from sim.games.aukcio.engine import explain
from sim.games.aukcio.rules import JOKERS_PER_DECK, R_JOKERS, R_PLAYERS, pack
from sim.games.aukcio.situation import Situation, action_name, candidates, parse
from sim.harness import show_rules
from sim.jit import jit, prange
from sim.rng import DEAL_STREAM, shuffle
from sim.rules import Rules

P_AUCTION, P_MARK, P_DRAW, P_PAID = K.P_AUCTION, K.P_MARK, K.P_DRAW, K.P_PAID


@jit
def _setup(R, rngs, st, own, held, owned0, pool, paid0, faces, g, piles, suits, counts, h, o):
    """The situation's state with a fresh deal of the hidden cards (rollout's docstring).
    ``st``: seat, card, turner, sitting_out, lot, then who may still call, per seat."""
    n = R[R_PLAYERS]
    seat = st[0]
    rng = rngs[DEAL_STREAM]
    o[:] = 0.0
    show_rules(o, R, K.RULES_SHOWN)
    suits[:n, :] = 0
    counts[:n, :] = 0
    for c in range(53):
        for _ in range(own[c]):
            K._take(suits, counts, seat, c)
    draw = piles[P_DRAW]
    for k in range(pool.shape[0]):
        draw[k] = pool[k]
    shuffle(rng, draw[:pool.shape[0]])
    top = 0
    for t in range(n):
        if t != seat:
            for _ in range(held[t]):
                K._take(suits, counts, t, draw[top])
                top += 1
    g[K.G_DTOP], g[K.G_DEND], g[K.G_RESHUFFLES], g[K.G_LOGGING] = top, pool.shape[0], 0, 0
    g[K.G_NPAID] = paid0.shape[0]
    for k in range(paid0.shape[0]):
        piles[P_PAID, k] = paid0[k]
        o[O.PAID + K._value_index(paid0[k])] += 1
    auction = piles[P_AUCTION]
    for k in range(faces.shape[0]):
        auction[k] = faces[k]
        o[O.IN_DECK + card_kind(faces[k])] += 1
        piles[P_MARK, k] = 0
    shuffle(rng, auction[:faces.shape[0]])
    g[K.G_AHEAD], g[K.G_ASIZE] = 0, faces.shape[0]
    for t in range(n):
        for kind in range(O.KINDS):
            o[O.OWNED + t * O.KINDS + kind] = owned0[t, kind]
        K._refresh_hand(counts, h, o, t, R[R_JOKERS])
        o[O.IN_LOT + t] = st[5 + t]
    o[O.PAYMENT_PILE] = g[K.G_NPAID]
    o[O.DRAW_PILE] = g[K.G_DEND] - g[K.G_DTOP]
    o[O.AUCTION_LEFT] = g[K.G_ASIZE]
    o[O.LOT], o[O.CARD] = st[4], card_kind(st[1])
    o[O.TURNER], o[O.SITTING_OUT], o[O.FIRST] = st[2], st[3], seat
    K._kind_bits(g, o, n)


@jit(parallel=True)
def _rollouts(R, pids, params, table, seed, n_rollouts, st, high, bidder, calls, cands, own, held,
              owned0, pool, paid0, faces, win_out, err_out):
    n = R[R_PLAYERS]
    seat, card, turner, lot = st[0], st[1], st[2], st[4]
    log = np.zeros((0, 3), np.int64)
    n_blocks = max(1, min(n_rollouts, 64))
    for b in prange(n_blocks):
        (rngs, g, piles, suits, counts, h, o, bidders, pay, room, levels,
         best) = K.new_scratch()
        seat_out = np.zeros((K.S_COLS, 1, n), np.int64)
        lot_out = np.zeros((0, K.L_COLS), np.int64)
        offsets = np.zeros(2, np.int64)
        err = np.zeros((1, H.ERR_SIZE), np.int64)
        for r in range(b * n_rollouts // n_blocks, (b + 1) * n_rollouts // n_blocks):
            for c in range(cands.shape[0]):
                K.seed_match(rngs, pids, n, seed, r)
                seat_out[:, 0, :] = 0
                _setup(R, rngs, st, own, held, owned0, pool, paid0, faces, g, piles, suits,
                       counts, h, o)
                buyer, done = K._lot(R, pids, params, table, rngs, g, piles, suits, counts, h, o,
                                     bidders, pay, room, levels, best, card, 0, lot,
                                     seat, high, bidder, calls, cands[c], 0, seat_out,
                                     lot_out, offsets, err, log)
                winner, won_set, lots, sales = buyer, done, lot + 1, 1 if buyer >= 0 else 0
                if err[0, 0] == 0 and done < 0:
                    winner, won_set, lots, sales = K._play_lots(
                        R, pids, params, table, rngs, g, piles, suits, counts, h, o, bidders,
                        pay, room, levels, best, K._next_seat(turner, n), buyer, lot + 1, sales, 0,
                        seat_out, lot_out, offsets, err, log)
                if err[0, 0] != 0:
                    for j in range(H.ERR_SIZE):
                        err_out[r, j] = err[0, j]
                    break
                win_out[r, c] = 1.0 if winner == seat else 0.0


def _hidden(rules: Rules, s: Situation) -> tuple[np.ndarray, np.ndarray]:
    """(money cards nobody has seen, face cards still in the auction deck)."""
    decks = rules.decks
    money = Counter({c: decks for suit in range(4) for c in range(suit * 13, suit * 13 + 9)})
    money[JOKER] = JOKERS_PER_DECK * decks
    money.subtract(s.hand + s.paid)
    faces = Counter({suit * 13 + r: decks for suit in range(4) for r in range(9, 13)})
    faces.subtract(sum(s.owned, []) + [s.card] + s.gone)
    pool = np.array(sorted(money.elements()), np.int64)
    deck = np.array(sorted(faces.elements()), np.int64)
    return pool, deck


def run_rollouts(rules: Rules, policies, labels: tuple[str, ...], situation: dict[str, Any],
                 candidate_calls: list[str] | None, seed: int, n: int,
                 progress: bool | None = None) -> Rollouts:
    """Win share of the asking seat for each candidate call, ``n`` rollouts each."""
    s = parse(rules, situation)
    cands = candidates(rules, s, candidate_calls)
    pool, deck = _hidden(rules, s)
    players = rules.players
    own = np.zeros(53, np.int64)
    for c in s.hand:
        own[c] += 1
    owned0 = np.zeros((players, O.KINDS), np.int64)
    for t, cards in enumerate(s.owned):
        for c in cards:
            owned0[t, card_kind(c)] += 1
    st = np.array([s.seat, s.card, s.turner, s.sitting_out, s.lot] + [int(x) for x in s.in_lot],
                  np.int64)
    pids, params = policies["bid"]
    win = np.zeros((n, len(cands)))
    err = np.zeros((n, H.ERR_SIZE), np.int64)
    _rollouts(pack(rules), np.ascontiguousarray(pids, np.int64),
              np.ascontiguousarray(params, np.float64), H.solution_table(policies),
              np.uint64(seed), n, st, s.high, s.bidder,
              len(s.calls), np.array(cands, np.int64), own, np.array(s.cards, np.int64), owned0,
              pool, np.array(s.paid, np.int64), deck, win, err)
    H.check(err, 0, lambda e, label: "rollout " + explain(e, label).split(", ", 1)[1], labels)
    return Rollouts(actions=[action_name(c) for c in cands], score=win, win=win.copy(),
                    situation=s.to_json())
