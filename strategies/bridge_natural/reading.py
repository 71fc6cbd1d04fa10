"""Auction reading: the calls replayed with the natural system's rules into what each
player has shown (a range of points, the least length in each suit, balance, aces) and
the kind of each call (forcing, invitational, to play, artificial...).

Both partners read the same public calls with the same rules, so they agree on what was
shown. ``read_auction`` is the entry; the ``_m_*`` functions say what one call shows in
one place of the auction. The small call-code helpers here serve the call choice too.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic, overload

from sim.games.bridge import core as C
from sim.games.bridge import obs as O
from sim.jit import jit
from strategies.bridge_natural import params as NP
from strategies.bridge_natural.features import MAJORS
from strategies.bridge_natural.memo import _M_FULL, _M_SEAT, _remember

# -- what a player has shown: a range and suit lengths, packed in one int64 ------------
# bits 0-5 low end of the range (points), 6-11 high end, 12-27 least length per suit
# (4 bits each, C D H S), 28 balanced, 29-31 aces shown (7: unknown).
_FRESH = np.int64(37 << 6) | np.int64(7 << 29)


@jit
def lo_of(pr):
    return pr & 63


@jit
def hi_of(pr):
    return (pr >> 6) & 63


@jit
def len_of(pr, s):
    return (pr >> (12 + 4 * s)) & 15


@jit
def balanced_of(pr):
    return (pr >> 28) & 1 == 1


@jit
def aces_of(pr):
    return (pr >> 29) & 7


@jit
def _with_range(pr, lo, hi):
    """Narrow the range to [lo, hi] (a contradiction keeps the old end)."""
    old_lo, old_hi = lo_of(pr), hi_of(pr)
    new_lo = min(max(old_lo, max(lo, 0)), old_hi)
    new_hi = max(min(old_hi, min(hi, 37)), new_lo)
    return (pr & ~np.int64(4095)) | np.int64(new_lo) | (np.int64(new_hi) << 6)


@jit
def _with_len(pr, s, n):
    if s > 3 or len_of(pr, s) >= n:
        return pr
    shift = 12 + 4 * s
    return (pr & ~(np.int64(15) << shift)) | (np.int64(min(n, 13)) << shift)


@jit
def _with_balanced(pr):
    pr = pr | (np.int64(1) << 28)
    for s in range(4):
        pr = _with_len(pr, s, 2)
    return pr


@jit
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


@jit
def _natural_nt(call, kind):
    """A natural notrump bid (over which 4NT is quantitative, not an ace ask)."""
    return call >= C.FIRST_BID and _strain(call) == C.NOTRUMP and \
        (kind == K_NT or kind == K_INVITE or kind == K_SIGNOFF)


# -- small auction helpers ----------------------------------------------------------------
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


@jit
def _strain(code):
    """``core.bid_strain`` in unsigned arithmetic (no floor-division sign fix-up: it runs
    for every bid of every replay). Only meaningful for bids."""
    return np.int64(np.uint64(code - C.FIRST_BID) % np.uint64(5))


@jit
def _level(code):
    """``core.bid_level`` in unsigned arithmetic; only meaningful for bids."""
    return np.int64(np.uint64(code - C.FIRST_BID) // np.uint64(5)) + 1


@jit
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


@jit
def _next_call(o, k, n, mask):
    """The first call at or after ``k`` that is not a pass (``n`` if none)."""
    if mask >= 0:
        rest = mask >> k
        return n if rest == 0 else k + _trailing_zeros(rest)
    while k < n and _call(o, k) == C.PASS:
        k += 1
    return k


@jit
def _call(o, k):
    """Call number ``k`` of the auction (an unsigned index: no negative-index fix-up in
    the hot loops)."""
    return o[np.uint64(O.CALLS + k)]


@jit
def _cheapest(last, strain):
    """Cheapest bid in ``strain`` over the bid ``last`` (0: none); > 37 when none."""
    if last == 0:
        return C.bid_code(1, strain)
    lvl = _level(last)
    if strain > _strain(last):
        return C.bid_code(lvl, strain)
    return C.bid_code(lvl + 1, strain)


@jit
def _game_level(strain):
    if strain == C.NOTRUMP:
        return 3
    return 4 if strain >= 2 else 5


@jit
def _is_jump(c, last):
    return c > _cheapest(last, _strain(c))


# -- the auction as both partners read it ---------------------------------------------------
Reading = namedtuple("Reading", ("mine", "part", "my_kind", "pa_kind", "my_n", "pa_n",
                                 "pa_last", "opener", "opening", "response", "agreed",
                                 "opp_suits", "opp_last", "opp_since", "interfered", "asked"))
"""What ``read_auction`` finds, for the seat that asks.

