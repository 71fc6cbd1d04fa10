"""Call choice: the natural system's call from its own hand and what the auction has
shown (``reading.read_auction``): openings, responses, rebids, competition, and the
captain who places the contract. ``natural_call`` is the entry.
"""

from __future__ import annotations

import numpy as np

from sim.games.bridge import core as C
from sim.games.bridge import obs as O
from sim.jit import jit
from strategies.bridge_natural import params as NP
from strategies.bridge_natural.features import (
    MAJORS,
    _aces,
    _balanced,
    _hand,
    _length_points,
    _longest,
    _no_shortness,
    _quick_tricks,
    _stopper,
    _suit_quality,
    _support_points,
)
from strategies.bridge_natural.reading import (
    K_ART,
    K_ASK,
    K_FORCE,
    K_INVITE,
    K_NT,
    K_PENALTY,
    K_QUANT,
    K_REPLY,
    K_SIGNOFF,
    K_STAYMAN,
    K_TAKEOUT,
    K_TRANSFER,
    _bid_mask,
    _call,
    _cheapest,
    _describes,
    _game_level,
    _level,
    _natural_nt,
    _next_call,
    _nt_range,
    _reopening_spot,
    _strain,
    aces_of,
    hi_of,
    len_of,
    lo_of,
    read_auction,
)


@jit
def _opening_suit(lens):
    """The longest suit with five or more (ties: the higher); else a minor (1D with 4-4,
    1C with 3-3)."""
    s = _longest(lens, 0)
    if lens[s] >= 5:
        return s
    if lens[1] > lens[0] or (lens[1] == lens[0] and lens[1] >= 4):
        return 1
    return 0


@jit(inline=True)
def _open(lens, hcp, p):
    pts = _length_points(hcp, lens)
    bal = _balanced(lens)
    if bal and p[NP.NT_MIN] <= hcp <= p[NP.NT_MAX]:
        return C.bid_code(1, 4)
    if bal and p[NP.NT2_MIN] <= hcp <= p[NP.NT2_MAX]:
        return C.bid_code(2, 4)
    if pts >= p[NP.STRONG_MIN]:
        return C.bid_code(2, 0)
    if pts >= p[NP.OPEN_MIN]:
        return C.bid_code(1, _opening_suit(lens))
    if 5 <= hcp <= p[NP.WEAK_MAX]:
        s = _longest(lens, 0)
        if lens[s] >= 8 and s >= 2:
            return C.bid_code(4, s)
        if lens[s] >= p[NP.PREEMPT_LEN]:
            return C.bid_code(3, s)
        if lens[s] == 6 and s > 0:
            return C.bid_code(2, s)
    return C.PASS


@jit
def _nt_place(h, lo, hi, level_open, p):
    """Responder's notrump placement opposite a notrump range lo..hi (quantitative)."""
    if h + lo >= p[NP.GRAND_MIN]:
        return C.bid_code(7, 4)
    if h + lo >= p[NP.SLAM_MIN]:
        return C.bid_code(6, 4)
    if h + hi >= p[NP.SLAM_MIN]:
        return C.bid_code(4, 4)
    if h + lo >= p[NP.GAME_MIN]:
        return C.bid_code(3, 4)
    if h + hi >= p[NP.INVITE_MIN]:
        if level_open == 1:
            return C.bid_code(2, 4)
        if 2 * h + lo + hi + 1 >= 2 * p[NP.GAME_MIN]:
            return C.bid_code(3, 4)
    return C.PASS


@jit
def _respond_nt(lens, hcp, opening, p):
    """Over partner's 1NT/2NT: transfers with a five-card major, Stayman with a four-card
    major and invitational values, else notrump by combined HCP."""
    L, lo, hi = _nt_range(opening, p)
    if lens[3] >= 5 and lens[3] >= lens[2]:
        return C.bid_code(L + 1, 2)                  # transfer to spades
    if lens[2] >= 5:
        return C.bid_code(L + 1, 1)                  # transfer to hearts
    if (lens[2] >= 4 or lens[3] >= 4) and hcp + hi >= p[NP.INVITE_MIN]:
        return C.bid_code(L + 1, 0)                  # Stayman
    return _nt_place(hcp, lo, hi, L, p)


