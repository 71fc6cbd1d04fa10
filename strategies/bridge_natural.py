"""``natural``: a compact natural bridge bidding system, in numba.

The policy sees its own hand and the calls (rule B8), nothing else. Every threshold is
a named, bounded parameter (``NATURAL_PARAMS``); "points" are HCP plus one per card
beyond four in a suit (length points), and a hand that raises partner's suit counts
support points instead (HCP plus 5/3/1 for a void/singleton/doubleton with four
trumps, 3/2/1 with three).

How a call is chosen. Each seat reads the auction from the start and keeps, for itself
and for its partner, what the calls have shown: a range of points, the least length
in each suit, whether the hand is balanced, and the kind of the last call (forcing,
invitational, to play, artificial, an ace ask...). Both partners read the same public
calls with the same rules, so they agree on what was shown. Then the seat finds its
place in the auction and bids:

Openings (nobody has bid yet)
    1NT with a balanced nt_min..nt_max HCP (5-3-3-2 included), 2NT with nt2_min..nt2_max;
    2C (artificial, forcing) with strong_min points; otherwise with open_min points one
    of the longest suit (five-card majors; 1D with 4-4 in the minors, 1C with 3-3); with
    5..weak_max HCP a weak two in a six-card D/H/S, three of a preempt_len suit, four of
    an eight-card major; else pass.
Over partner's 1NT / 2NT (opponents silent)
    Stayman 2C (3C) with a four-card major and invitational values; Jacoby transfers
    2D->H, 2H->S (3D, 3H over 2NT) with a five-card major, any strength; then the
    responder passes (weak), invites (2NT with five, three of the major with six) or
    bids game (3NT with five, letting opener choose; four of the major with six).
    Without a major: 2NT invites, 3NT, 4NT quantitative (opener bids 6NT with the upper
    half of his range), 6NT, 7NT by combined HCP (game_min, slam_min, grand_min). With
    a fit found by Stayman or a six-card transfer suit, five of the major is a slam try.
    Opener answers Stayman 2D (no major) / 2H / 2S and completes transfers. After 2C-2D
    the opener bids 2NT (strong_min..+2 balanced), 3NT (more) or his longest suit.
Over partner's one of a suit
    With support (three cards for a major, four for 1D, five for 1C), by support
    points: a single raise (respond_min..limit_raise_min-1), a limit raise
    (limit_raise_min up to game values), Jacoby 2NT over a major with game values
    (game_min - open_min), a preemptive jump to four of the major with five trumps
    and a weak hand. Otherwise a four-card major at the one level (forcing), a 2/1
    new suit with two_over_one_min HCP (forcing), or notrump by HCP (1NT, over a minor
    2NT invitational, 3NT). In competition: a cue-bid of their suit is a limit raise
    or better, raises compete to the level of the fit's length minus six, a new
    five-card suit is forcing, a negative double shows the unbid major(s), notrump
    needs a stopper.
Opener's rebid
    After a raise the opener places the contract by combined points (after Jacoby 2NT:
    four of the major with a minimum, three with extras); after a new suit or 1NT he
    describes: a raise of partner's major (single, jump, game by strength), a major at
    the one level, notrump (12-14 cheapest, 18-19 jump), a five-card second suit before
    his own six-card suit (cheapest, jump with 16-18), a lower second suit, a reverse
    with 17+, a jump shift with 19+.
Competition
    Overcalls with a five-card suit (overcall_min HCP at the one level,
    overcall_two_min at the two), weak jump overcalls with six cards, 1NT overcall
    (nt_min..nt_max+1 with a stopper), takeout doubles (takeout_min with shortness in
    their suit and three cards in each unbid major, or any very strong hand); the
    fourth seat balances with balance_allow points less. The advancer raises with
    support (cue-bid with a limit raise), bids notrump with a stopper, answers a
    takeout double in his best suit (jump with 9-12, game with more), and over a 1NT
    overcall bids a five-card major or notrump. The opener reopens with a (takeout)
    double when an overcall is passed round to him and he is short in its suit.
    Partscore battles follow the law of total tricks (compete to the fit's length minus
    six, plus compete_margin).
Everything else: the captain
    The player who knows his partner's range places the contract: the best eight-card
    fit (majors first; a minor only when notrump does not suit the hands), else
    notrump or a six-card suit; combined points (own + partner's shown minimum) reach
    grand_min -> seven, slam_min -> six (with a major fit after a Blackwood 4NT ace
    ask: five when two aces are missing, seven needs all four), game_min -> game
    (minor_game_min for five of a minor), invite_min with partner's maximum -> an
    invitation (one below game, or 2NT), else a partscore. An invitation is accepted
    with the upper half of the range shown; with an agreed major and slam possible
    opposite partner's maximum, five of the major asks for the upper half. 4NT directly
    over partner's natural notrump is quantitative, otherwise Blackwood.
Penalty doubles (rare, sound)
    A bid of theirs at the two level or higher is doubled when the doubler holds
    penalty_min defensive tricks (quick tricks + trump length beyond three) and, with
    partner's shown strength (a trick per four points), the side expects to beat it by
    a trick; a sacrifice over the side's own game is doubled when the side has game
    values and no fit long enough to bid on.

The defaults are standard bridge values, tuned where double-dummy results disagreed
(coordinate descent on mean |IMPs against par|, seed 5 boards 0..1999; scoring here is
on double-dummy tricks, which reward aggressive slams): strong_min 21, respond_min 7,
overcall_min 7, penalty_min 4.5, limit_raise_min 12, slam_min 31.

Speed. The kernel asks for a call about nine times per auction. An answer does not
replay the whole auction: the reader goes on from the state it left in the seat's memo
(shared by partners with the same parameters, who read alike), and the replay skips
passes without a branch per call (a bit mask of the non-pass calls, jumped through
with tzcnt). Defenders who have not bid skip it, and a few functions are inlined where
the call overhead showed in profiles.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import types
from numba.extending import intrinsic, overload

from strategies.base import Param

# -- parameters (indices into p) --------------------------------------------------------
(OPEN_MIN, NT_MIN, NT_MAX, STRONG_MIN, RESPOND_MIN, INVITE_MIN, GAME_MIN, SLAM_MIN,
 OVERCALL_MIN, PENALTY_MIN, PREEMPT_LEN, GRAND_MIN, NT2_MIN, NT2_MAX, MINOR_GAME_MIN,
 LIMIT_RAISE_MIN, TWO_OVER_ONE_MIN, OVERCALL_TWO_MIN, TAKEOUT_MIN, WEAK_MAX,
 BALANCE_ALLOW, COMPETE_MARGIN) = range(22)

NATURAL_PARAMS = (
    Param("open_min", 12, 8, 16, "points (HCP + length) to open one of a suit", integer=True),
    Param("nt_min", 15, 10, 22, "1NT opening range, low end (balanced, HCP)", integer=True),
    Param("nt_max", 17, 10, 24, "1NT opening range, high end (HCP)", integer=True),
    Param("strong_min", 21, 18, 30, "points for the strong artificial 2C opening",
          integer=True),
    Param("respond_min", 7, 3, 10, "points to answer partner's one-level opening (fewer: "
          "pass)", integer=True),
    Param("invite_min", 25, 22, 28, "invite game when own points + partner's shown "
          "maximum reach this (and own + partner's minimum fall short of game_min)",
          integer=True),
    Param("game_min", 25, 22, 29, "combined points (own + partner's shown minimum) for "
          "3NT or four of a major", integer=True),
    Param("slam_min", 31, 29, 36, "combined points for a small slam (6NT, or six of a "
          "fit after an ace ask)", integer=True),
    Param("overcall_min", 7, 5, 14, "HCP to overcall a five-card suit at the one level",
          integer=True),
    Param("penalty_min", 4.5, 1, 6, "own defensive tricks (quick tricks + trumps beyond "
          "three) needed for a penalty double; with partner's shown points (a trick per "
          "four) the side must expect to beat the contract by a trick"),
    Param("preempt_len", 7, 6, 8, "suit length for a three-level preempt (six cards: a "
          "weak two in D/H/S)", integer=True),
    Param("grand_min", 37, 34, 40, "combined points for a grand slam", integer=True),
    Param("nt2_min", 20, 18, 24, "2NT opening range, low end (balanced, HCP)",
          integer=True),
    Param("nt2_max", 21, 18, 25, "2NT opening range, high end (HCP)", integer=True),
    Param("minor_game_min", 28, 25, 32, "combined points for five of a minor (else 3NT "
          "or a partscore)", integer=True),
    Param("limit_raise_min", 12, 8, 12, "support points for a limit (jump) raise of "
          "partner's suit (a single raise from respond_min, a game-forcing raise from "
          "game_min - open_min)", integer=True),
    Param("two_over_one_min", 10, 8, 13, "HCP for a new suit at the two level in "
          "response (2/1, forcing)", integer=True),
    Param("overcall_two_min", 11, 8, 16, "HCP to overcall at the two level (two more "
          "per level above)", integer=True),
    Param("takeout_min", 12, 9, 16, "HCP for a takeout double (two more per level "
          "above one; any shape with six more)", integer=True),
    Param("weak_max", 10, 7, 12, "most HCP for a weak two, preempt or weak jump "
          "overcall (at least 5)", integer=True),
    Param("balance_allow", 3, 0, 6, "points less needed to act in the passout seat",
          integer=True),
    Param("compete_margin", 0, -1, 1, "compete in a partscore to the fit's length minus "
          "six plus this (law of total tricks)", integer=True),
)

# Imported after the parameters: ``sim.games.bridge`` loads its kernel, which imports
# ``strategies.bridge``, which reads NATURAL_PARAMS from this (then half-loaded) module.
from sim.games.bridge import core as C  # noqa: E402
from sim.games.bridge import obs as O  # noqa: E402

# -- hand features ------------------------------------------------------------------------
_HONOURS = np.array([4 * (i >> 3 & 1) + 3 * (i >> 2 & 1) + 2 * (i >> 1 & 1) + (i & 1)
                     for i in range(16)], dtype=np.int64)
"""HCP of the four top cards of a suit (bits A K Q J, from ``bits >> 9``): a 16-entry
table stays in the L1 cache (a table per 13-card suit pattern would not)."""
ACE, KING, QUEEN, JACK = 1 << 12, 1 << 11, 1 << 10, 1 << 9
MAJORS = (2, 3)


def _popcount(x):
    """Set bits of an int64: the CPU's population count in compiled code (the hot path
    counts suit lengths on every call), ``int.bit_count`` in plain Python."""
    return int(x).bit_count()


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@overload(_popcount)
def _popcount_compiled(x):
    return lambda x: _ctpop(np.int64(x))


def _trailing_zeros(x):
    """Zero bits below the lowest set bit of a non-zero int64 (the CPU's tzcnt)."""
    return (int(x) & -int(x)).bit_length() - 1


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.int64), codegen


@overload(_trailing_zeros)
def _trailing_zeros_compiled(x):
    return lambda x: _cttz(np.int64(x))


@njit(cache=True, _nrt=False)
def _bits(hand, s):
    return (np.int64(hand) >> np.int64(13 * s)) & np.int64(0x1FFF)


