"""bridge bidding policies (one decision: the call).

``bid(pid, o, p, rng, oracle)`` returns a call code (``sim/games/bridge/core.py``:
``PASS`` 0, ``DOUBLE`` 1, ``REDOUBLE`` 2, bids ``3 + 5 * (level - 1) + strain``) from
the observation ``o`` (``sim/games/bridge/obs.py``: the calls so far and the seat's own
hand), the parameter vector ``p`` and the seat's random stream ``rng``. ``oracle`` is the
board's par contract (level, strain, declarer, doubled); only ``par`` reads it, and
``par`` is labelled as cheating: it sees the double-dummy result of all four hands.

Policies are dispatched by integer id (one branch per policy), as in every game here:
it compiles once, loads from numba's disk cache and runs fastest.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.bridge import core as C
from sim.games.bridge import obs as O
from sim.rng import below, uniform
from strategies.base import GameStrategies, Param, Policy

PASS_POLICY, RANDOM, NATURAL, PAR = range(4)

# natural's parameters (indices into p), documented in NATURAL_PARAMS.
(N_OPEN, N_NT_LO, N_NT_HI, N_STRONG, N_RESPOND, N_INVITE, N_GAME, N_SLAM, N_OVERCALL,
 N_PENALTY, N_PREEMPT, N_GRAND) = range(12)

NATURAL_PARAMS = (
    Param("open_min", 12, 8, 16, "opening strength: HCP + 1 per card beyond four in a suit "
          "(length points) at least this opens at the one level", integer=True),
    Param("nt_min", 15, 10, 22, "1NT opening range, low end (balanced hands, HCP)",
          integer=True),
    Param("nt_max", 17, 10, 24, "1NT opening range, high end (HCP)", integer=True),
    Param("strong_min", 22, 18, 30, "2C (strong, artificial) with this many points or more",
          integer=True),
    Param("respond_min", 6, 3, 10, "a responder with fewer points passes partner's one-level "
          "opening", integer=True),
    Param("invite_min", 23, 20, 26, "combined points (own + partner's shown minimum) for an "
          "invitational raise or 2NT", integer=True),
    Param("game_min", 25, 22, 29, "combined points to bid game (3NT, 4H/4S, 5C/5D with "
          "game_min + 3)", integer=True),
    Param("slam_min", 33, 29, 36, "combined points to bid a small slam", integer=True),
    Param("overcall_min", 8, 5, 14, "HCP to overcall at the one level with a five-card suit "
          "(two-level overcalls want 3 more)", integer=True),
    Param("penalty_min", 3, 1, 6, "defensive tricks needed to double a contract for "
          "penalty: the doubler's quick tricks + trumps beyond three, and partner's "
          "shown strength, must beat the tricks the opponents need", integer=False),
    Param("preempt_len", 7, 6, 8, "a weak hand with a suit this long opens at the three "
          "level (six cards: a weak two in D/H/S)", integer=True),
    Param("grand_min", 37, 34, 40, "combined points to bid a grand slam", integer=True),
)

POLICIES = (
    Policy("pass", "bid", PASS_POLICY, "always passes (every board is passed out)"),
    Policy("random", "bid", RANDOM, "random legal calls: with probability p_bid one of the "
           "lowest `span` legal bids at random; doubles and redoubles rarely "
           "(p_double); otherwise a pass", (
               Param("p_bid", 0.25, 0.0, 1.0, "probability of bidding"),
               Param("span", 3, 1, 35, "bid among this many lowest legal bids", integer=True),
               Param("p_double", 0.03, 0.0, 1.0, "probability of a double or redouble when "
                     "one is legal"),
           )),
    Policy("natural", "bid", NATURAL,
           "a compact natural system (see strategies/bridge.py): five-card majors, 1NT "
           "nt_min..nt_max, strong 2C, weak twos and preempts; responses by points with "
           "raises on three-card (major) support, new suits forcing one round, NT by points; "
           "the captain (whoever knows partner's range) places the contract by combined "
           "points and the best fit: partscore, invitation, game, slam; simple overcalls, "
           "takeout doubles of one-level openings, and penalty doubles by defensive tricks",
           NATURAL_PARAMS),
    Policy("par", "bid", PAR, "CHEATING ORACLE: bids the board's double-dummy par contract "
           "(it sees all four hands through the solver); a yardstick, not a strategy"),
)

STRATEGIES = GameStrategies("bridge", ("bid",), POLICIES, default="natural")


@njit(cache=True, _nrt=False)
def random_call(o, p, rng):
    legal = o[O.LEGAL]
    if legal & ((np.int64(1) << C.DOUBLE) | (np.int64(1) << C.REDOUBLE)):
        if uniform(rng) < p[2]:
            return C.DOUBLE if legal & (np.int64(1) << C.DOUBLE) else C.REDOUBLE
    lo = C.FIRST_BID if o[O.LAST_BID] == 0 else o[O.LAST_BID] + 1
    if lo < C.N_CALLS and uniform(rng) < p[0]:
        n = min(np.int64(p[1]), C.N_CALLS - lo)
        return lo + below(rng, max(n, 1))
    return C.PASS


@njit(cache=True, _nrt=False)
def par_call(o, oracle):
    level = oracle[0]
    if level == 0:
        return C.PASS
    code = C.bid_code(level, oracle[1])
    seat = o[O.SEAT]
    declarer = oracle[2]
    if seat == declarer and o[O.LAST_BID] < code:
        return code
    if (oracle[3] >= 1 and (seat - declarer) % 2 == 1 and o[O.LAST_BID] == code
            and o[O.LAST_BIDDER] == declarer and o[O.DOUBLED] == 0):
        return C.DOUBLE
    return C.PASS


# -- natural ------------------------------------------------------------------------

# The system, in short (every threshold a parameter; "points" = HCP + 1 per card
# beyond four in a suit; partner's "shown minimum" is read from his calls):
# - Opening (nobody has bid): strong_min+ -> 2C; balanced nt_min..nt_max -> 1NT;
#   balanced nt_max+3..nt_max+4 -> 2NT; open_min+ -> 1 of a five-card major (spades
#   with 5-5), else the longer minor (1D with 4-4, 1C with 3-3); 5..10 HCP with six
#   D/H/S -> weak two, with preempt_len cards -> three of the suit; else pass.
# - Opponents opened and our side is silent: a five-card suit with overcall_min HCP
#   (3 more at the two level) overcalls at the cheapest level; 12+ HCP, at most two
#   cards in their suit and three in each unbid major -> takeout double.
# - Partner has bid: the "captain" adds his own points (with shortness when a fit is
#   known) to partner's shown minimum and places the contract in the best fit (eight
#   cards, majors first) or notrump: grand_min -> 7, slam_min -> 6, game_min -> game
#   (3NT, 4H/4S; 5C/5D needs game_min + 3, else 3NT), invite_min -> one below game,
#   else the cheapest partscore; a responder without a fit and a four-card suit
#   biddable at the one level shows it first (forcing one round), partner's takeout
#   double is answered in the longest unbid suit. A bid already at the target is
#   passed; an invitation is accepted with two points over the minimum shown.
# - Penalty double: the opponents' last bid at the two level or higher, when the
#   seat's defensive tricks (quick tricks + trumps beyond three) reach penalty_min and,
#   with partner's shown strength, beat the contract.

@njit(cache=True, _nrt=False)
def _features(hand):
    """(suit lengths C D H S, hcp, points, balanced, shortness points)."""
    h = C.hcp(hand)
    extra = 0
    short = 0
    singles = 0
    doubles = 0
    for s in range(4):
        n = C.suit_length(hand, s)
        if n > 4:
            extra += n - 4
        if n == 0:
            short += 5
            singles += 2
        elif n == 1:
            short += 3
            singles += 2
        elif n == 2:
            short += 1
            doubles += 1
    balanced = singles == 0 and doubles <= 1
    lens = (C.suit_length(hand, 0), C.suit_length(hand, 1), C.suit_length(hand, 2),
            C.suit_length(hand, 3))
    return lens, h, h + extra, balanced, short


@njit(cache=True, _nrt=False)
def _quick_tricks(hand, suit):
    bits = (np.int64(hand) >> np.int64(13 * suit)) & np.int64(0x1FFF)
    a = (bits >> 12) & 1
    k = (bits >> 11) & 1
    q = (bits >> 10) & 1
    if a and k:
        return 2.0
    if a and q:
        return 1.5
    if a:
        return 1.0
    if k and q:
        return 1.0
    if k:
        return 0.5
    return 0.0


@njit(cache=True, _nrt=False)
def _cheapest(last_bid, strain):
    """Cheapest legal bid in ``strain`` over ``last_bid`` (a code > 37 if none)."""
    if last_bid == 0:
        return C.bid_code(1, strain)
    lvl = C.bid_level(last_bid)
    if strain > C.bid_strain(last_bid):
        return C.bid_code(lvl, strain)
    return C.bid_code(lvl + 1, strain)


@njit(cache=True, _nrt=False)
def _game_level(strain):
    if strain == C.NOTRUMP:
        return 3
    if strain >= 2:
        return 4
    return 5


@njit(cache=True, _nrt=False)
def natural_call(o, p):
    me = o[O.SEAT]
    partner = (me + 2) % 4
    hand = o[O.HAND]
    n = o[O.N_CALLS]
    last = o[O.LAST_BID]
    lens, hcp, pts, balanced, short = _features(hand)
    # -- read the auction: opener, partner's shown minimum and suit lengths ------------
    opener = -1
    opening = 0
    p_min = 0
    p_len0 = 0
    p_len1 = 0
    p_len2 = 0
    p_len3 = 0
    p_bal = False
    p_bids = 0
    p_double = False
    my_bids = 0
    my_first = 0
    opp_bid = False
    opp_suit = -1
    seat = o[O.DEALER]
    prev_ours = 0                      # last bid made by our side (code)
    doubler = -1
    for k in range(n):
        c = o[O.CALLS + k]
        if c >= C.FIRST_BID:
            st = C.bid_strain(c)
            lv = C.bid_level(c)
            if opener < 0:
                opener = seat
                opening = c
            if seat == partner:
                if p_bids == 0:
                    if seat == opener:
                        if c == C.bid_code(1, 4):
                            p_min = np.int64(p[N_NT_LO])
                            p_bal = True
                        elif c == C.bid_code(2, 4):
                            p_min = np.int64(p[N_NT_HI]) + 3
                            p_bal = True
                        elif c == C.bid_code(2, 0):
                            p_min = np.int64(p[N_STRONG])
                        elif lv == 1:
                            p_min = np.int64(p[N_OPEN])
                        else:
                            p_min = 5
                    elif opener % 2 == partner % 2:
                        # a response to my opening
                        if st == C.NOTRUMP:
                            p_min = 6 if lv == 1 else (11 if lv == 2 else 13)
                        elif my_first != 0 and st == C.bid_strain(my_first):
                            p_min = 6 if lv <= 2 else (10 if lv == 3 else 12)
                        else:
                            p_min = 6 if lv == 1 else 10
                    else:
                        p_min = np.int64(p[N_OVERCALL]) if lv == 1 else np.int64(p[N_OVERCALL]) + 3
                if st < 4:
                    shown = 4
                    if seat == opener and p_bids == 0:
                        if lv == 1:
                            shown = 5 if st >= 2 else 3
                        elif c != C.bid_code(2, 0):
                            shown = 6 if lv == 2 else 7
                        else:
                            shown = 0
                    elif seat != opener and opener % 2 != partner % 2 and p_bids == 0:
                        shown = 5
                    elif p_bids > 0 and prev_ours != 0 and C.bid_strain(prev_ours) == st:
                        shown = 3                  # a raise or a rebid: at least three
                    if st == 0:
                        p_len0 = max(p_len0, shown)
                    elif st == 1:
                        p_len1 = max(p_len1, shown)
                    elif st == 2:
                        p_len2 = max(p_len2, shown)
                    else:
                        p_len3 = max(p_len3, shown)
                p_bids += 1
            elif seat == me:
                if my_bids == 0:
                    my_first = c
                my_bids += 1
            else:
                opp_bid = True
                if opp_suit < 0 and st < 4:
                    opp_suit = st
            if seat % 2 == me % 2:
                prev_ours = c
        elif c == C.DOUBLE and seat == partner and p_bids == 0:
            p_double = True
            p_min = 12
        if c == C.DOUBLE:
            doubler = seat
        seat = (seat + 1) % 4
    ours = last != 0 and o[O.LAST_BIDDER] % 2 == me % 2
    # -- opening ------------------------------------------------------------------
    if opener < 0:
        if pts >= p[N_STRONG]:
            return C.bid_code(2, 0)
        if balanced and p[N_NT_LO] <= hcp <= p[N_NT_HI]:
            return C.bid_code(1, 4)
        if balanced and p[N_NT_HI] + 3 <= hcp <= p[N_NT_HI] + 4:
            return C.bid_code(2, 4)
        if pts >= p[N_OPEN]:
            if lens[3] >= 5 and lens[3] >= lens[2]:
                return C.bid_code(1, 3)
            if lens[2] >= 5:
                return C.bid_code(1, 2)
            if lens[1] > lens[0] or (lens[1] == lens[0] and lens[1] >= 4):
                return C.bid_code(1, 1)
            return C.bid_code(1, 0)
        if 5 <= hcp <= 10:
            for st in range(3, -1, -1):
                if lens[st] >= p[N_PREEMPT]:
                    return C.bid_code(3, st)
            for st in range(3, 0, -1):
                if lens[st] == 6:
                    return C.bid_code(2, st)
        return C.PASS
    # -- penalty double of the opponents' contract -----------------------------------
    if last != 0 and not ours and o[O.DOUBLED] == 0 and C.bid_level(last) >= 2:
        st = C.bid_strain(last)
        dt = 0.0
        for s in range(4):
            dt += _quick_tricks(hand, s)
        if st < 4 and lens[st] > 3:
            dt += lens[st] - 3
        if dt >= p[N_PENALTY] and dt + p_min / 4.0 >= 14 - (C.bid_level(last) + 6):
            return C.DOUBLE
    # -- opponents opened, our side silent --------------------------------------------
    if opener % 2 != me % 2 and p_bids == 0 and not p_double:
        if my_bids > 0:
            return C.PASS
        best = -1
        for st in range(4):
            if lens[st] >= 5 and st != opp_suit and (best < 0 or lens[st] > lens[best]):
                best = st
        if best >= 0:
            code = _cheapest(last, best)
            lv = C.bid_level(code)
            if (lv == 1 and hcp >= p[N_OVERCALL]) or (lv == 2 and hcp >= p[N_OVERCALL] + 3):
                return code
        if (hcp >= 12 and opp_suit >= 0 and last != 0 and C.bid_level(last) == 1
                and lens[opp_suit] <= 2 and o[O.DOUBLED] == 0 and not ours):
            ok = True
            for st in range(2, 4):
                if st != opp_suit and lens[st] < 3:
                    ok = False
            if ok:
                return C.DOUBLE
        return C.PASS
    # -- partner has spoken: be the captain -----------------------------------------
    if p_bids == 0 and not p_double:
        return C.PASS                      # partner passed; we opened: done unless forced
    if p_double and my_bids == 0 and not ours:
        best = -1
        for st in range(3, -1, -1):
            if st != opp_suit and (best < 0 or lens[st] > lens[best]):
                best = st
        code = _cheapest(last, best)
        if hcp >= 10 and code + 5 < C.N_CALLS:
            code += 5
        return code if code < C.N_CALLS else C.PASS
    plen0 = p_len0
    # best fit (majors first), with shortness counted once a fit is known
    fit = -1
    for st in (3, 2, 1, 0):
        pl = p_len3 if st == 3 else p_len2 if st == 2 else p_len1 if st == 1 else plen0
        if lens[st] + pl >= 8 and (fit < 0 or (fit < 2 <= st) or
                                   (st < 2 and fit < 2 and lens[st] > lens[fit])):
            if fit < 0 or (fit < 2 and st >= 2):
                fit = st
    combined = (hcp + short if fit >= 0 else pts) + p_min
    strain = fit
    if strain < 0 or (strain < 2 and (balanced or p_bal) and combined < p[N_GAME] + 3):
        strain = C.NOTRUMP if (balanced or p_bal or p_bids > 1) else -1
    # a responder without a fit shows a four-card suit at the one level first
    if strain < 0 or (fit < 0 and my_bids == 0 and not p_bal):
        if my_bids == 0 and opener == partner and opening != C.bid_code(2, 0):
            for st in range(4):
                if lens[st] >= 4 and hcp >= p[N_RESPOND]:
                    code = _cheapest(last, st)
                    if C.bid_level(code) == 1:
                        return code
            if hcp < p[N_RESPOND]:
                return C.PASS
            if strain < 0:
                strain = C.NOTRUMP
        elif strain < 0:
            # no fit known: rebid a six-card suit or notrump
            best = 0
            for st in range(4):
                if lens[st] > lens[best]:
                    best = st
            strain = best if lens[best] >= 6 else C.NOTRUMP
    if my_bids == 0 and opener == partner and hcp < p[N_RESPOND] and p_min < p[N_STRONG]:
        return C.PASS
    if combined >= p[N_GRAND]:
        level = 7
    elif combined >= p[N_SLAM]:
        level = 6
    elif combined >= p[N_GAME] + (3 if strain < 2 else 0):
        level = _game_level(strain)
    elif combined >= p[N_GAME] and strain < 2:
        strain = C.NOTRUMP
        level = 3
    elif combined >= p[N_INVITE]:
        level = _game_level(strain) - 1
        if strain < 2:
            level = 3
    else:
        level = 0                          # the cheapest partscore in the strain
    # an invitation from partner (his bid one below game in our strain): accept with
    # two points over the minimum he thinks we hold
    if (ours and o[O.LAST_BIDDER] == partner and C.bid_strain(last) == strain
            and C.bid_level(last) == _game_level(strain) - 1 and my_bids > 0):
        if pts >= p[N_OPEN] + 2 or combined >= p[N_GAME] + 2:
            level = _game_level(strain)
        else:
            return C.PASS
    if o[O.DOUBLED] == 1 and doubler == partner:
        return C.PASS                      # partner's penalty double stands
    if level == 0:
        # a partscore: compete only to the level of the fit's length minus six
        # ("law of total tricks"), two in notrump
        cap = 2
        if strain < 4:
            pl = p_len3 if strain == 3 else p_len2 if strain == 2 else p_len1 if strain == 1 \
                else p_len0
            cap = max(2, lens[strain] + pl - 6)
        code = _cheapest(last, strain)
        if C.bid_level(code) > cap:
            return C.PASS
    if opp_bid and level > _game_level(strain) and combined < p[N_SLAM] + 2:
        level = _game_level(strain)        # no slam in a contested auction without extras
    target = C.bid_code(level, strain) if level > 0 else _cheapest(last, strain)
    if ours and last != 0 and C.bid_strain(last) == strain and last >= target:
        return C.PASS                      # already there
    if ours and level == 0:
        return C.PASS                      # a partscore of ours stands
    if target >= C.N_CALLS:
        return C.PASS
    if target > last:
        return target
    return C.PASS


# -- dispatch -------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def bid(pid, o, p, rng, oracle):
    """One call for the seat in ``o[SEAT]``."""
    if pid == NATURAL:
        return natural_call(o, p)
    if pid == RANDOM:
        return random_call(o, p, rng)
    if pid == PAR:
        return par_call(o, oracle)
    return C.PASS