@jit
def _after_transfer(lens, hcp, m, L, lo, hi, p):
    """Responder's call after his transfer to the major ``m`` over L NT (range lo..hi):
    with six cards the major, with five notrump (opener may choose), by points."""
    pts = _length_points(hcp, lens)
    six = lens[m] >= 6
    if pts + lo >= p[NP.GRAND_MIN]:
        return C.bid_code(7, m if six else 4)
    if pts + lo >= p[NP.SLAM_MIN]:
        return C.bid_code(6, m if six else 4)
    if pts + hi >= p[NP.SLAM_MIN]:
        return C.bid_code(5, m) if six else C.bid_code(4, 4)
    if pts + lo >= p[NP.GAME_MIN]:
        return C.bid_code(4, m) if six else C.bid_code(3, 4)
    if pts + hi >= p[NP.INVITE_MIN] and L == 1:
        return C.bid_code(3, m) if six else C.bid_code(2, 4)
    if pts + hi >= p[NP.INVITE_MIN] and 2 * pts + lo + hi + 1 >= 2 * p[NP.GAME_MIN]:
        return C.bid_code(4, m) if six else C.bid_code(3, 4)
    return C.PASS


@jit
def _nt_continue(lens, hcp, opening, response, reply, p):
    """Responder's second call after Stayman's answer or a completed transfer."""
    L, lo, hi = _nt_range(opening, p)
    if _strain(response) != 0:
        call = _after_transfer(lens, hcp, _strain(response) + 1, L, lo, hi, p)
        # this system completes at the cheapest level; another policy may bid past it
        return call if call > reply else C.PASS
    rm = _strain(reply) if _level(reply) == L + 1 else -1
    if rm in MAJORS and lens[rm] >= 4:               # Stayman found a fit
        sp = _support_points(hcp, lens, rm)
        if sp + lo >= p[NP.GRAND_MIN]:
            return C.bid_code(7, rm)
        if sp + lo >= p[NP.SLAM_MIN]:
            return C.bid_code(6, rm)
        if sp + hi >= p[NP.SLAM_MIN]:
            return C.bid_code(5, rm)                  # slam try: six with a maximum
        if sp + lo >= p[NP.GAME_MIN]:
            return C.bid_code(4, rm)
        if sp + hi >= p[NP.INVITE_MIN] and L == 1:
            return C.bid_code(3, rm)
        if sp + hi >= p[NP.INVITE_MIN] and 2 * sp + lo + hi + 1 >= 2 * p[NP.GAME_MIN]:
            return C.bid_code(4, rm)
        return C.PASS
    call = _nt_place(hcp, lo, hi, L, p)
    return call if call > reply else C.PASS


@jit
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


@jit
def _major_to_show(lens):
    """A four-card or longer major for a one-level response: the longer; 1H with 4-4,
    1S with 5-5."""
    h, s = lens[2], lens[3]
    if s >= 4 and (s > h or (s == h and s >= 5)):
        return 3
    if h >= 4:
        return 2
    return -1


@jit
def _support_needed(x):
    return 3 if x >= 2 else (4 if x == 1 else 5)


