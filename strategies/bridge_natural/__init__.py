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

Modules. ``params`` the parameters; ``features`` what a hand holds; ``reading`` the
calls replayed into what each player has shown (``read_auction``, its answer a
``Reading``); ``memo`` the reader's state kept between a seat's questions; ``calls``
the choice of a call (``natural_call``). Names with a leading underscore belong to the
package, and its modules import them from one another.
"""

from __future__ import annotations

# The parameters and the memo come first, and import nothing of the bridge game: the
# reader imports it, whose kernel imports ``strategies.bridge``, which reads
# NATURAL_PARAMS and MEMO_SIZE from this package while it is still half-loaded.
from strategies.bridge_natural.memo import MEMO_SIZE, forget
from strategies.bridge_natural.params import NATURAL_PARAMS

# isort: split
from strategies.bridge_natural.calls import natural_call
from strategies.bridge_natural.reading import Reading, read_auction

__all__ = ["NATURAL_PARAMS", "MEMO_SIZE", "natural_call", "forget", "read_auction", "Reading"]