@njit(cache=True, _nrt=False, inline='always')
def _hand(hand):
    """(suit lengths C D H S, HCP) from a 52-bit card mask."""
    b0, b1, b2, b3 = _bits(hand, 0), _bits(hand, 1), _bits(hand, 2), _bits(hand, 3)
    lens = (_popcount(b0), _popcount(b1), _popcount(b2), _popcount(b3))
    return lens, _HONOURS[b0 >> 9] + _HONOURS[b1 >> 9] + _HONOURS[b2 >> 9] + _HONOURS[b3 >> 9]


@njit(cache=True, _nrt=False)
def _length_points(hcp, lens):
    return hcp + max(lens[0] - 4, 0) + max(lens[1] - 4, 0) + max(lens[2] - 4, 0) + \
        max(lens[3] - 4, 0)


# Shortness points by suit length (void, singleton, doubleton) with four trumps or more,
# and with three; tables, so the hot path does not branch on every suit.
_SHORT4 = np.array([5, 3, 1] + [0] * 11, dtype=np.int64)
_SHORT3 = np.array([3, 2, 1] + [0] * 11, dtype=np.int64)


@njit(cache=True, _nrt=False)
def _support_points(hcp, lens, trump):
    """HCP + shortness, for the hand that raises (dummy points)."""
    t = _SHORT4 if lens[trump] >= 4 else _SHORT3
    return hcp + t[lens[0]] + t[lens[1]] + t[lens[2]] + t[lens[3]] - t[lens[trump]]


@njit(cache=True, _nrt=False)
def _balanced(lens):
    """4-3-3-3, 4-4-3-2, 5-3-3-2: no suit shorter than two, at most one doubleton."""
    doubletons = (lens[0] == 2) + (lens[1] == 2) + (lens[2] == 2) + (lens[3] == 2)
    return min(min(lens[0], lens[1]), min(lens[2], lens[3])) >= 2 and doubletons <= 1


@njit(cache=True, _nrt=False)
def _no_shortness(lens):
    return min(min(lens[0], lens[1]), min(lens[2], lens[3])) >= 2


@njit(cache=True, _nrt=False)
def _stopper(hand, s):
    """A, Kx, Qxx or Jxxx in suit ``s``."""
    b = _bits(hand, s)
    n = _popcount(b)
    return (b & ACE) != 0 or ((b & KING) != 0 and n >= 2) or ((b & QUEEN) != 0 and n >= 3) \
        or ((b & JACK) != 0 and n >= 4)


@njit(cache=True, _nrt=False)
def _aces(hand):
    n = 0
    for s in range(4):
        if _bits(hand, s) & ACE:
            n += 1
    return n


# Quick tricks by the top three cards of a suit (bits A K Q, from ``bits >> 10``): AK 2,
# AQ 1.5, A or KQ 1, K 0.5 (Kx: a singleton king is no trick, see _quick_tricks).
_QUICK = np.array([0.0, 0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0])


@njit(cache=True, _nrt=False)
def _quick_tricks(hand):
    total = 0.0
    for s in range(4):
        b = _bits(hand, s)
        total += _QUICK[b >> 10]
        if b == KING:
            total -= 0.5
    return total


# -- what a player has shown: a range and suit lengths, packed in one int64 ------------
# bits 0-5 low end of the range (points), 6-11 high end, 12-27 least length per suit
# (4 bits each, C D H S), 28 balanced, 29-31 aces shown (7: unknown).
_FRESH = np.int64(37 << 6) | np.int64(7 << 29)


@njit(cache=True, _nrt=False)
def lo_of(pr):
    return pr & 63


@njit(cache=True, _nrt=False)
def hi_of(pr):
    return (pr >> 6) & 63


@njit(cache=True, _nrt=False)
def len_of(pr, s):
    return (pr >> (12 + 4 * s)) & 15


@njit(cache=True, _nrt=False)
def balanced_of(pr):
    return (pr >> 28) & 1 == 1


@njit(cache=True, _nrt=False)
def aces_of(pr):
    return (pr >> 29) & 7


@njit(cache=True, _nrt=False)
def _with_range(pr, lo, hi):
    """Narrow the range to [lo, hi] (a contradiction keeps the old end)."""
    old_lo, old_hi = lo_of(pr), hi_of(pr)
    new_lo = min(max(old_lo, max(lo, 0)), old_hi)
    new_hi = max(min(old_hi, min(hi, 37)), new_lo)
    return (pr & ~np.int64(4095)) | np.int64(new_lo) | (np.int64(new_hi) << 6)


@njit(cache=True, _nrt=False)
def _with_len(pr, s, n):
    if s > 3 or len_of(pr, s) >= n:
        return pr
    shift = 12 + 4 * s
    return (pr & ~(np.int64(15) << shift)) | (np.int64(min(n, 13)) << shift)


@njit(cache=True, _nrt=False)
def _with_balanced(pr):
    pr = pr | (np.int64(1) << 28)
    for s in range(4):
        pr = _with_len(pr, s, 2)
    return pr


@njit(cache=True, _nrt=False)
def _with_aces(pr, n):
    return (pr & ~(np.int64(7) << 29)) | (np.int64(n) << 29)


# -- kinds of call (what partner must do next) --------------------------------------------
(K_NONE, K_FORCE, K_INVITE, K_SIGNOFF, K_ART, K_STAYMAN, K_TRANSFER, K_ASK, K_REPLY,
 K_QUANT, K_TAKEOUT, K_PENALTY, K_NT) = range(13)
"""K_NONE natural, may be passed; K_FORCE one round forcing; K_INVITE to game (accept with
the upper half); K_SIGNOFF to play; K_ART an artificial answer (Stayman reply, transfer
completion, 2D waiting); K_STAYMAN, K_TRANSFER; K_ASK Blackwood 4NT; K_REPLY its answer;
K_QUANT a quantitative slam invitation; K_TAKEOUT a takeout double; K_PENALTY a penalty
double; K_NT a natural notrump bid."""
K_LATER = -1
"""Internal to the reader: the call is read by the captain's rules (``_m_later``)."""


# -- small auction helpers ----------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _strain(code):
    """``core.bid_strain`` in unsigned arithmetic (no floor-division sign fix-up: it runs
    for every bid of every replay). Only meaningful for bids."""
    return np.int64(np.uint64(code - C.FIRST_BID) % np.uint64(5))