@jit
def _respond_suit(hand, lens, hcp, opening, p):
    """Over partner's one of a suit, opponents silent."""
    x = _strain(opening)
    op, limit, r = p[NP.OPEN_MIN], p[NP.LIMIT_RAISE_MIN], p[NP.RESPOND_MIN]
    gf = p[NP.GAME_MIN] - op
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
    if hcp >= p[NP.TWO_OVER_ONE_MIN]:
        s = _two_over_one_suit(lens, x)
        if s >= 0:
            return C.bid_code(2, s)
    if x < 2 and bal and limit + 1 <= hcp <= gf - 1:
        return C.bid_code(2, 4)
    if hcp <= (gf - 1 if x >= 2 else limit) or hcp < p[NP.TWO_OVER_ONE_MIN]:
        return C.bid_code(1, 4)
    s = _longest(lens, (np.int64(1) << x) | np.int64(0b1100))
    return C.bid_code(2, s) if s < x else C.bid_code(1, 4)


@jit
def _compete_cap(my_len, pa_len, p):
    """Law of total tricks: the level a partscore fight may reach."""
    return max(2, my_len + pa_len - 6 + np.int64(p[NP.COMPETE_MARGIN]))


@jit
def _respond_contested(hand, lens, hcp, opening, last, opp_suits, part, p):
    """Over partner's one of a suit after the opponents came in (``last``: the last
    bid; a double leaves it at the opening)."""
    x = _strain(opening)
    limit, r = p[NP.LIMIT_RAISE_MIN], p[NP.RESPOND_MIN]
    gf = p[NP.GAME_MIN] - p[NP.OPEN_MIN]
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
        if sup >= r and raise_ < C.N_CALLS \
                and _level(raise_) <= _compete_cap(lens[x], len_of(part, x), p):
            return raise_
    if hcp < r:
        return C.PASS
    s = _longest(lens, opp_suits | (np.int64(1) << x))
    if s >= 0 and lens[s] >= 5:
        code = _cheapest(last, s)
        lv = _level(code)
        if (lv == 1 and hcp >= r) or (lv == 2 and hcp >= p[NP.TWO_OVER_ONE_MIN]):
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


@jit
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


@jit
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
            if p[NP.NT_MAX] + 1 <= hcp < p[NP.NT2_MIN]:
                return C.bid_code(2, 4)
            if hcp >= p[NP.NT2_MIN]:
                return C.bid_code(3, 4)
            return C.PASS
        code = _cheapest(last, C.NOTRUMP)
        if hcp <= p[NP.NT_MIN] - 1:
            return code
        if hcp <= p[NP.NT2_MIN] - 1 and code + 5 < C.N_CALLS:
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


@jit
def _opener_after_jacoby(lens, hcp, x, p):
    pts = _length_points(hcp, lens)
    return C.bid_code(4, x) if pts <= p[NP.OPEN_MIN] + 2 else C.bid_code(3, x)


@jit
def _after_two_clubs(lens, hcp, last, p):
    """Opener's rebid after 2C and partner's answer ``last`` (2D here; a partner playing
    another policy may bid anything): 2NT with strong_min..+2 balanced, 3NT with more
    (the cheapest notrump over a higher answer), else his longest suit."""
    if _balanced(lens):
        code = C.bid_code(2, 4) if hcp <= p[NP.STRONG_MIN] + 2 else C.bid_code(3, 4)
        if code <= last:
            code = _cheapest(last, C.NOTRUMP)
    else:
        code = _cheapest(last, _longest(lens, 0))
    return code if code < C.N_CALLS else C.PASS


@jit(inline=True)
def _balancing(o):
    n = o[O.N_CALLS]
    return n >= 3 and _call(o, n - 1) == C.PASS and _call(o, n - 2) == C.PASS


@jit
def _least_to_enter(lens, lv, balancing, allow, p):
    """The fewest HCP any entry below could want over a bid at level ``lv`` (a quick
    pass for most defenders' hands, which are asked again after every bid)."""
    longest = max(max(lens[0], lens[1]), max(lens[2], lens[3]))
    least = 99.0
    if lv <= 3:
        least = p[NP.TAKEOUT_MIN] + 2 * (lv - 1)
        if longest >= 5:
            least = min(least, p[NP.OVERCALL_MIN] if lv == 1 else p[NP.OVERCALL_TWO_MIN] + 2 * (lv - 2))
    if lv <= 2:
        least = min(least, p[NP.NT_MIN])
    least -= allow
    if longest >= 6 and lv <= 2 and not balancing:
        least = min(least, 5.0)
    return least