``mine``, ``part``: what this seat and its partner have shown (profiles: ``lo_of``,
``hi_of``, ``len_of``, ``balanced_of``, ``aces_of``); ``my_kind``, ``pa_kind``: the kind
(``K_*``) of each one's last call; ``my_n``, ``pa_n``: how many calls other than passes
each has made; ``pa_last``: partner's last such call (0: none); ``opener``, ``opening``:
who made the first bid and that bid (-1 and 0 before it); ``response``: the opener's
partner's first bid (0: none yet); ``agreed``: the suit this side has agreed (-1:
none); ``opp_suits``: bit ``s`` set when an opponent has bid suit ``s``; ``opp_last``: the
opponents' last bid (0: none); ``opp_since``: an opponent has called (not passed) since
this side's last call; ``interfered``: an opponent has called after the opening;
``asked``: this side has asked for aces (Blackwood 4NT).

A namedtuple rather than an array: it lives in registers (nothing is allocated or
stored), and reading a field costs what reading a tuple position costs."""


@jit
def _nt_range(opening, p):
    """(level, low, high) of a notrump opening (1NT or 2NT)."""
    if opening == C.bid_code(1, 4):
        return 1, np.int64(p[NP.NT_MIN]), np.int64(p[NP.NT_MAX])
    return 2, np.int64(p[NP.NT2_MIN]), np.int64(p[NP.NT2_MAX])


@jit(inline=True)
def _m_open(c, pr, p):
    """What an opening bid shows."""
    lv, st = _level(c), _strain(c)
    if c == C.bid_code(2, 0):
        return _with_range(pr, np.int64(p[NP.STRONG_MIN]), 37), K_FORCE
    if st == C.NOTRUMP and lv == 1:
        return _with_balanced(_with_range(pr, np.int64(p[NP.NT_MIN]), np.int64(p[NP.NT_MAX]))), K_NT
    if st == C.NOTRUMP and lv == 2:
        return _with_balanced(_with_range(pr, np.int64(p[NP.NT2_MIN]), np.int64(p[NP.NT2_MAX]))), K_NT
    if lv == 1:
        pr = _with_range(pr, np.int64(p[NP.OPEN_MIN]), np.int64(p[NP.STRONG_MIN]) - 1)
        return _with_len(pr, st, 5 if st >= 2 else 3), K_NONE
    pr = _with_range(pr, 5, np.int64(p[NP.WEAK_MAX]))
    n = 6 if lv == 2 else (np.int64(p[NP.PREEMPT_LEN]) if lv == 3 else 8)
    return _with_len(pr, st, n), K_NONE


@jit
def _m_nt_response(c, pr, opening, p):
    """Responder's first call over partner's 1NT/2NT, opponents silent."""
    L, lo, hi = _nt_range(opening, p)
    lv, st = _level(c), _strain(c)
    if lv == L + 1 and st == 0:
        return _with_range(pr, np.int64(p[NP.INVITE_MIN]) - hi, 37), K_STAYMAN
    if lv == L + 1 and st in (1, 2):
        return _with_len(pr, st + 1, 5), K_TRANSFER
    return _m_nt_raise(c, pr, lo, hi, p)


@jit
def _m_nt_raise(c, pr, lo, hi, p):
    """A notrump bid placing or inviting opposite partner's notrump range lo..hi."""
    lv, st = _level(c), _strain(c)
    if st != C.NOTRUMP:
        return pr, K_NONE
    game, slam, grand = np.int64(p[NP.GAME_MIN]), np.int64(p[NP.SLAM_MIN]), np.int64(p[NP.GRAND_MIN])
    if lv == 2:
        return _with_range(pr, np.int64(p[NP.INVITE_MIN]) - hi, game - lo - 1), K_INVITE
    if lv == 3:
        return _with_range(pr, game - hi, slam - hi - 1), K_SIGNOFF
    if lv == 4:
        return _with_range(pr, slam - hi, slam - lo - 1), K_QUANT
    if lv == 6:
        return _with_range(pr, slam - lo, grand - lo - 1), K_SIGNOFF
    if lv == 7:
        return _with_range(pr, grand - lo, 37), K_SIGNOFF
    return pr, K_NONE