@njit(cache=True, _nrt=False)
def _level(code):
    """``core.bid_level`` in unsigned arithmetic; only meaningful for bids."""
    return np.int64(np.uint64(code - C.FIRST_BID) // np.uint64(5)) + 1


@njit(cache=True, _nrt=False)
def _bid_mask(o):
    """Bit ``k`` set when call ``k`` is not a pass; -1 for an auction of more than 62
    calls. Built without a branch per call, it lets the replays jump from one bid to
    the next instead of testing every pass (unpredictable branches are the cost here)."""
    n = o[O.N_CALLS]
    if n > 62:
        return np.int64(-1)
    m = np.int64(0)
    for k in range(n):
        m |= np.int64(_call(o, k) != C.PASS) << k
    return m


@njit(cache=True, _nrt=False)
def _next_call(o, k, n, mask):
    """The first call at or after ``k`` that is not a pass (``n`` if none)."""
    if mask >= 0:
        rest = mask >> k
        return n if rest == 0 else k + _trailing_zeros(rest)
    while k < n and _call(o, k) == C.PASS:
        k += 1
    return k


@njit(cache=True, _nrt=False)
def _call(o, k):
    """Call number ``k`` of the auction (an unsigned index: no negative-index fix-up in
    the hot loops)."""
    return o[np.uint64(O.CALLS + k)]


@njit(cache=True, _nrt=False)
def _cheapest(last, strain):
    """Cheapest bid in ``strain`` over the bid ``last`` (0: none); > 37 when none."""
    if last == 0:
        return C.bid_code(1, strain)
    lvl = _level(last)
    if strain > _strain(last):
        return C.bid_code(lvl, strain)
    return C.bid_code(lvl + 1, strain)


@njit(cache=True, _nrt=False)
def _game_level(strain):
    if strain == C.NOTRUMP:
        return 3
    return 4 if strain >= 2 else 5


@njit(cache=True, _nrt=False)
def _is_jump(c, last):
    return c > _cheapest(last, _strain(c))


@njit(cache=True, _nrt=False)
def _ace_reply(aces):
    """Blackwood answer: 5C 0 or 4, 5D 1, 5H 2, 5S 3."""
    return C.bid_code(5, aces % 4)


# -- the auction as both partners read it ---------------------------------------------------
# The reader returns one tuple; these name its fields.
(R_PART, R_MY_KIND, R_PA_KIND, R_MY_N, R_PA_N, R_OPENER, R_OPENING, R_RESPONSE, R_AGREED,
 R_OPP_SUITS, R_OPP_SINCE, R_PA_LAST, R_OPP_LAST, R_INTERFERED, R_ASKED, R_MINE) = range(16)


@njit(cache=True, _nrt=False)
def _nt_range(opening, p):
    """(level, low, high) of a notrump opening (1NT or 2NT)."""
    if opening == C.bid_code(1, 4):
        return 1, np.int64(p[NT_MIN]), np.int64(p[NT_MAX])
    return 2, np.int64(p[NT2_MIN]), np.int64(p[NT2_MAX])


@njit(cache=True, _nrt=False, inline='always')
def _m_open(c, pr, p):
    """What an opening bid shows."""
    lv, st = _level(c), _strain(c)
    if c == C.bid_code(2, 0):
        return _with_range(pr, np.int64(p[STRONG_MIN]), 37), K_FORCE
    if st == C.NOTRUMP and lv == 1:
        return _with_balanced(_with_range(pr, np.int64(p[NT_MIN]), np.int64(p[NT_MAX]))), K_NT
    if st == C.NOTRUMP and lv == 2:
        return _with_balanced(_with_range(pr, np.int64(p[NT2_MIN]), np.int64(p[NT2_MAX]))), K_NT
    if lv == 1:
        pr = _with_range(pr, np.int64(p[OPEN_MIN]), np.int64(p[STRONG_MIN]) - 1)
        return _with_len(pr, st, 5 if st >= 2 else 3), K_NONE
    pr = _with_range(pr, 5, np.int64(p[WEAK_MAX]))
    n = 6 if lv == 2 else (np.int64(p[PREEMPT_LEN]) if lv == 3 else 8)
    return _with_len(pr, st, n), K_NONE


@njit(cache=True, _nrt=False)
def _m_nt_response(c, pr, opening, p):
    """Responder's first call over partner's 1NT/2NT, opponents silent."""
    L, lo, hi = _nt_range(opening, p)
    lv, st = _level(c), _strain(c)
    if lv == L + 1 and st == 0:
        return _with_range(pr, np.int64(p[INVITE_MIN]) - hi, 37), K_STAYMAN
    if lv == L + 1 and st in (1, 2):
        return _with_len(pr, st + 1, 5), K_TRANSFER
    return _m_nt_raise(c, pr, lo, hi, p)


@njit(cache=True, _nrt=False)
def _m_nt_raise(c, pr, lo, hi, p):
    """A notrump bid placing or inviting opposite partner's notrump range lo..hi."""
    lv, st = _level(c), _strain(c)
    if st != C.NOTRUMP:
        return pr, K_NONE
    game, slam, grand = np.int64(p[GAME_MIN]), np.int64(p[SLAM_MIN]), np.int64(p[GRAND_MIN])
    if lv == 2:
        return _with_range(pr, np.int64(p[INVITE_MIN]) - hi, game - lo - 1), K_INVITE
    if lv == 3:
        return _with_range(pr, game - hi, slam - hi - 1), K_SIGNOFF
    if lv == 4:
        return _with_range(pr, slam - hi, slam - lo - 1), K_QUANT
    if lv == 6:
        return _with_range(pr, slam - lo, grand - lo - 1), K_SIGNOFF
    if lv == 7:
        return _with_range(pr, grand - lo, 37), K_SIGNOFF
    return pr, K_NONE


@njit(cache=True, _nrt=False)
def _m_respond_suit(c, pr, opening, before, contested, p):
    """Responder's first bid over partner's one of a suit (``before``: the last bid
    before it; ``contested``: an opponent has bid since the opening)."""
    x = _strain(opening)
    lv, st = _level(c), _strain(c)
    op, limit, r = np.int64(p[OPEN_MIN]), np.int64(p[LIMIT_RAISE_MIN]), np.int64(p[RESPOND_MIN])
    gf = np.int64(p[GAME_MIN]) - op
    trumps = 3 if x >= 2 else (4 if x == 1 else 5)
    if contested:
        cue = _strain(before) if before != opening else -1
        if st == cue and st < 4:
            return _with_len(_with_range(pr, limit, 37), x, trumps), K_FORCE
        if st == x and lv >= _game_level(x):
            return _with_len(_with_range(pr, gf, 37), x, trumps), K_SIGNOFF
        if st == x and _is_jump(c, before):
            return _with_len(_with_range(pr, limit, 37), x, trumps), K_INVITE
        if st == x:
            return _with_len(_with_range(pr, r, limit - 1), x, trumps), K_NONE
        if st == C.NOTRUMP:
            if lv == 1:
                return _with_range(pr, r + 2, limit), K_NT
            if lv == 2:
                return _with_range(pr, limit + 1, gf - 1), K_NT
            return _with_range(pr, gf, 37), K_SIGNOFF
        need = r if lv == 1 else np.int64(p[TWO_OVER_ONE_MIN])
        return _with_len(_with_range(pr, need, 37), st, 5), K_FORCE
    if st == x:
        if lv == 2:
            return _with_len(_with_range(pr, r, limit - 1), x, trumps), K_NONE
        if lv == 3:
            return _with_len(_with_range(pr, limit, gf - 1), x, trumps), K_INVITE
        return _with_len(_with_range(pr, r, limit - 1), x, 5), K_SIGNOFF
    if st == C.NOTRUMP:
        if lv == 2 and x >= 2:                       # Jacoby 2NT: a game-forcing raise
            return _with_len(_with_range(pr, gf, 37), x, 3), K_FORCE
        if lv == 1:
            return _with_range(pr, r, gf - 1 if x >= 2 else limit), K_NT
        if lv == 2:
            return _with_balanced(_with_range(pr, limit + 1, gf - 1)), K_INVITE
        if lv == 3:
            return _with_balanced(_with_range(pr, gf, gf + 4)), K_SIGNOFF
        return _m_nt_raise(c, pr, op, np.int64(p[STRONG_MIN]) - 1, p)
    if lv == 1:
        return _with_len(_with_range(pr, r, 37), st, 4), K_FORCE
    if lv == 2 and not _is_jump(c, before):
        return _with_len(_with_range(pr, np.int64(p[TWO_OVER_ONE_MIN]), 37), st,
                         5 if st == 2 else 4), K_FORCE
    return _with_len(pr, st, 6), K_NONE


@njit(cache=True, _nrt=False)
def _m_double_by_responder(pr, opening, opp_suits, p):
    """Negative double: four cards in each unbid major (the minors without one)."""
    x = _strain(opening)
    pr = _with_range(pr, np.int64(p[RESPOND_MIN]), 37)
    shown = False
    for s in MAJORS:
        if s != x and not (opp_suits >> s) & 1:
            pr = _with_len(pr, s, 4)
            shown = True
    if not shown:
        for s in range(2):
            if s != x and not (opp_suits >> s) & 1:
                pr = _with_len(pr, s, 4)
    return pr, K_FORCE


@njit(cache=True, _nrt=False)
def _m_rebid(c, pr, opening, response, pa_pr, before, p):
    """Opener's rebid (opponents silent since the response) after one of a suit."""
    x = _strain(opening)
    rs = _strain(response)
    lv, st = _level(c), _strain(c)
    op = np.int64(p[OPEN_MIN])
    jump = _is_jump(c, before)
    if response == C.bid_code(2, 4) and x >= 2:      # over Jacoby 2NT
        if lv == 4:
            return _with_range(pr, op, op + 2), K_SIGNOFF
        return _with_range(pr, op + 3, 37), K_FORCE
    if rs < 4 and st == rs and rs != x:              # a raise of partner's new suit
        pr = _with_len(pr, st, 8 - len_of(pa_pr, st))
        if lv >= _game_level(st):
            return _with_range(pr, 19, 37), K_SIGNOFF
        if jump:
            return _with_range(pr, 16, 18), K_INVITE
        return _with_range(pr, op, 15), K_NONE
    if st == C.NOTRUMP:
        pr = _with_balanced(pr)
        if response == C.bid_code(1, 4):
            if lv == 2:
                return _with_range(pr, np.int64(p[NT_MAX]) + 1, np.int64(p[NT2_MIN]) - 1), K_INVITE
            return _with_range(pr, np.int64(p[NT2_MIN]), 37), K_SIGNOFF
        if jump or lv >= 3:
            return _with_range(pr, np.int64(p[NT_MAX]) + 1, np.int64(p[NT2_MIN]) - 1), K_INVITE
        return _with_range(pr, op, np.int64(p[NT_MIN]) - 1), K_NT
    if st == x:
        pr = _with_len(pr, x, 6)
        if lv >= _game_level(x):
            return _with_range(pr, 19, 37), K_SIGNOFF
        if jump:
            return _with_range(pr, 16, 18), K_INVITE
        return _with_range(pr, op, 15), K_NONE
    pr = _with_len(pr, st, 4)
    if jump:
        return _with_range(pr, 19, 37), K_FORCE
    if lv == 2 and st > x:                           # a reverse
        return _with_range(pr, 17, 37), K_FORCE
    return _with_range(pr, op, 18), K_NONE


@njit(cache=True, _nrt=False)
def _m_enter(c, pr, last, balancing, p):
    """A first call over the opponents' opening (``last``: their bid)."""
    allow = np.int64(p[BALANCE_ALLOW]) if balancing else 0
    lv, st = _level(c), _strain(c)
    if st == C.NOTRUMP:
        return _with_balanced(_with_range(pr, np.int64(p[NT_MIN]) - allow,
                                          np.int64(p[NT_MAX]) + 1)), K_NT
    if _is_jump(c, last) and not balancing:
        return _with_len(_with_range(pr, 5, np.int64(p[WEAK_MAX])), st, 6), K_NONE
    need = np.int64(p[OVERCALL_MIN]) if lv == 1 else np.int64(p[OVERCALL_TWO_MIN]) + 2 * (lv - 2)
    return _with_len(_with_range(pr, need - allow, np.int64(p[TAKEOUT_MIN]) + 4), st, 5), K_NONE


@njit(cache=True, _nrt=False)
def _m_takeout(pr, last, opp_suits, balancing, p):
    if _strain(last) == C.NOTRUMP:
        return _with_range(pr, np.int64(p[NT_MIN]), 37), K_PENALTY
    allow = np.int64(p[BALANCE_ALLOW]) if balancing else 0
    pr = _with_range(pr, np.int64(p[TAKEOUT_MIN]) - allow + 2 * (_level(last) - 1), 37)
    for s in MAJORS:
        if not (opp_suits >> s) & 1:
            pr = _with_len(pr, s, 3)
    return pr, K_TAKEOUT


@njit(cache=True, _nrt=False)
def _m_advance_double(c, pr, last, p):
    """Answer to partner's takeout double."""
    st = _strain(c)
    tk = np.int64(p[TAKEOUT_MIN])
    gf = np.int64(p[GAME_MIN]) - tk
    if st == _strain(last):                     # cue-bid: game force
        return _with_range(pr, gf, 37), K_FORCE
    if st == C.NOTRUMP:
        if _level(c) == 1:
            return _with_range(pr, 6, gf - 4), K_NT
        if _level(c) == 2:
            return _with_range(pr, gf - 3, gf - 1), K_INVITE
        return _with_range(pr, gf, 37), K_SIGNOFF
    pr = _with_len(pr, st, 4)
    if _level(c) >= _game_level(st):
        return _with_range(pr, gf, 37), K_SIGNOFF
    if _is_jump(c, last):
        return _with_range(pr, gf - 4, gf - 1), K_INVITE
    return _with_range(pr, 0, gf - 5), K_NONE


@njit(cache=True, _nrt=False)
def _m_advance_overcall(c, pr, pa_pr, ps, last, opp_suits, p):
    """Answer to partner's suit overcall in ``ps``: raise, cue-bid, notrump, own suit."""
    st = _strain(c)
    r, limit = np.int64(p[RESPOND_MIN]), np.int64(p[LIMIT_RAISE_MIN])
    if st == ps:
        pr = _with_len(pr, ps, 3)
        if _level(c) >= _game_level(ps):
            game = np.int64(p[GAME_MIN]) if ps >= 2 else np.int64(p[MINOR_GAME_MIN])
            return _with_range(pr, game - lo_of(pa_pr) - 5, 37), K_SIGNOFF
        return _with_range(pr, r - 1, limit - 1), K_NONE
    if st < 4 and (opp_suits >> st) & 1:               # cue-bid: a limit raise or better
        return _with_len(_with_range(pr, limit, 37), ps, 3), K_FORCE
    if st == C.NOTRUMP:
        lv = _level(c)
        if lv == 1:
            return _with_range(pr, 8, 11), K_NT
        if lv == 2:
            return _with_range(pr, 12, 13), K_INVITE
        return _with_range(pr, 14, 37), K_SIGNOFF
    return _with_len(_with_range(pr, 8, 37), st, 5), K_NONE


@njit(cache=True, _nrt=False)
def _m_advance_nt(c, pr, pa_pr, p):
    """Answer to partner's 1NT overcall: a weak five-card major, a forcing three of a
    major (five cards, game values), four of a six-card major, or notrump by points."""
    lo, hi = lo_of(pa_pr), hi_of(pa_pr)
    lv, st = _level(c), _strain(c)
    if st in MAJORS:
        if lv == 2:
            return _with_len(_with_range(pr, 0, np.int64(p[INVITE_MIN]) - hi - 1), st, 5), K_SIGNOFF
        if lv == 3:
            return _with_len(_with_range(pr, np.int64(p[GAME_MIN]) - hi, 37), st, 5), K_FORCE
        return _with_len(pr, st, 6), K_SIGNOFF
    return _m_nt_raise(c, pr, lo, hi, p)


@njit(cache=True, _nrt=False, inline='always')
def _m_later(c, pr, pa_pr, my_kind, pa_kind, pa_last, agreed, before, opp_since, p):
    """A later bid, read by the captain's rules: an ace answer, a sign-off at game or
    slam, an invitation one below game, a new suit (forcing), a raise or a rebid."""
    lv, st = _level(c), _strain(c)
    if pa_kind == K_ASK and not opp_since:
        return pr, K_REPLY
    if my_kind == K_ASK:
        return pr, K_SIGNOFF
    slam = np.int64(p[SLAM_MIN])
    if st == C.NOTRUMP and lv == 4 and c > before:
        if _natural_nt(pa_last, pa_kind):
            return _with_range(pr, slam - hi_of(pa_pr), slam - lo_of(pa_pr) - 1), K_QUANT
        return pr, K_ASK
    if lv >= 6:
        return pr, K_SIGNOFF
    if lv == 5 and st in MAJORS and st == agreed and not opp_since:
        return _with_range(pr, slam - hi_of(pa_pr), slam - lo_of(pa_pr) - 1), K_QUANT
    if (pa_kind == K_INVITE or pa_kind == K_QUANT) and not opp_since:
        return pr, K_SIGNOFF                                   # the answer: to play
    game = np.int64(p[GAME_MIN]) if st >= 2 else np.int64(p[MINOR_GAME_MIN])
    if lv >= _game_level(st):
        return _with_range(pr, game - hi_of(pa_pr), 37), K_SIGNOFF
    if st < 4 and len_of(pa_pr, st) >= 3 and len_of(pr, st) == 0:
        pr = _with_len(pr, st, 8 - len_of(pa_pr, st))          # a raise
    elif st < 4 and len_of(pr, st) > 0:
        pr = _with_len(pr, st, len_of(pr, st) + 1)             # a rebid
    elif st < 4:
        return _with_len(pr, st, 4), K_FORCE                   # a new suit
    if (lv == _game_level(st) - 1 or (st == C.NOTRUMP and lv == 2)) and not opp_since:
        inv = np.int64(p[INVITE_MIN])
        return _with_range(pr, inv - hi_of(pa_pr), game - lo_of(pa_pr) - 1), K_INVITE
    return pr, K_NONE


@njit(cache=True, _nrt=False, inline='always')
def _agree(agreed, c, pr, pa_pr):
    """A suit is agreed once both partners have shown it with eight cards between them:
    by bidding it, or by a conventional raise (Jacoby 2NT, a cue-bid) of a suit."""
    st = _strain(c)
    if c >= C.FIRST_BID and st < 4 and len_of(pr, st) + len_of(pa_pr, st) >= 8:
        return st
    if agreed < 0:
        for s in (3, 2, 1, 0):
            if len_of(pr, s) + len_of(pa_pr, s) >= 8:
                return s
    return agreed


MEMO_SIZE = 21
"""Length of a memo (``read_auction``): the reader's 19 variables, a flag and the seat
that wrote it."""
_M_FULL, _M_SEAT = 19, 20


@njit(cache=True, _nrt=False, inline='always')
def read_auction(o, p, mask, memo):
    """Replay the calls with the system's rules: what this seat and its partner have
    shown, the kinds of their last calls, the opening, and the opponents' suits.

    ``memo`` (int64[MEMO_SIZE]; the seat's, or shared with a partner who plays the
    same parameters; cleared by ``forget`` at the start of each board) keeps the
    reader's state after the last bid it read (before the passes that follow it), and
    the next question goes on from there: what a call shows depends only on the calls
    before it, so this is the full replay's answer without reading every call again."""
    me = o[O.SEAT]
    dealer = o[O.DEALER]
    if memo[_M_FULL]:
        (mine, part, my_kind, pa_kind, my_n, pa_n, my_last, pa_last, opener, opening,
         response, agreed, opp_suits, opp_last, last, prev) = (
            memo[0], memo[1], memo[2], memo[3], memo[4], memo[5], memo[6], memo[7],
            memo[8], memo[9], memo[10], memo[11], memo[12], memo[13], memo[14], memo[15])
        opp_since, interfered, asked = memo[16] != 0, memo[17] != 0, memo[18] != 0
        if memo[_M_SEAT] != me:                   # written by partner: swap the roles
            mine, part, my_kind, pa_kind = part, mine, pa_kind, my_kind
            my_n, pa_n, my_last, pa_last = pa_n, my_n, pa_last, my_last
    else:
        mine, part = _FRESH, _FRESH
        my_kind, pa_kind = K_NONE, K_NONE
        my_n, pa_n = 0, 0
        my_last, pa_last = 0, 0
        opener, opening, response = -1, 0, 0
        agreed = -1
        opp_suits, opp_last = np.int64(0), 0
        opp_since, interfered, asked = False, False, False
        last = 0
        prev = -1
    n = o[O.N_CALLS]
    while True:
        # Skip a run of passes in a tight scan (most calls are passes); what a pass shows
        # depends only on the auction before it, the same for the whole run.
        k = _next_call(o, prev + 1, n, mask)
        if k >= n:
            # remembered before the trailing passes: the next question reads them again
            # with the calls that follow them
            _remember(memo, me, mine, part, my_kind, pa_kind, my_n, pa_n, my_last, pa_last,
                      opener, opening, response, agreed, opp_suits, opp_last, last, prev,
                      opp_since, interfered, asked)
        if my_n == 0 and _passed_in(me, dealer, prev, k):
            mine = _with_range(mine, 0, _pass_cap(opener, me, pa_n, interfered, p))
        if pa_n == 0 and _passed_in((me + 2) % 4, dealer, prev, k):
            part = _with_range(part, 0, _pass_cap(opener, (me + 2) % 4, my_n, interfered, p))
        if k >= n:
            break
        passes_before = k - prev - 1
        prev = k
        c = _call(o, k)
        s = (dealer + k) % 4
        if s % 2 != me % 2:
            opp_since = True
            if opener >= 0:
                interfered = True
            if c >= C.FIRST_BID:
                if _strain(c) < 4:
                    opp_suits |= np.int64(1) << _strain(c)
                opp_last = c
                if opener < 0:
                    opener, opening = s, c
                last = c
            continue
        is_me = s == me
        bpr = mine if is_me else part
        opr = part if is_me else mine
        b_n = my_n if is_me else pa_n
        o_n = pa_n if is_me else my_n
        b_kind = my_kind if is_me else pa_kind
        o_kind = pa_kind if is_me else my_kind
        o_last = pa_last if is_me else my_last
        if opener < 0:
            opener, opening = s, c
            bpr, kind = _m_open(c, bpr, p)
        elif opener % 2 == s % 2:
            bpr, kind, response = _m_our_auction(c, bpr, opr, s == opener, b_n, o_n, b_kind,
                                                 o_kind, o_last, opening, response, last,
                                                 agreed, opp_suits, interfered, opp_since,
                                                 passes_before >= 2, p)
        else:
            bpr, kind = _m_their_auction(c, bpr, opr, b_n, o_n, b_kind, o_kind, o_last, last,
                                         agreed, opp_suits, opp_last, opp_since,
                                         passes_before >= 2, p)
        if kind == K_LATER:
            bpr, kind = _m_later(c, bpr, opr, b_kind, o_kind, o_last, agreed, last, opp_since, p)
        if kind == K_REPLY:
            bpr = _with_aces(bpr, _strain(c))
        asked = asked or kind == K_ASK
        agreed = _agree(agreed, c, bpr, opr)
        if c >= C.FIRST_BID:
            last = c
        opp_since = False
        if is_me:
            mine, my_kind, my_n, my_last = bpr, kind, my_n + 1, c
        else:
            part, pa_kind, pa_n, pa_last = bpr, kind, pa_n + 1, c
    return (part, my_kind, pa_kind, my_n, pa_n, opener, opening, response, agreed,
            opp_suits, opp_since, pa_last, opp_last, interfered, asked, mine)


@njit(cache=True, _nrt=False, inline='always')
def forget(memo):
    memo[_M_FULL] = 0


@njit(cache=True, _nrt=False, inline='always')
def _remember(memo, me, mine, part, my_kind, pa_kind, my_n, pa_n, my_last, pa_last, opener,
              opening, response, agreed, opp_suits, opp_last, last, prev, opp_since,
              interfered, asked):
    memo[0], memo[1], memo[2], memo[3] = mine, part, my_kind, pa_kind
    memo[4], memo[5], memo[6], memo[7] = my_n, pa_n, my_last, pa_last
    memo[8], memo[9], memo[10], memo[11] = opener, opening, response, agreed
    memo[12], memo[13], memo[14], memo[15] = opp_suits, opp_last, last, prev
    memo[16], memo[17], memo[18] = opp_since, interfered, asked
    memo[_M_FULL], memo[_M_SEAT] = 1, me


@njit(cache=True, _nrt=False, inline='always')
def _passed_in(seat, dealer, prev, k):
    """Whether ``seat`` had a turn (a pass) among calls ``prev + 1 .. k - 1``."""
    first = prev + 1 + (seat - dealer - prev - 1) % 4
    return first < k


@njit(cache=True, _nrt=False, inline='always')
def _pass_cap(opener, s, partner_n, interfered, p):
    """Most points a pass (before the player's first bid) can hold: below an opening
    before anyone opened; below a response (a free bid in competition) under partner's
    opening; below an entry (nt_min) over theirs; below an advance after partner's
    entry."""
    if opener < 0:
        return np.int64(p[OPEN_MIN]) - 1
    if s == opener:
        return 37
    if opener % 2 == s % 2:
        if interfered:
            return np.int64(p[TWO_OVER_ONE_MIN]) - 1
        return np.int64(p[RESPOND_MIN]) - 1
    if partner_n == 0:
        return np.int64(p[NT_MIN])
    return np.int64(p[RESPOND_MIN]) + 1


@njit(cache=True, _nrt=False, inline='always')
def _m_our_auction(c, bpr, opr, is_opener, b_n, o_n, b_kind, o_kind, o_last, opening,
                   response, last, agreed, opp_suits, interfered, opp_since, balancing, p):
    """A call of the side that opened: response, opener's rebid, responder's second call
    over notrump, or a later call. Returns (profile, kind, the response)."""
    nt_open = _strain(opening) == C.NOTRUMP and _level(opening) <= 2
    if c == C.DOUBLE:
        if not is_opener and b_n == 0 and o_n == 1 and interfered \
                and _level(opening) == 1 and _strain(opening) < 4:
            pr, kind = _m_double_by_responder(bpr, opening, opp_suits, p)
            return pr, kind, response
        if _reopening_spot(is_opener, b_n, o_n, last, balancing):
            return bpr, K_TAKEOUT, response
        return bpr, K_PENALTY, response
    if c == C.REDOUBLE:
        return bpr, K_NONE, response
    if not is_opener and b_n == 0 and o_n == 1:
        if nt_open and not interfered:
            pr, kind = _m_nt_response(c, bpr, opening, p)
        elif opening == C.bid_code(2, 0) and not interfered:
            pr, kind = bpr, K_ART
        elif _level(opening) == 1 and _strain(opening) < 4:
            pr, kind = _m_respond_suit(c, bpr, opening, last, interfered, p)
        else:
            pr, kind = bpr, K_LATER
        return pr, kind, c
    if is_opener and b_n == 1 and o_n == 1 and not opp_since and response != 0:
        if o_kind == K_STAYMAN:
            if _strain(c) in MAJORS:
                return _with_len(bpr, _strain(c), 4), K_ART, response
            return bpr, K_ART, response
        if o_kind == K_TRANSFER:
            return bpr, K_ART, response
        if opening == C.bid_code(2, 0) and o_kind == K_ART:
            return _m_after_two_clubs(c, bpr, p), K_FORCE, response
        d = _describes(opening, response, o_kind, interfered)
        if d == 1:
            op = np.int64(p[OPEN_MIN])
            if _level(c) >= 4:
                return _with_range(bpr, op, op + 2), K_SIGNOFF, response
            return _with_range(bpr, op + 3, 37), K_FORCE, response
        if d == 2:
            pr, kind = _m_rebid(c, bpr, opening, response, opr, last, p)
            return pr, kind, response
    elif nt_open and not is_opener and b_n == 1 and o_n == 2 and not interfered \
            and (b_kind == K_STAYMAN or b_kind == K_TRANSFER):
        pr, kind = _m_nt_continue(c, bpr, opening, response, o_last, p)
        return pr, kind, response
    return bpr, K_LATER, response


@njit(cache=True, _nrt=False)
def _reopening_spot(is_opener, my_bids, partner_bids, last, balancing):
    """The opener's turn again after an overcall at the one or two level and two passes:
    a double here is for takeout (partner may pass it for penalties)."""
    return is_opener and my_bids == 1 and partner_bids == 0 and balancing and \
        last >= C.FIRST_BID and _level(last) <= 2 and _strain(last) < 4


@njit(cache=True, _nrt=False)
def _m_after_two_clubs(c, pr, p):
    strong = np.int64(p[STRONG_MIN])
    if _strain(c) == C.NOTRUMP:
        if _level(c) == 2:
            return _with_balanced(_with_range(pr, strong, strong + 2))
        return _with_balanced(_with_range(pr, strong + 3, 37))
    return _with_len(pr, _strain(c), 5)


@njit(cache=True, _nrt=False, inline='always')
def _m_their_auction(c, bpr, opr, b_n, o_n, b_kind, o_kind, o_last, last, agreed, opp_suits,
                     opp_last, opp_since, balancing, p):
    """A call of the side that did not open: entry, advance, or a later call."""
    if b_n == 0 and o_n == 0:
        if c == C.DOUBLE:
            return _m_takeout(bpr, last, opp_suits, balancing, p)
        if c >= C.FIRST_BID:
            return _m_enter(c, bpr, last, balancing, p)
    if c == C.DOUBLE:
        return bpr, K_PENALTY
    if c == C.REDOUBLE:
        return bpr, K_NONE
    if b_n == 0 and o_n == 1 and o_kind == K_TAKEOUT and not opp_since:
        return _m_advance_double(c, bpr, last, p)
    if b_n == 0 and o_n == 1 and o_kind == K_NT and not opp_since:
        return _m_advance_nt(c, bpr, opr, p)
    if b_n == 0 and o_n == 1 and o_last >= C.FIRST_BID and _strain(o_last) < 4:
        return _m_advance_overcall(c, bpr, opr, _strain(o_last), last, opp_suits, p)
    return bpr, K_LATER


@njit(cache=True, _nrt=False)
def _m_nt_continue(c, pr, opening, response, reply, p):
    """Responder's second call after Stayman or a transfer over 1NT/2NT."""
    L, lo, hi = _nt_range(opening, p)
    lv, st = _level(c), _strain(c)
    inv, game = np.int64(p[INVITE_MIN]), np.int64(p[GAME_MIN])
    slam = np.int64(p[SLAM_MIN])
    if _strain(response) != 0:                   # after a transfer
        m = _strain(response) + 1
        if st == m:
            pr = _with_len(pr, m, 6)
            if lv == 3 and L == 1:
                return _with_range(pr, inv - hi, game - lo - 1), K_INVITE
            if lv == 5:
                return _with_range(pr, slam - hi, slam - lo - 1), K_QUANT
            if lv >= 6:
                return _with_range(pr, slam - lo, 37), K_SIGNOFF
            return _with_range(pr, game - hi, slam - hi - 1), K_SIGNOFF
        if st == C.NOTRUMP:
            pr, kind = _m_nt_raise(c, pr, lo, hi, p)
            return pr, (K_NT if lv == 3 else kind)          # 3NT: opener may choose 4M
        return _with_len(pr, st, 4), K_FORCE
    # after Stayman: a raise of opener's major, or notrump (with the other major)
    if st == C.NOTRUMP:
        if reply == C.bid_code(L + 1, 2):
            pr = _with_len(pr, 3, 4)
        elif reply == C.bid_code(L + 1, 3):
            pr = _with_len(pr, 2, 4)
        return _m_nt_raise(c, pr, lo, hi, p)
    if st < 4:
        pr = _with_len(pr, st, 4)
        if lv == _game_level(st) - 1:
            return _with_range(pr, inv - hi, game - lo - 1), K_INVITE
        if lv == 5:
            return _with_range(pr, slam - hi, slam - lo - 1), K_QUANT
        if lv >= 6:
            return _with_range(pr, slam - lo, 37), K_SIGNOFF
        return _with_range(pr, game - hi, 37), K_SIGNOFF
    return pr, K_NONE


# -- choosing a call ----------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _longest(lens, skip_mask):
    """Longest suit outside ``skip_mask`` (ties: the higher-ranking); -1 if none."""
    best = -1
    for s in range(3, -1, -1):
        if not (skip_mask >> s) & 1 and (best < 0 or lens[s] > lens[best]):
            best = s
    return best


@njit(cache=True, _nrt=False)
def _opening_suit(lens):
    """The longest suit with five or more (ties: the higher); else a minor (1D with 4-4,
    1C with 3-3)."""
    s = _longest(lens, 0)
    if lens[s] >= 5:
        return s
    if lens[1] > lens[0] or (lens[1] == lens[0] and lens[1] >= 4):
        return 1
    return 0


@njit(cache=True, _nrt=False, inline='always')
def _open(lens, hcp, p):
    pts = _length_points(hcp, lens)
    bal = _balanced(lens)
    if bal and p[NT_MIN] <= hcp <= p[NT_MAX]:
        return C.bid_code(1, 4)
    if bal and p[NT2_MIN] <= hcp <= p[NT2_MAX]:
        return C.bid_code(2, 4)
    if pts >= p[STRONG_MIN]:
        return C.bid_code(2, 0)
    if pts >= p[OPEN_MIN]:
        return C.bid_code(1, _opening_suit(lens))
    if 5 <= hcp <= p[WEAK_MAX]:
        s = _longest(lens, 0)
        if lens[s] >= 8 and s >= 2:
            return C.bid_code(4, s)
        if lens[s] >= p[PREEMPT_LEN]:
            return C.bid_code(3, s)
        if lens[s] == 6 and s > 0:
            return C.bid_code(2, s)
    return C.PASS


@njit(cache=True, _nrt=False)
def _nt_place(h, lo, hi, level_open, p):
    """Responder's notrump placement opposite a notrump range lo..hi (quantitative)."""
    if h + lo >= p[GRAND_MIN]:
        return C.bid_code(7, 4)
    if h + lo >= p[SLAM_MIN]:
        return C.bid_code(6, 4)
    if h + hi >= p[SLAM_MIN]:
        return C.bid_code(4, 4)
    if h + lo >= p[GAME_MIN]:
        return C.bid_code(3, 4)
    if h + hi >= p[INVITE_MIN]:
        if level_open == 1:
            return C.bid_code(2, 4)
        if 2 * h + lo + hi + 1 >= 2 * p[GAME_MIN]:
            return C.bid_code(3, 4)
    return C.PASS


@njit(cache=True, _nrt=False)
def _respond_nt(lens, hcp, opening, p):
    """Over partner's 1NT/2NT: transfers with a five-card major, Stayman with a four-card
    major and invitational values, else notrump by combined HCP."""
    L, lo, hi = _nt_range(opening, p)
    if lens[3] >= 5 and lens[3] >= lens[2]:
        return C.bid_code(L + 1, 2)                  # transfer to spades
    if lens[2] >= 5:
        return C.bid_code(L + 1, 1)                  # transfer to hearts
    if (lens[2] >= 4 or lens[3] >= 4) and hcp + hi >= p[INVITE_MIN]:
        return C.bid_code(L + 1, 0)                  # Stayman
    return _nt_place(hcp, lo, hi, L, p)


@njit(cache=True, _nrt=False)
def _nt_continue(lens, hcp, opening, response, reply, p):
    """Responder's second call after Stayman's answer or a completed transfer."""
    L, lo, hi = _nt_range(opening, p)
    if _strain(response) != 0:                   # a transfer: m is the major
        m = _strain(response) + 1
        pts = _length_points(hcp, lens)
        six = lens[m] >= 6
        if pts + lo >= p[GRAND_MIN]:
            return C.bid_code(7, m if six else 4)
        if pts + lo >= p[SLAM_MIN]:
            return C.bid_code(6, m if six else 4)
        if pts + hi >= p[SLAM_MIN]:
            return C.bid_code(5, m) if six else C.bid_code(4, 4)
        if pts + lo >= p[GAME_MIN]:
            return C.bid_code(4, m) if six else C.bid_code(3, 4)
        if pts + hi >= p[INVITE_MIN] and L == 1:
            return C.bid_code(3, m) if six else C.bid_code(2, 4)
        if pts + hi >= p[INVITE_MIN] and 2 * pts + lo + hi + 1 >= 2 * p[GAME_MIN]:
            return C.bid_code(4, m) if six else C.bid_code(3, 4)
        return C.PASS
    rm = _strain(reply) if _level(reply) == L + 1 else -1
    if rm in MAJORS and lens[rm] >= 4:               # Stayman found a fit
        sp = _support_points(hcp, lens, rm)
        if sp + lo >= p[GRAND_MIN]:
            return C.bid_code(7, rm)
        if sp + lo >= p[SLAM_MIN]:
            return C.bid_code(6, rm)
        if sp + hi >= p[SLAM_MIN]:
            return C.bid_code(5, rm)                  # slam try: six with a maximum
        if sp + lo >= p[GAME_MIN]:
            return C.bid_code(4, rm)
        if sp + hi >= p[INVITE_MIN] and L == 1:
            return C.bid_code(3, rm)
        if sp + hi >= p[INVITE_MIN] and 2 * sp + lo + hi + 1 >= 2 * p[GAME_MIN]:
            return C.bid_code(4, rm)
        return C.PASS
    call = _nt_place(hcp, lo, hi, L, p)
    return call if call > reply else C.PASS


@njit(cache=True, _nrt=False)
def _two_over_one_suit(lens, x):
    """A suit ranked below the opened one with four cards (five for hearts): the longest,
    the lower of two four-card suits, the higher of two longer ones."""
    best = -1
    for s in range(x):
        need = 5 if s == 2 else 4
        if lens[s] >= need:
            if best < 0 or lens[s] > lens[best] or (lens[s] == lens[best] and lens[s] >= 5):
                best = s
    return best


@njit(cache=True, _nrt=False)
def _major_to_show(lens):
    """A four-card or longer major for a one-level response: the longer; 1H with 4-4,
    1S with 5-5."""
    h, s = lens[2], lens[3]
    if s >= 4 and (s > h or (s == h and s >= 5)):
        return 3
    if h >= 4:
        return 2
    return -1


@njit(cache=True, _nrt=False)
def _support_needed(x):
    return 3 if x >= 2 else (4 if x == 1 else 5)


@njit(cache=True, _nrt=False)
def _respond_suit(hand, lens, hcp, opening, p):
    """Over partner's one of a suit, opponents silent."""
    x = _strain(opening)
    op, limit, r = p[OPEN_MIN], p[LIMIT_RAISE_MIN], p[RESPOND_MIN]
    gf = p[GAME_MIN] - op
    fit = lens[x] >= _support_needed(x)
    sup = _support_points(hcp, lens, x)
    if fit and x >= 2:
        if sup >= gf:
            return C.bid_code(2, 4)                  # Jacoby 2NT
        shortest = min(min(lens[0], lens[1]), min(lens[2], lens[3]))
        if lens[x] >= 5 and hcp < limit and shortest <= 1:
            return C.bid_code(4, x)
        if sup >= limit:
            return C.bid_code(3, x)
        if sup >= r:
            return C.bid_code(2, x)
    if hcp < r:
        return C.PASS
    if x < 2:
        m = _major_to_show(lens)
        if m >= 0:
            return C.bid_code(1, m)
        if x == 0 and lens[1] >= 4:
            return C.bid_code(1, 1)
    if x == 2 and lens[3] >= 4:
        return C.bid_code(1, 3)
    bal = _balanced(lens)
    if x < 2 and fit:
        if sup >= gf and bal:
            return C.bid_code(3, 4)
        return C.bid_code(3, x) if sup >= limit else C.bid_code(2, x)
    if bal and gf <= hcp <= gf + 4:
        return C.bid_code(3, 4)
    if hcp >= p[TWO_OVER_ONE_MIN]:
        s = _two_over_one_suit(lens, x)
        if s >= 0:
            return C.bid_code(2, s)
    if x < 2 and bal and limit + 1 <= hcp <= gf - 1:
        return C.bid_code(2, 4)
    if hcp <= (gf - 1 if x >= 2 else limit) or hcp < p[TWO_OVER_ONE_MIN]:
        return C.bid_code(1, 4)
    s = _longest(lens, (np.int64(1) << x) | np.int64(0b1100))
    return C.bid_code(2, s) if s < x else C.bid_code(1, 4)


@njit(cache=True, _nrt=False)
def _compete_cap(my_len, pa_len, p):
    """Law of total tricks: the level a partscore fight may reach."""
    return max(2, my_len + pa_len - 6 + np.int64(p[COMPETE_MARGIN]))


@njit(cache=True, _nrt=False)
def _respond_contested(hand, lens, hcp, opening, last, opp_suits, part, p):
    """Over partner's one of a suit after the opponents came in (``last``: the last
    bid; a double leaves it at the opening)."""
    x = _strain(opening)
    limit, r = p[LIMIT_RAISE_MIN], p[RESPOND_MIN]
    gf = p[GAME_MIN] - p[OPEN_MIN]
    y = _strain(last) if last != opening else -1
    fit = lens[x] >= _support_needed(x)
    if fit:
        sup = _support_points(hcp, lens, x)
        raise_ = _cheapest(last, x)
        if sup >= gf and x >= 2 and C.bid_code(4, x) > last:
            return C.bid_code(4, x)
        if sup >= limit and 0 <= y < 4 and _level(_cheapest(last, y)) <= 3:
            return _cheapest(last, y)                # cue-bid: a limit raise or better
        if sup >= limit and raise_ + 5 < C.N_CALLS and _level(raise_ + 5) <= 3:
            return raise_ + 5                        # jump raise
        if sup >= r and _level(raise_) <= _compete_cap(lens[x], len_of(part, x), p):
            return raise_
    if hcp < r:
        return C.PASS
    s = _longest(lens, opp_suits | (np.int64(1) << x))
    if s >= 0 and lens[s] >= 5:
        code = _cheapest(last, s)
        lv = _level(code)
        if (lv == 1 and hcp >= r) or (lv == 2 and hcp >= p[TWO_OVER_ONE_MIN]):
            return code
    if 0 <= y < 4 and _level(last) <= 2 and hcp >= r + 2 * (_level(last) - 1):
        if _negative_double_shape(lens, x, opp_suits):
            return C.DOUBLE
    if y != C.NOTRUMP and (y < 0 or _stopper(hand, y)) and _no_shortness(lens):
        code = _cheapest(last, C.NOTRUMP)
        lv = _level(code)
        if hcp >= gf and C.bid_code(3, 4) > last:
            return C.bid_code(3, 4)
        if (lv == 1 and r + 2 <= hcp <= limit) or (lv == 2 and limit + 1 <= hcp <= gf - 1):
            return code
    return C.PASS


@njit(cache=True, _nrt=False)
def _negative_double_shape(lens, x, opp_suits):
    """Four cards in every unbid major (in every unbid minor when no major is unbid)."""
    seen = False
    for s in MAJORS:
        if s != x and not (opp_suits >> s) & 1:
            seen = True
            if lens[s] < 4:
                return False
    if seen:
        return True
    for s in range(2):
        if s != x and not (opp_suits >> s) & 1:
            seen = True
            if lens[s] < 4:
                return False
    return seen


@njit(cache=True, _nrt=False)
def _describes(opening, response, pa_kind, interfered):
    """How the opener rebids: 1 after Jacoby 2NT, 2 describing his hand after a new suit
    or 1NT (opponents silent), 0 as the captain."""
    if interfered or _level(opening) != 1 or _strain(opening) == C.NOTRUMP:
        return 0
    x = _strain(opening)
    if response == C.bid_code(2, 4) and x >= 2:
        return 1
    if response == C.bid_code(1, 4):
        return 2
    rs = _strain(response)
    if rs < 4 and rs != x and pa_kind == K_FORCE:
        return 2
    return 0


@njit(cache=True, _nrt=False)
def _rebid(hand, lens, hcp, opening, response, last, part, p):
    """Opener's second bid, describing: raise partner's major, a major at the one level,
    notrump by range, his six-card suit, a second suit (a reverse with 17+)."""
    x = _strain(opening)
    rs = _strain(response)
    pts = _length_points(hcp, lens)
    one_nt = response == C.bid_code(1, 4)
    if rs in MAJORS and lens[rs] >= 8 - len_of(part, rs):
        code = _cheapest(last, rs)
        sp = _support_points(hcp, lens, rs)
        if sp >= 19:
            return C.bid_code(_game_level(rs), rs)
        if sp >= 16 and code + 5 < C.N_CALLS:
            return code + 5
        return code
    if response == C.bid_code(1, 2) and lens[3] >= 4 and x < 2:
        return C.bid_code(1, 3)
    if _balanced(lens):
        if one_nt:
            if p[NT_MAX] + 1 <= hcp < p[NT2_MIN]:
                return C.bid_code(2, 4)
            if hcp >= p[NT2_MIN]:
                return C.bid_code(3, 4)
            return C.PASS
        code = _cheapest(last, C.NOTRUMP)
        if hcp <= p[NT_MIN] - 1:
            return code
        if hcp <= p[NT2_MIN] - 1 and code + 5 < C.N_CALLS:
            return code + 5
    z = _longest(lens, (np.int64(1) << x) | (np.int64(1) << rs if rs < 4 else 0))
    if z >= 0 and lens[z] >= 5:
        code = _cheapest(last, z)
        if _level(code) == 1 or z < x or pts >= 16:
            return code
    if lens[x] >= 6:
        code = _cheapest(last, x)
        if pts <= 15:
            return code
        if pts >= 19 and x >= 2:
            return C.bid_code(4, x)
        return code + 5 if code + 5 < C.N_CALLS else code
    if z >= 0 and lens[z] >= 4:
        code = _cheapest(last, z)
        lv = _level(code)
        if pts >= 19 and lv <= 2 and not one_nt:
            return code + 5                           # a jump shift: game force, slam hopes
        if lv == 1 or (lv == 2 and z < x) or (lv == 2 and pts >= 17) or \
                (lv == 3 and not one_nt):
            return code
    if one_nt and pts <= 15:
        return C.PASS
    return _cheapest(last, x)


@njit(cache=True, _nrt=False)
def _opener_after_jacoby(lens, hcp, x, p):
    pts = _length_points(hcp, lens)
    return C.bid_code(4, x) if pts <= p[OPEN_MIN] + 2 else C.bid_code(3, x)


@njit(cache=True, _nrt=False)
def _after_two_clubs(lens, hcp, p):
    """Opener's rebid after 2C-2D: 2NT with strong_min..+2 balanced, 3NT with more, else
    his longest suit."""
    if _balanced(lens):
        return C.bid_code(2, 4) if hcp <= p[STRONG_MIN] + 2 else C.bid_code(3, 4)
    s = _longest(lens, 0)
    return _cheapest(C.bid_code(2, 1), s)


@njit(cache=True, _nrt=False, inline='always')
def _balancing(o):
    n = o[O.N_CALLS]
    return n >= 3 and _call(o, n - 1) == C.PASS and _call(o, n - 2) == C.PASS


@njit(cache=True, _nrt=False)
def _suit_quality(hand, s):
    """Honours among A K Q J T in suit ``s``."""
    return _popcount(_bits(hand, s) & 0x1F00)


@njit(cache=True, _nrt=False)
def _least_to_enter(lens, lv, balancing, allow, p):
    """The fewest HCP any entry below could want over a bid at level ``lv`` (a quick
    pass for most defenders' hands, which are asked again after every bid)."""
    longest = max(max(lens[0], lens[1]), max(lens[2], lens[3]))
    least = 99.0
    if lv <= 3:
        least = p[TAKEOUT_MIN] + 2 * (lv - 1)
        if longest >= 5:
            least = min(least, p[OVERCALL_MIN] if lv == 1 else p[OVERCALL_TWO_MIN] + 2 * (lv - 2))
    if lv <= 2:
        least = min(least, p[NT_MIN])
    least -= allow
    if longest >= 6 and lv <= 2 and not balancing:
        least = min(least, 5.0)
    return least


@njit(cache=True, _nrt=False)
def _enter(hand, lens, hcp, last, opp_suits, balancing, p):
    """First call over the opponents' opening: 1NT (2NT over a weak two), an overcall,
    a takeout double, a weak jump overcall."""
    allow = p[BALANCE_ALLOW] if balancing else 0.0
    ts, lv = _strain(last), _level(last)
    if hcp < _least_to_enter(lens, lv, balancing, allow, p):
        return C.PASS                                # the usual case: nothing to say
    if ts == C.NOTRUMP and lv == 1 and hcp >= p[NT_MIN]:
        return C.DOUBLE                              # penalty
    if ts < 4 and lv <= 2 and _balanced(lens) and p[NT_MIN] - allow <= hcp <= p[NT_MAX] + 1 \
            and _stopper(hand, ts):
        return _cheapest(last, C.NOTRUMP)
    s = _longest(lens, opp_suits)
    overcall = C.PASS
    if s >= 0 and lens[s] >= 5:
        code = _cheapest(last, s)
        lvs = _level(code)
        need = (p[OVERCALL_MIN] if lvs == 1 else p[OVERCALL_TWO_MIN] + 2 * (lvs - 2)) - allow
        if lvs <= 3 and need <= hcp and (lvs == 1 or lens[s] >= 6 or _suit_quality(hand, s) >= 2):
            overcall = code
        elif not balancing and lens[s] >= 6 and 5 <= hcp <= p[WEAK_MAX] \
                and code + 5 < C.N_CALLS and _level(code + 5) <= 3:
            return code + 5
    if overcall != C.PASS and hcp <= p[TAKEOUT_MIN] + 4:
        return overcall
    if ts < 4 and lv <= 3:
        need = p[TAKEOUT_MIN] - allow + 2 * (lv - 1)
        if hcp >= need + 6 or (hcp >= need and lens[ts] <= 2 and _takeout_shape(lens, opp_suits)):
            return C.DOUBLE
    return overcall


@njit(cache=True, _nrt=False)
def _takeout_shape(lens, opp_suits):
    """Three cards in each unbid major (each unbid suit when both majors are bid)."""
    seen = False
    for s in MAJORS:
        if not (opp_suits >> s) & 1:
            seen = True
            if lens[s] < 3:
                return False
    if seen:
        return True
    for s in range(2):
        if not (opp_suits >> s) & 1 and lens[s] < 3:
            return False
    return True


@njit(cache=True, _nrt=False)
def _advance_double(hand, lens, hcp, last, opp_suits, p):
    """Answer partner's takeout double (RHO passed): forced to bid."""
    ts = _strain(last)
    gf = p[GAME_MIN] - p[TAKEOUT_MIN]
    s = -1
    for m in (3, 2):
        if not (opp_suits >> m) & 1 and lens[m] >= 4 and (s < 0 or lens[m] > lens[s]):
            s = m
    major = s >= 0
    if s < 0:
        s = _longest(lens, opp_suits)
    if s < 0:
        return C.PASS
    stop = ts < 4 and _stopper(hand, ts)
    if hcp >= gf:
        if major:
            return C.bid_code(4, s)
        if stop and _no_shortness(lens):
            return C.bid_code(3, 4)
        return _cheapest(last, ts) if ts < 4 else C.bid_code(3, 4)
    if stop and _balanced(lens) and not major and _level(last) == 1 and hcp >= 6:
        return C.bid_code(1, 4) if hcp <= gf - 4 else C.bid_code(2, 4)
    code = _cheapest(last, s)
    if hcp >= gf - 4 and code + 5 < C.bid_code(_game_level(s), s):
        return code + 5
    return code


@njit(cache=True, _nrt=False)
def _advance_nt(lens, hcp, part, p):
    """Over partner's 1NT overcall (RHO passed): a five-card major (weak: two of it;
    game values: three, forcing; six cards: four), else notrump by points."""
    lo, hi = lo_of(part), hi_of(part)
    m = 3 if lens[3] >= 5 and lens[3] >= lens[2] else (2 if lens[2] >= 5 else -1)
    if m >= 0:
        pts = _length_points(hcp, lens)
        if pts + lo >= p[GAME_MIN]:
            return C.bid_code(4, m) if lens[m] >= 6 else C.bid_code(3, m)
        if pts + hi < p[INVITE_MIN]:
            return C.bid_code(2, m)
    return _nt_place(hcp, lo, hi, 1, p)


@njit(cache=True, _nrt=False)
def _advance_overcall(hand, lens, hcp, last, opp_suits, opp_last, ps, part, p):
    """Answer partner's suit overcall in ``ps``: raise, cue-bid, notrump, own suit."""
    if lens[ps] < 3 and hcp < 8:
        return C.PASS                                 # no support, and too weak for the rest
    if lens[ps] >= 3:
        sp = _support_points(hcp, lens, ps)
        game = p[GAME_MIN] if ps >= 2 else p[MINOR_GAME_MIN]
        if sp + lo_of(part) >= game:
            g = C.bid_code(_game_level(ps), ps)
            if g > last:
                return g
        if sp >= p[LIMIT_RAISE_MIN] and opp_last >= C.FIRST_BID and _strain(opp_last) < 4 \
                and hi_of(part) > p[WEAK_MAX]:
            cue = _cheapest(last, _strain(opp_last))
            if _level(cue) <= 3 and cue < C.bid_code(_game_level(ps), ps):
                return cue
        if sp >= p[RESPOND_MIN] - 1:
            cap = min(_compete_cap(lens[ps], len_of(part, ps), p), _game_level(ps) - 1)
            code = _cheapest(last, ps)
            if _level(code) <= cap:
                if lens[ps] >= 4 and _level(code) < cap:
                    return C.bid_code(cap, ps)
                return code
        return C.PASS
    ts = _strain(opp_last) if opp_last >= C.FIRST_BID else 4
    if ts < 4 and _stopper(hand, ts) and _no_shortness(lens):
        code = _cheapest(last, C.NOTRUMP)
        lv = _level(code)
        if (lv == 1 and 8 <= hcp <= 11) or (lv == 2 and 12 <= hcp <= 13) or (lv == 3 and hcp >= 14):
            return code
    s = _longest(lens, opp_suits | (np.int64(1) << ps))
    if s >= 0 and lens[s] >= 5 and hcp >= 8:
        code = _cheapest(last, s)
        if _level(code) <= 2:
            return code
    return C.PASS


@njit(cache=True, _nrt=False)
def _natural_nt(call, kind):
    """A natural notrump bid (over which 4NT is quantitative, not an ace ask)."""
    return call >= C.FIRST_BID and _strain(call) == C.NOTRUMP and \
        (kind == K_NT or kind == K_INVITE or kind == K_SIGNOFF)


@njit(cache=True, _nrt=False)
def _choose_strain(lens, part, agreed):
    """(strain, trumps between us): an agreed suit, an eight-card major fit, a six-card
    major of my own, a minor fit when my hand has shortness, else notrump."""
    if agreed >= 0:
        return agreed, lens[agreed] + len_of(part, agreed)
    best, total = -1, 0
    for s in (3, 2):
        t = lens[s] + len_of(part, s)
        if t >= 8 and t > total:
            best, total = s, t
    if best >= 0:
        return best, total
    own = _longest(lens, 0)
    if lens[own] >= 6 and own >= 2:
        return own, lens[own] + len_of(part, own)
    for s in (1, 0):
        t = lens[s] + len_of(part, s)
        if t >= 8 and t > total:
            best, total = s, t
    if best >= 0 and not _no_shortness(lens):
        return best, total
    if lens[own] >= 7:
        return own, lens[own] + len_of(part, own)
    return C.NOTRUMP, 0


@njit(cache=True, _nrt=False)
def _points_in(strain, lens, hcp, part):
    if strain == C.NOTRUMP:
        return hcp
    if len_of(part, strain) >= lens[strain]:
        return _support_points(hcp, lens, strain)   # the short-trump hand
    return _length_points(hcp, lens)


@njit(cache=True, _nrt=False)
def _contract_ok(last, strain, lens, part):
    """Partner's last bid is a fair partscore for us: our strain, or a seven-card fit."""
    cs = _strain(last)
    if cs == strain:
        return True
    if cs == C.NOTRUMP:
        return strain == C.NOTRUMP or lens[strain] < 6
    return lens[cs] + len_of(part, cs) >= 7 and (strain == C.NOTRUMP or lens[strain] < 6)


@njit(cache=True, _nrt=False)
def _after_ace_reply(hand, strain, clo, part, last, p):
    pa_aces = aces_of(part)
    mine = _aces(hand)
    if pa_aces == 0 and mine == 0:
        pa_aces = 4                                   # 5C: none or all four
    total = mine + pa_aces
    if total <= 2:
        code = C.bid_code(5, strain)
        return code if code > last else C.PASS
    if total == 4 and clo >= p[GRAND_MIN]:
        return C.bid_code(7, strain)
    return C.bid_code(6, strain)


@njit(cache=True, _nrt=False)
def _may_double(lens, hcp, last, p):
    """A quick test before ``_penalty``: the bid is at the two level or higher and the
    hand could hold penalty_min defensive tricks (quick tricks never exceed HCP / 3.5)."""
    ts = _strain(last)
    trumps = lens[ts] - 3 if ts < 4 and lens[ts] >= 4 else 0
    return _level(last) >= 2 and hcp + 3.5 * trumps >= 3.5 * p[PENALTY_MIN]


@njit(cache=True, _nrt=False)
def _penalty(hand, lens, hcp, last, part, p):
    """A sound penalty double of the opponents' bid ``last`` (two level or higher): own
    defensive tricks and partner's shown points beat it by a trick."""
    lv, ts = _level(last), _strain(last)
    trumps = lens[ts] - 3 if ts < 4 and lens[ts] >= 4 else 0
    own = _quick_tricks(hand) + trumps
    if own < p[PENALTY_MIN]:
        return False
    return own + lo_of(part) / 4.0 >= 8 - lv


@njit(cache=True, _nrt=False)
def _nothing_to_add(lens, hcp, part, agreed, p):
    """The opponents outbid us, and we have no eight-card fit, no six-card suit and no
    invitational values (even opposite partner's maximum): the captain would pass.
    Checked first because it is the most common case in competition."""
    if agreed >= 0 or max(max(lens[0], lens[1]), max(lens[2], lens[3])) >= 6:
        return False
    for s in range(4):
        if lens[s] + len_of(part, s) >= 8:
            return False
    return hcp + hi_of(part) < p[INVITE_MIN]


@njit(cache=True, _nrt=False, inline='always')
def _captain(o, p, hand, lens, hcp, rd):
    """Place the contract from partner's shown range and lengths (see the docstring)."""
    me = o[O.SEAT]
    last = o[O.LAST_BID]
    ours = o[O.LAST_BIDDER] % 2 == me % 2
    part = rd[R_PART]
    my_kind, pa_kind, pa_last = rd[R_MY_KIND], rd[R_PA_KIND], rd[R_PA_LAST]
    quiet = not rd[R_OPP_SINCE]
    if o[O.DOUBLED] == 1 and not ours and pa_kind == K_PENALTY:
        return C.PASS                                 # partner's penalty double stands
    if pa_kind == K_ASK and quiet:
        return _ace_reply(_aces(hand))
    if pa_kind == K_SIGNOFF and quiet and ours:
        return C.PASS
    if not ours and not quiet and _nothing_to_add(lens, hcp, part, rd[R_AGREED], p):
        return C.PASS
    strain, trumps = _choose_strain(lens, part, rd[R_AGREED])
    mp = _points_in(strain, lens, hcp, part)
    plo, phi = lo_of(part), hi_of(part)
    clo, chi = mp + plo, mp + phi
    game = p[MINOR_GAME_MIN] if strain < 2 else p[GAME_MIN]
    invite = p[INVITE_MIN] + game - p[GAME_MIN]
    gl = _game_level(strain)
    if my_kind == K_ASK and pa_kind == K_REPLY:
        return _after_ace_reply(hand, strain, clo, part, last, p)
    if pa_kind == K_QUANT and quiet:
        if clo >= p[GRAND_MIN]:
            return C.bid_code(7, strain)
        return C.bid_code(6, strain) if 2 * mp + plo + phi + 1 >= 2 * p[SLAM_MIN] else C.PASS
    if pa_kind == K_INVITE and quiet and ours and chi < p[SLAM_MIN]:
        ps = _strain(pa_last)
        if ps < 4 and ps != strain and lens[ps] + len_of(part, ps) >= 7 and lens[ps] >= 3:
            strain, gl = ps, _game_level(ps)
            mp = _points_in(strain, lens, hcp, part)
            game = p[MINOR_GAME_MIN] if strain < 2 else p[GAME_MIN]
        if 2 * mp + plo + phi + 1 >= 2 * game:
            code = C.bid_code(gl, strain)
            return code if code > last else C.PASS
        if _strain(last) == strain:
            return C.PASS
        code = _cheapest(last, strain)
        return code if _level(code) < gl else C.PASS
    if pa_kind == K_TAKEOUT and quiet and not ours and _strain(last) < 4 \
            and lens[_strain(last)] >= 4 and hcp >= p[RESPOND_MIN] + 2:
        return C.PASS                                 # a penalty pass
    forced = quiet and (pa_kind == K_FORCE or pa_kind == K_TAKEOUT)
    level = 0
    if clo >= p[GRAND_MIN]:
        level = 7
    elif clo >= p[SLAM_MIN]:
        level = 6
    elif chi >= p[SLAM_MIN] and strain == C.NOTRUMP and phi - plo <= 4 \
            and _natural_nt(pa_last, pa_kind) and quiet and last < C.bid_code(4, 4):
        level = 4
    elif clo >= game:
        level = gl
    elif chi >= invite:
        code = C.bid_code(gl - 1, strain) if strain < 4 else C.bid_code(2, 4)
        if phi - plo <= 7 and code > last and (ours or quiet):
            return code
        if phi - plo <= 10 and 2 * mp + plo + phi + 1 >= 2 * game:
            level = gl
    if level >= 6 and strain in MAJORS and not rd[R_ASKED] and last < C.bid_code(4, 4) \
            and not _natural_nt(pa_last, pa_kind):
        return C.bid_code(4, 4)                       # Blackwood
    if level == gl and strain in MAJORS and strain == rd[R_AGREED] and quiet \
            and chi >= p[SLAM_MIN] and phi - plo <= 6 and last < C.bid_code(5, strain):
        return C.bid_code(5, strain)                  # slam try: six with the upper half
    if level == 0:
        return _partscore(o, p, lens, last, ours, forced, strain, trumps, part)
    target = C.bid_code(level, strain)
    if ours and (last >= target or (_strain(last) == strain and level < 6
                                   and _level(last) >= _game_level(strain))):
        return C.PASS
    if target > last:
        return target
    if not ours and level >= gl and hcp + plo >= 23 and o[O.DOUBLED] == 0:
        nxt = _cheapest(last, strain)
        if strain < 4 and _level(nxt) <= trumps - 6 + p[COMPETE_MARGIN]:
            return nxt
        return C.DOUBLE                               # their sacrifice over our game
    return C.PASS


@njit(cache=True, _nrt=False)
def _partscore(o, p, lens, last, ours, forced, strain, trumps, part):
    """The cheapest bid in our strain, within the law of total tricks; pass when
    partner's contract will do."""
    if ours and not forced and (o[O.LAST_BIDDER] == o[O.SEAT]
                                or _contract_ok(last, strain, lens, part)):
        return C.PASS
    code = _cheapest(last, strain)
    if code >= C.N_CALLS:
        return C.PASS
    if forced and _level(code) < _game_level(strain):
        return code
    if strain == C.NOTRUMP:
        return code if ours and _level(code) <= 1 else C.PASS
    if ours and _level(code) == _game_level(strain) - 1:
        return C.PASS
    if trumps >= 8:
        cap = _compete_cap(lens[strain], len_of(part, strain), p)
    else:
        cap = 2 if lens[strain] >= 6 else 0
        if lens[strain] >= 7:
            cap = 3
    return code if _level(code) <= cap else C.PASS


CAPTAIN = -1
"""``_decide``'s answer when no special situation applies: the captain places the
contract."""


@njit(cache=True, _nrt=False, inline='always')
def _decide(o, p, hand, lens, hcp, rd):
    """The call in a recognised situation (opening side: response, opener's rebid,
    responder's second call over notrump, reopening; other side: entry, advance), or
    CAPTAIN."""
    me = o[O.SEAT]
    opener, opening, response = rd[R_OPENER], rd[R_OPENING], rd[R_RESPONSE]
    my_n, pa_n = rd[R_MY_N], rd[R_PA_N]
    pa_kind, my_kind = rd[R_PA_KIND], rd[R_MY_KIND]
    last = o[O.LAST_BID]
    interfered, opp_since = rd[R_INTERFERED], rd[R_OPP_SINCE]
    theirs = o[O.LAST_BIDDER] % 2 != me % 2
    we_opened = opener % 2 == me % 2
    responding = we_opened and opener != me and my_n == 0 and pa_n == 1
    negative = responding and _level(opening) == 1 and _strain(opening) < 4
    if theirs and o[O.DOUBLED] == 0 and my_n + pa_n > 0 and not negative \
            and _may_double(lens, hcp, last, p) and _penalty(hand, lens, hcp, last, rd[R_PART], p):
        return C.DOUBLE
    if we_opened:
        nt_open = _strain(opening) == C.NOTRUMP and _level(opening) <= 2
        if responding:
            if nt_open and not interfered:
                return _respond_nt(lens, hcp, opening, p)
            if opening == C.bid_code(2, 0) and not interfered:
                return C.bid_code(2, 1)
            if _level(opening) == 1 and _strain(opening) < 4:
                if interfered:
                    return _respond_contested(hand, lens, hcp, opening, last, rd[R_OPP_SUITS],
                                              rd[R_PART], p)
                return _respond_suit(hand, lens, hcp, opening, p)
        elif opener == me and my_n == 1 and pa_n == 1 and not opp_since and response != 0:
            if pa_kind == K_STAYMAN:
                L = _level(opening)
                if lens[2] >= 4:
                    return C.bid_code(L + 1, 2)
                return C.bid_code(L + 1, 3) if lens[3] >= 4 else C.bid_code(L + 1, 1)
            if pa_kind == K_TRANSFER:
                return _cheapest(last, _strain(response) + 1)
            if opening == C.bid_code(2, 0) and pa_kind == K_ART:
                return _after_two_clubs(lens, hcp, p)
            d = _describes(opening, response, pa_kind, interfered)
            if d == 1:
                return _opener_after_jacoby(lens, hcp, _strain(opening), p)
            if d == 2:
                return _rebid(hand, lens, hcp, opening, response, last, rd[R_PART], p)
        elif nt_open and opener != me and my_n == 1 and pa_n == 2 and not interfered \
                and (my_kind == K_STAYMAN or my_kind == K_TRANSFER):
            return _nt_continue(lens, hcp, opening, response, rd[R_PA_LAST], p)
        elif theirs and o[O.DOUBLED] == 0 and \
                _reopening_spot(opener == me, my_n, pa_n, last, _balancing(o)):
            if lens[_strain(last)] <= 1 and _strain(opening) != C.NOTRUMP:
                return C.DOUBLE
        return CAPTAIN
    if my_n == 0 and pa_n == 0:
        return _enter(hand, lens, hcp, last, rd[R_OPP_SUITS], _balancing(o), p)
    if my_n == 0 and pa_n == 1:
        pa_last = rd[R_PA_LAST]
        if pa_kind == K_TAKEOUT and not opp_since:
            return _advance_double(hand, lens, hcp, last, rd[R_OPP_SUITS], p)
        if pa_kind == K_NT and not opp_since:
            return _advance_nt(lens, hcp, rd[R_PART], p)
        if pa_last >= C.FIRST_BID and _strain(pa_last) < 4:
            return _advance_overcall(hand, lens, hcp, last, rd[R_OPP_SUITS], rd[R_OPP_LAST],
                                     _strain(pa_last), rd[R_PART], p)
    return CAPTAIN


@njit(cache=True, _nrt=False, inline='always')
def _silent_side(o, mask):
    """(our side has made no call but passes, the suits the opponents have bid): the
    common case of a defender, answered without replaying the auction."""
    ours = (o[O.SEAT] - o[O.DEALER]) % 2                 # our calls: even or odd places
    if mask >= 0 and mask & (np.int64(0x5555555555555555) << ours):
        return False, np.int64(0)
    suits = np.int64(0)
    n = o[O.N_CALLS]
    k = _next_call(o, 0, n, mask)
    while k < n:
        if k % 2 == ours:
            return False, suits
        c = _call(o, k)
        if c >= C.FIRST_BID and _strain(c) < 4:
            suits |= np.int64(1) << _strain(c)
        k = _next_call(o, k + 1, n, mask)
    return True, suits


@njit(cache=True, _nrt=False)
def _in_the_auction(o, p, lens, hcp, mask, memo):
    """A call after both sides have had their say: replay the auction, then the
    recognised situations or the captain. (Kept out of ``natural_call``, so the common
    quick answers do not pay for this function's large frame.)"""
    rd = read_auction(o, p, mask, memo)
    call = _decide(o, p, o[O.HAND], lens, hcp, rd)
    if call == CAPTAIN:
        call = _captain(o, p, o[O.HAND], lens, hcp, rd)
    return call


@njit(cache=True, _nrt=False, inline='always')
def natural_call(o, p, memo):
    """The natural system's call for the seat in ``o[SEAT]`` (its hand and the calls)."""
    lens, hcp = _hand(o[O.HAND])
    if o[O.LAST_BID] == 0:
        call = _open(lens, hcp, p)
    else:
        mask = _bid_mask(o)
        silent, opp_suits = _silent_side(o, mask)
        if silent:
            call = _enter(o[O.HAND], lens, hcp, o[O.LAST_BID], opp_suits, _balancing(o), p)
        else:
            call = _in_the_auction(o, p, lens, hcp, mask, memo)
    if call != C.PASS and (call >= C.N_CALLS or not (o[O.LEGAL] >> call) & 1):
        return C.PASS
    return call