@jit
def _enter(hand, lens, hcp, last, opp_suits, balancing, p):
    """First call over the opponents' opening: 1NT (2NT over a weak two), an overcall,
    a takeout double, a weak jump overcall."""
    allow = p[NP.BALANCE_ALLOW] if balancing else 0.0
    ts, lv = _strain(last), _level(last)
    if hcp < _least_to_enter(lens, lv, balancing, allow, p):
        return C.PASS                                # the usual case: nothing to say
    if ts == C.NOTRUMP and lv == 1 and hcp >= p[NP.NT_MIN]:
        return C.DOUBLE                              # penalty
    if ts < 4 and lv <= 2 and _balanced(lens) and p[NP.NT_MIN] - allow <= hcp <= p[NP.NT_MAX] + 1 \
            and _stopper(hand, ts):
        return _cheapest(last, C.NOTRUMP)
    s = _longest(lens, opp_suits)
    overcall = C.PASS
    if s >= 0 and lens[s] >= 5:
        code = _cheapest(last, s)
        lvs = _level(code)
        need = (p[NP.OVERCALL_MIN] if lvs == 1 else p[NP.OVERCALL_TWO_MIN] + 2 * (lvs - 2)) - allow
        if lvs <= 3 and need <= hcp and (lvs == 1 or lens[s] >= 6 or _suit_quality(hand, s) >= 2):
            overcall = code
        elif not balancing and lens[s] >= 6 and 5 <= hcp <= p[NP.WEAK_MAX] \
                and code + 5 < C.N_CALLS and _level(code + 5) <= 3:
            return code + 5
    if overcall != C.PASS and hcp <= p[NP.TAKEOUT_MIN] + 4:
        return overcall
    if ts < 4 and lv <= 3:
        need = p[NP.TAKEOUT_MIN] - allow + 2 * (lv - 1)
        if hcp >= need + 6 or (hcp >= need and lens[ts] <= 2 and _takeout_shape(lens, opp_suits)):
            return C.DOUBLE
    return overcall


@jit
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


@jit
def _advance_double(hand, lens, hcp, last, opp_suits, p):
    """Answer partner's takeout double (RHO passed): forced to bid."""
    ts = _strain(last)
    gf = p[NP.GAME_MIN] - p[NP.TAKEOUT_MIN]
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
            code = C.bid_code(4, s)
        elif stop and _no_shortness(lens):
            code = C.bid_code(3, 4)
        else:
            code = _cheapest(last, ts) if ts < 4 else C.bid_code(3, 4)
        # partner doubled their game (or more): with game values the double stands
        return code if last < code < C.N_CALLS else C.PASS
    if stop and _balanced(lens) and not major and _level(last) == 1 and hcp >= 6:
        return C.bid_code(1, 4) if hcp <= gf - 4 else C.bid_code(2, 4)
    code = _cheapest(last, s)
    if hcp >= gf - 4 and code + 5 < C.bid_code(_game_level(s), s):
        return code + 5
    return code if code < C.N_CALLS else C.PASS


@jit
def _advance_nt(lens, hcp, last, part, p):
    """Over partner's notrump overcall ``last`` (RHO passed): a five-card major (weak,
    over 1NT only: two of it; game values: three, forcing; six cards: four), else
    notrump by points. Over 2NT (a weak two overcalled, or the balancing seat) and
    higher only what goes above it."""
    lo, hi = lo_of(part), hi_of(part)
    level = _level(last)
    m = 3 if lens[3] >= 5 and lens[3] >= lens[2] else (2 if lens[2] >= 5 else -1)
    if m >= 0:
        pts = _length_points(hcp, lens)
        if pts + lo >= p[NP.GAME_MIN]:
            code = C.bid_code(4, m) if lens[m] >= 6 else C.bid_code(3, m)
            if code > last:
                return code
        elif pts + hi < p[NP.INVITE_MIN] and level == 1:
            return C.bid_code(2, m)
    call = _nt_place(hcp, lo, hi, level, p)
    return call if call > last else C.PASS