@jit
def _m_respond_suit(c, pr, opening, before, contested, p):
    """Responder's first bid over partner's one of a suit (``before``: the last bid
    before it; ``contested``: an opponent has bid since the opening)."""
    x = _strain(opening)
    lv, st = _level(c), _strain(c)
    op, limit, r = np.int64(p[NP.OPEN_MIN]), np.int64(p[NP.LIMIT_RAISE_MIN]), np.int64(p[NP.RESPOND_MIN])
    gf = np.int64(p[NP.GAME_MIN]) - op
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
        need = r if lv == 1 else np.int64(p[NP.TWO_OVER_ONE_MIN])
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
        return _m_nt_raise(c, pr, op, np.int64(p[NP.STRONG_MIN]) - 1, p)
    if lv == 1:
        return _with_len(_with_range(pr, r, 37), st, 4), K_FORCE
    if lv == 2 and not _is_jump(c, before):
        return _with_len(_with_range(pr, np.int64(p[NP.TWO_OVER_ONE_MIN]), 37), st,
                         5 if st == 2 else 4), K_FORCE
    return _with_len(pr, st, 6), K_NONE


@jit
def _m_double_by_responder(pr, opening, opp_suits, p):
    """Negative double: four cards in each unbid major (the minors without one)."""
    x = _strain(opening)
    pr = _with_range(pr, np.int64(p[NP.RESPOND_MIN]), 37)
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


@jit
def _m_rebid(c, pr, opening, response, pa_pr, before, p):
    """Opener's rebid (opponents silent since the response) after one of a suit."""
    x = _strain(opening)
    rs = _strain(response)
    lv, st = _level(c), _strain(c)
    op = np.int64(p[NP.OPEN_MIN])
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
                return _with_range(pr, np.int64(p[NP.NT_MAX]) + 1, np.int64(p[NP.NT2_MIN]) - 1), K_INVITE
            return _with_range(pr, np.int64(p[NP.NT2_MIN]), 37), K_SIGNOFF
        if jump or lv >= 3:
            return _with_range(pr, np.int64(p[NP.NT_MAX]) + 1, np.int64(p[NP.NT2_MIN]) - 1), K_INVITE
        return _with_range(pr, op, np.int64(p[NP.NT_MIN]) - 1), K_NT
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


@jit
def _m_enter(c, pr, last, balancing, p):
    """A first call over the opponents' opening (``last``: their bid)."""
    allow = np.int64(p[NP.BALANCE_ALLOW]) if balancing else 0
    lv, st = _level(c), _strain(c)
    if st == C.NOTRUMP:
        return _with_balanced(_with_range(pr, np.int64(p[NP.NT_MIN]) - allow,
                                          np.int64(p[NP.NT_MAX]) + 1)), K_NT
    if _is_jump(c, last) and not balancing:
        return _with_len(_with_range(pr, 5, np.int64(p[NP.WEAK_MAX])), st, 6), K_NONE
    need = np.int64(p[NP.OVERCALL_MIN]) if lv == 1 else np.int64(p[NP.OVERCALL_TWO_MIN]) + 2 * (lv - 2)
    return _with_len(_with_range(pr, need - allow, np.int64(p[NP.TAKEOUT_MIN]) + 4), st, 5), K_NONE


@jit
def _m_takeout(pr, last, opp_suits, balancing, p):
    if _strain(last) == C.NOTRUMP:
        return _with_range(pr, np.int64(p[NP.NT_MIN]), 37), K_PENALTY
    allow = np.int64(p[NP.BALANCE_ALLOW]) if balancing else 0
    pr = _with_range(pr, np.int64(p[NP.TAKEOUT_MIN]) - allow + 2 * (_level(last) - 1), 37)
    for s in MAJORS:
        if not (opp_suits >> s) & 1:
            pr = _with_len(pr, s, 3)
    return pr, K_TAKEOUT


@jit
def _m_advance_double(c, pr, last, p):
    """Answer to partner's takeout double."""
    st = _strain(c)
    tk = np.int64(p[NP.TAKEOUT_MIN])
    gf = np.int64(p[NP.GAME_MIN]) - tk
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


@jit
def _m_advance_overcall(c, pr, pa_pr, ps, last, opp_suits, p):
    """Answer to partner's suit overcall in ``ps``: raise, cue-bid, notrump, own suit."""
    st = _strain(c)
    r, limit = np.int64(p[NP.RESPOND_MIN]), np.int64(p[NP.LIMIT_RAISE_MIN])
    if st == ps:
        pr = _with_len(pr, ps, 3)
        if _level(c) >= _game_level(ps):
            game = np.int64(p[NP.GAME_MIN]) if ps >= 2 else np.int64(p[NP.MINOR_GAME_MIN])
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