@jit
def _advance_overcall(hand, lens, hcp, last, opp_suits, opp_last, ps, part, p):
    """Answer partner's suit overcall in ``ps``: raise, cue-bid, notrump, own suit."""
    if lens[ps] < 3 and hcp < 8:
        return C.PASS                                 # no support, and too weak for the rest
    if lens[ps] >= 3:
        sp = _support_points(hcp, lens, ps)
        game = p[NP.GAME_MIN] if ps >= 2 else p[NP.MINOR_GAME_MIN]
        if sp + lo_of(part) >= game:
            g = C.bid_code(_game_level(ps), ps)
            if g > last:
                return g
        if sp >= p[NP.LIMIT_RAISE_MIN] and opp_last >= C.FIRST_BID and _strain(opp_last) < 4 \
                and hi_of(part) > p[NP.WEAK_MAX]:
            cue = _cheapest(last, _strain(opp_last))
            if _level(cue) <= 3 and cue < C.bid_code(_game_level(ps), ps):
                return cue
        if sp >= p[NP.RESPOND_MIN] - 1:
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


@jit
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


@jit
def _points_in(strain, lens, hcp, part):
    if strain == C.NOTRUMP:
        return hcp
    if len_of(part, strain) >= lens[strain]:
        return _support_points(hcp, lens, strain)   # the short-trump hand
    return _length_points(hcp, lens)


@jit
def _contract_ok(last, strain, lens, part):
    """Partner's last bid is a fair partscore for us: our strain, or a seven-card fit."""
    cs = _strain(last)
    if cs == strain:
        return True
    if cs == C.NOTRUMP:
        return strain == C.NOTRUMP or lens[strain] < 6
    return lens[cs] + len_of(part, cs) >= 7 and (strain == C.NOTRUMP or lens[strain] < 6)


@jit
def _ace_reply(aces):
    """Blackwood answer: 5C 0 or 4, 5D 1, 5H 2, 5S 3."""
    return C.bid_code(5, aces % 4)


@jit
def _after_ace_reply(hand, strain, clo, part, last, p):
    pa_aces = aces_of(part)
    mine = _aces(hand)
    if pa_aces == 0 and mine == 0:
        pa_aces = 4                                   # 5C: none or all four
    total = mine + pa_aces
    if total <= 2:
        code = C.bid_code(5, strain)
    elif total == 4 and clo >= p[NP.GRAND_MIN]:
        code = C.bid_code(7, strain)
    else:
        code = C.bid_code(6, strain)
    # above the answer unless the opponents bid over it (or partner, playing another
    # policy, answered higher)
    return code if code > last else C.PASS


@jit
def _may_double(lens, hcp, last, p):
    """A quick test before ``_penalty``: the bid is at the two level or higher and the
    hand could hold penalty_min defensive tricks (quick tricks never exceed HCP / 3.5)."""
    ts = _strain(last)
    trumps = lens[ts] - 3 if ts < 4 and lens[ts] >= 4 else 0
    return _level(last) >= 2 and hcp + 3.5 * trumps >= 3.5 * p[NP.PENALTY_MIN]


@jit
def _penalty(hand, lens, hcp, last, part, p):
    """A sound penalty double of the opponents' bid ``last`` (two level or higher): own
    defensive tricks and partner's shown points beat it by a trick."""
    lv, ts = _level(last), _strain(last)
    trumps = lens[ts] - 3 if ts < 4 and lens[ts] >= 4 else 0
    own = _quick_tricks(hand) + trumps
    if own < p[NP.PENALTY_MIN]:
        return False
    return own + lo_of(part) / 4.0 >= 8 - lv


@jit
def _nothing_to_add(lens, hcp, part, agreed, p):
    """The opponents outbid us, and we have no eight-card fit, no six-card suit and no
    invitational values (even opposite partner's maximum): the captain would pass.
    Checked first because it is the most common case in competition."""
    if agreed >= 0 or max(max(lens[0], lens[1]), max(lens[2], lens[3])) >= 6:
        return False
    for s in range(4):
        if lens[s] + len_of(part, s) >= 8:
            return False
    return hcp + hi_of(part) < p[NP.INVITE_MIN]


@jit(inline=True)
def _captain(o, p, hand, lens, hcp, rd):
    """Place the contract from partner's shown range and lengths (see the docstring)."""
    me = o[O.SEAT]
    last = o[O.LAST_BID]
    ours = o[O.LAST_BIDDER] % 2 == me % 2
    part = rd.part
    my_kind, pa_kind, pa_last = rd.my_kind, rd.pa_kind, rd.pa_last
    quiet = not rd.opp_since
    if o[O.DOUBLED] == 1 and not ours and pa_kind == K_PENALTY:
        return C.PASS                                 # partner's penalty double stands
    if pa_kind == K_ASK and quiet:
        return _ace_reply(_aces(hand))
    if pa_kind == K_SIGNOFF and quiet and ours:
        return C.PASS
    if not ours and not quiet and _nothing_to_add(lens, hcp, part, rd.agreed, p):
        return C.PASS
    strain, trumps = _choose_strain(lens, part, rd.agreed)
    mp = _points_in(strain, lens, hcp, part)
    plo, phi = lo_of(part), hi_of(part)
    clo, chi = mp + plo, mp + phi
    game = p[NP.MINOR_GAME_MIN] if strain < 2 else p[NP.GAME_MIN]
    invite = p[NP.INVITE_MIN] + game - p[NP.GAME_MIN]
    gl = _game_level(strain)
    if my_kind == K_ASK and pa_kind == K_REPLY:
        return _after_ace_reply(hand, strain, clo, part, last, p)
    if pa_kind == K_QUANT and quiet:
        if clo >= p[NP.GRAND_MIN]:
            return C.bid_code(7, strain)
        return C.bid_code(6, strain) if 2 * mp + plo + phi + 1 >= 2 * p[NP.SLAM_MIN] else C.PASS
    if pa_kind == K_INVITE and quiet and ours and chi < p[NP.SLAM_MIN]:
        ps = _strain(pa_last)
        if ps < 4 and ps != strain and lens[ps] + len_of(part, ps) >= 7 and lens[ps] >= 3:
            strain, gl = ps, _game_level(ps)
            mp = _points_in(strain, lens, hcp, part)
            game = p[NP.MINOR_GAME_MIN] if strain < 2 else p[NP.GAME_MIN]
        if 2 * mp + plo + phi + 1 >= 2 * game:
            code = C.bid_code(gl, strain)
            return code if code > last else C.PASS
        if _strain(last) == strain:
            return C.PASS
        code = _cheapest(last, strain)
        return code if _level(code) < gl else C.PASS
    if pa_kind == K_TAKEOUT and quiet and not ours and _strain(last) < 4 \
            and lens[_strain(last)] >= 4 and hcp >= p[NP.RESPOND_MIN] + 2:
        return C.PASS                                 # a penalty pass
    forced = quiet and (pa_kind == K_FORCE or pa_kind == K_TAKEOUT)
    level = 0
    if clo >= p[NP.GRAND_MIN]:
        level = 7
    elif clo >= p[NP.SLAM_MIN]:
        level = 6
    elif chi >= p[NP.SLAM_MIN] and strain == C.NOTRUMP and phi - plo <= 4 \
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
    if level >= 6 and strain in MAJORS and not rd.asked and last < C.bid_code(4, 4) \
            and not _natural_nt(pa_last, pa_kind):
        return C.bid_code(4, 4)                       # Blackwood
    if level == gl and strain in MAJORS and strain == rd.agreed and quiet \
            and chi >= p[NP.SLAM_MIN] and phi - plo <= 6 and last < C.bid_code(5, strain):
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
        if strain < 4 and nxt < C.N_CALLS and _level(nxt) <= trumps - 6 + p[NP.COMPETE_MARGIN]:
            return nxt
        return C.DOUBLE                               # their sacrifice over our game
    return C.PASS