@jit
def _m_advance_nt(c, pr, pa_pr, p):
    """Answer to partner's 1NT overcall: a weak five-card major, a forcing three of a
    major (five cards, game values), four of a six-card major, or notrump by points."""
    lo, hi = lo_of(pa_pr), hi_of(pa_pr)
    lv, st = _level(c), _strain(c)
    if st in MAJORS:
        if lv == 2:
            return _with_len(_with_range(pr, 0, np.int64(p[NP.INVITE_MIN]) - hi - 1), st, 5), K_SIGNOFF
        if lv == 3:
            return _with_len(_with_range(pr, np.int64(p[NP.GAME_MIN]) - hi, 37), st, 5), K_FORCE
        return _with_len(pr, st, 6), K_SIGNOFF
    return _m_nt_raise(c, pr, lo, hi, p)


@jit(inline=True)
def _m_later(c, pr, pa_pr, my_kind, pa_kind, pa_last, agreed, before, opp_since, p):
    """A later bid, read by the captain's rules: an ace answer, a sign-off at game or
    slam, an invitation one below game, a new suit (forcing), a raise or a rebid."""
    lv, st = _level(c), _strain(c)
    if pa_kind == K_ASK and not opp_since:
        return pr, K_REPLY
    if my_kind == K_ASK:
        return pr, K_SIGNOFF
    slam = np.int64(p[NP.SLAM_MIN])
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
    game = np.int64(p[NP.GAME_MIN]) if st >= 2 else np.int64(p[NP.MINOR_GAME_MIN])
    if lv >= _game_level(st):
        return _with_range(pr, game - hi_of(pa_pr), 37), K_SIGNOFF
    if st < 4 and len_of(pa_pr, st) >= 3 and len_of(pr, st) == 0:
        pr = _with_len(pr, st, 8 - len_of(pa_pr, st))          # a raise
    elif st < 4 and len_of(pr, st) > 0:
        pr = _with_len(pr, st, len_of(pr, st) + 1)             # a rebid
    elif st < 4:
        return _with_len(pr, st, 4), K_FORCE                   # a new suit
    if (lv == _game_level(st) - 1 or (st == C.NOTRUMP and lv == 2)) and not opp_since:
        inv = np.int64(p[NP.INVITE_MIN])
        return _with_range(pr, inv - hi_of(pa_pr), game - lo_of(pa_pr) - 1), K_INVITE
    return pr, K_NONE


@jit(inline=True)
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


@jit(inline=True)
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
    return Reading(mine, part, my_kind, pa_kind, my_n, pa_n, pa_last, opener, opening, response,
                   agreed, opp_suits, opp_last, opp_since, interfered, asked)


@jit(inline=True)
def _passed_in(seat, dealer, prev, k):
    """Whether ``seat`` had a turn (a pass) among calls ``prev + 1 .. k - 1``."""
    first = prev + 1 + (seat - dealer - prev - 1) % 4
    return first < k


@jit(inline=True)
def _pass_cap(opener, s, partner_n, interfered, p):
    """Most points a pass (before the player's first bid) can hold: below an opening
    before anyone opened; below a response (a free bid in competition) under partner's
    opening; below an entry (nt_min) over theirs; below an advance after partner's
    entry."""
    if opener < 0:
        return np.int64(p[NP.OPEN_MIN]) - 1
    if s == opener:
        return 37
    if opener % 2 == s % 2:
        if interfered:
            return np.int64(p[NP.TWO_OVER_ONE_MIN]) - 1
        return np.int64(p[NP.RESPOND_MIN]) - 1
    if partner_n == 0:
        return np.int64(p[NP.NT_MIN])
    return np.int64(p[NP.RESPOND_MIN]) + 1


@jit(inline=True)
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
            op = np.int64(p[NP.OPEN_MIN])
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


@jit
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


@jit
def _reopening_spot(is_opener, my_bids, partner_bids, last, balancing):
    """The opener's turn again after an overcall at the one or two level and two passes:
    a double here is for takeout (partner may pass it for penalties)."""
    return is_opener and my_bids == 1 and partner_bids == 0 and balancing and \
        last >= C.FIRST_BID and _level(last) <= 2 and _strain(last) < 4


@jit
def _m_after_two_clubs(c, pr, p):
    strong = np.int64(p[NP.STRONG_MIN])
    if _strain(c) == C.NOTRUMP:
        if _level(c) == 2:
            return _with_balanced(_with_range(pr, strong, strong + 2))
        return _with_balanced(_with_range(pr, strong + 3, 37))
    return _with_len(pr, _strain(c), 5)


@jit(inline=True)
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


@jit
def _m_nt_continue(c, pr, opening, response, reply, p):
    """Responder's second call after Stayman or a transfer over 1NT/2NT."""
    L, lo, hi = _nt_range(opening, p)
    lv, st = _level(c), _strain(c)
    inv, game = np.int64(p[NP.INVITE_MIN]), np.int64(p[NP.GAME_MIN])
    slam = np.int64(p[NP.SLAM_MIN])
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