@jit
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


@jit(inline=True)
def _decide(o, p, hand, lens, hcp, rd):
    """The call in a recognised situation (opening side: response, opener's rebid,
    responder's second call over notrump, reopening; other side: entry, advance), or
    CAPTAIN."""
    me = o[O.SEAT]
    opener, opening, response = rd.opener, rd.opening, rd.response
    my_n, pa_n = rd.my_n, rd.pa_n
    pa_kind, my_kind = rd.pa_kind, rd.my_kind
    last = o[O.LAST_BID]
    interfered, opp_since = rd.interfered, rd.opp_since
    theirs = o[O.LAST_BIDDER] % 2 != me % 2
    we_opened = opener % 2 == me % 2
    responding = we_opened and opener != me and my_n == 0 and pa_n == 1
    negative = responding and _level(opening) == 1 and _strain(opening) < 4
    if theirs and o[O.DOUBLED] == 0 and my_n + pa_n > 0 and not negative \
            and _may_double(lens, hcp, last, p) and _penalty(hand, lens, hcp, last, rd.part, p):
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
                    return _respond_contested(hand, lens, hcp, opening, last, rd.opp_suits,
                                              rd.part, p)
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
                return _after_two_clubs(lens, hcp, last, p)
            d = _describes(opening, response, pa_kind, interfered)
            if d == 1:
                return _opener_after_jacoby(lens, hcp, _strain(opening), p)
            if d == 2:
                return _rebid(hand, lens, hcp, opening, response, last, rd.part, p)
        elif nt_open and opener != me and my_n == 1 and pa_n == 2 and not interfered \
                and (my_kind == K_STAYMAN or my_kind == K_TRANSFER):
            return _nt_continue(lens, hcp, opening, response, rd.pa_last, p)
        elif theirs and o[O.DOUBLED] == 0 and \
                _reopening_spot(opener == me, my_n, pa_n, last, _balancing(o)):
            if lens[_strain(last)] <= 1 and _strain(opening) != C.NOTRUMP:
                return C.DOUBLE
        return CAPTAIN
    if my_n == 0 and pa_n == 0:
        return _enter(hand, lens, hcp, last, rd.opp_suits, _balancing(o), p)
    if my_n == 0 and pa_n == 1:
        pa_last = rd.pa_last
        if pa_kind == K_TAKEOUT and not opp_since:
            return _advance_double(hand, lens, hcp, last, rd.opp_suits, p)
        if pa_kind == K_NT and not opp_since:
            return _advance_nt(lens, hcp, last, rd.part, p)
        if pa_last >= C.FIRST_BID and _strain(pa_last) < 4:
            return _advance_overcall(hand, lens, hcp, last, rd.opp_suits, rd.opp_last,
                                     _strain(pa_last), rd.part, p)
    return CAPTAIN


@jit(inline=True)
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


@jit
def _in_the_auction(o, p, lens, hcp, mask, memo):
    """A call after both sides have had their say: replay the auction, then the
    recognised situations or the captain. (Kept out of ``natural_call``, so the common
    quick answers do not pay for this function's large frame.)"""
    rd = read_auction(o, p, mask, memo)
    call = _decide(o, p, o[O.HAND], lens, hcp, rd)
    if call == CAPTAIN:
        call = _captain(o, p, o[O.HAND], lens, hcp, rd)
    return call


@jit(inline=True)
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
    return call
