"""vybory policies: the election and card play are separate decisions.

Each policy reads the seat's observation (an int64 vector, layout in
``sim/games/vybory/obs.py``: public information plus its own hand and legal cards), its
parameter vector and its own random stream; a play policy also gets ``work``, an int64
scratch array the kernel never writes into (so it holds no hidden card).

- ``elect(pid, o, p, rng, table)`` returns a contract type 1..8 the seat has not named
  yet in this election (V2); naming one that another seat has named ends the election
  (V3). ``table``: the solution ``solved`` plays (a placeholder where no seat plays it).
- ``play(pid, o, p, rng, work)`` returns a card from ``o[LEGAL]``. The kernel does not
  ask when only one card is legal.

Policies are dispatched by integer id (one branch per policy), as in every game.
``greedy`` is written on scalars (:func:`greedy_card`) so that ``pimc``'s playouts call
it without building observation vectors.
"""

from __future__ import annotations

import numpy as np

from sim import tricks as T
from sim.cfr import seat_start
from sim.games.vybory import core as C
from sim.games.vybory import obs as O
from sim.games.vybory.abstraction import solved_elect
from sim.games.vybory.core import cards_value, est_tricks, type_value  # noqa: F401  (the hand evaluation)
from sim.games.vybory.rules import N_TYPES, PLAYERS, TRICKS
from sim.jit import jit
from sim.rng import below
from strategies import pimc
from strategies.base import ILLEGAL_PID, VIEW_PID, GameStrategies, Param, Policy, view_hash

# Policy ids per decision kind.
RANDOM_ELECT, EXPECTED, MATCHER, SOLVED = range(4)
RANDOM_PLAY, GREEDY, PIMC = range(3)

# The defaults are a best response to the first guesses (1, 1, 0.5, 3.25, 0.3), found by
# `bidlab optimize vybory --strategy expected+greedy -n 3000` (win share, seed 0) and
# rounded. Scored on fresh tours (seed 99, 5,000 per seat): one such seat among three
# playing the first guesses wins 29.8% of the tours, and one first-guess seat among three
# playing the defaults 24.0% (a fair share is 25%).
EXPECTED_PARAMS = (
    Param("honour", 2.65, 0.0, 3.0, "weight of the top three cards of each suit (in the "
          "contract's order) in the hand's estimated tricks"),
    Param("length", 0.0, 0.0, 3.0, "weight of length: trumps beyond three, or without "
          "trumps half a trick per card beyond four"),
    Param("ruff", 0.25, 0.0, 3.0, "weight of short side suits (void 3, singleton 2, "
          "doubleton 1, at most one per trump held) under a trump contract"),
    Param("partner", 0.3, 0.0, 6.5, "tricks the partner is expected to take (13/4 would "
          "be an average hand; the tuned value weighs the own hand more)"),
    Param("counters", 0.35, -2.0, 2.0, "weight of the points of the cards held (cards that "
          "count for their winner: red cards in red_black, black tens and jacks, ...)"),
)
EXPECTED_DEFAULTS = np.array([p.default for p in EXPECTED_PARAMS], np.float64)
# match: `bidlab optimize vybory --strategy matcher+greedy --param match --param trust
# --opponents expected+greedy -n 3000` (seed 0) ran to its old bound, 10; larger values win
# more (seed 99): matching whenever one can is best against expected, and 30 is that
# (margins of types are within about +-26). On fresh tours (seed 123, 5,000 per seat) one
# matcher among three expected seats wins 29.5% of the tours.
MATCHER_PARAMS = EXPECTED_PARAMS + (
    Param("match", 30.0, -60.0, 60.0, "points added to a type another seat has named: "
          "matching ends the election, with a known partner; 30 or more matches whenever "
          "it can"),
    Param("trust", 0.1, 0.0, 4.0, "extra tricks expected of a partner who named the type "
          "as his first announcement (half as many for a later one)"),
)

POLICIES = (
    Policy("random", "elect", RANDOM_ELECT, "a uniformly random type the seat has not "
           "named yet"),
    Policy("expected", "elect", EXPECTED,
           "names the type with the best estimated margin of pair points (attackers minus "
           "defenders) for its hand: tricks estimated from honours, length and ruffs in "
           "the type's trump and order, plus the partner's expected tricks, valued by the "
           "type's points per trick (12 to the majority under most_tricks), plus the "
           "points of the cards held", EXPECTED_PARAMS),
    Policy("matcher", "elect", MATCHER,
           "like expected, and more willing to match a type another seat has named "
           "(match), counting on extra tricks from a partner who named it first (trust)",
           MATCHER_PARAMS),
    Policy("solved", "elect", SOLVED,
           "plays the solution of `bidlab solve vybory` for the rules in force: an "
           "announcement drawn from the equilibrium's probabilities for its information set "
           "(the announcement number; the worth to its hand of its best new types; per other "
           "seat, the worth to its hand of the best type that seat named): one of its three "
           "best new types, or a match with one seat"),
    Policy("random", "play", RANDOM_PLAY, "a uniformly random legal card"),
    Policy("greedy", "play", GREEDY,
           "type-aware rules of thumb: a trick is worth its points to the pair that takes "
           "it; leads a sure winner of a suit whose tricks are worth taking, else its "
           "weakest card; takes a trick worth taking with its weakest sure winner (last "
           "to play: any winner), lets the partner's trick stand and gives it the cards "
           "that count for the pair; loads the opponents' tricks with the cards that count "
           "against their taker; keeps its low cards under lowest_wins (the order is "
           "reversed throughout)"),
    pimc.policy(PIMC, "perfect-information Monte Carlo: deals the unseen cards at random "
                "consistent with the cards left and the voids shown by play, optionally "
                "weights each deal by how well the others' first announcements suit their "
                "sampled hands (belief), plays each legal card out with greedy for "
                "everyone, and picks the card with the best weighted mean margin of pair "
                "points (result scoring: the deal's result first)",
                Param("belief", 0.0, 0.0, 5.0, "weight exp(-belief x regret) of a sampled "
                      "deal, regret: how much better (by expected's estimate) another type "
                      "would have suited a seat's sampled hand than the one it named "
                      "first; 0 (the default: 0.5 measured worse) samples uniformly")),
)

STRATEGIES = GameStrategies(
    "vybory", ("elect", "play"), POLICIES, default="basic",
    bundles={"basic": "expected+greedy", "expert": "matcher+pimc",
             "novice": "random+random"})


# -- hand evaluation -----------------------------------------------------------------

@jit
def best_type(hand, alt, allowed, p):
    """(type, value): the type of the bit set ``allowed`` with the best ``type_value``
    (ties: the lower code)."""
    best = np.int64(-1)
    value = -1e18
    for t in range(1, N_TYPES + 1):
        if allowed >> t & 1:
            v = type_value(hand, alt, t, p, 0.0)
            if v > value:
                value = v
                best = t
    return best, value


@jit
def allowed_types(o):
    """V2: the types the asking seat has not named in this election."""
    return np.int64(((1 << (N_TYPES + 1)) - 1) & ~1) & ~o[O.NAMED + o[O.SEAT]]


@jit
def _caller(o, k):
    """The seat that made announcement ``k`` of this election."""
    return (o[O.DEALER] + 1 + k) % PLAYERS


@jit
def random_type(o, rng):
    allowed = allowed_types(o)
    return T.nth_card(allowed, below(rng, T.count(allowed)))


@jit
def expected_type(o, p):
    t, _ = best_type(o[O.HAND], o[O.ALT], allowed_types(o), p)
    return t


@jit
def matcher_type(o, p):
    """expected's choice, with the types another seat named valued as a match with that
    seat as partner: ``match`` points more and ``trust`` (or half of it) extra tricks."""
    hand = o[O.HAND]
    alt = o[O.ALT]
    allowed = allowed_types(o)
    best = np.int64(-1)
    value = -1e18
    for t in range(1, N_TYPES + 1):
        if not allowed >> t & 1:
            continue
        v = type_value(hand, alt, t, p, 0.0)
        for k in range(o[O.N_CALLS]):
            if o[O.CALLS + k] == t:
                first_call = k < PLAYERS
                v = type_value(hand, alt, t, p, p[6] if first_call else 0.5 * p[6]) + p[5]
                break
        if v > value:
            value = v
            best = t
    return best


@jit
def elect(pid, o, p, rng, table):
    """One announcement: a type 1..8 the seat has not named."""
    if pid == EXPECTED:
        return expected_type(o, p)
    if pid == MATCHER:
        return matcher_type(o, p)
    if pid == SOLVED:
        return solved_elect(o, rng, table, seat_start(table, o[O.SEAT]))
    if pid == ILLEGAL_PID:
        return np.int64(N_TYPES + 1)
    if pid == VIEW_PID:
        allowed = allowed_types(o)                   # its own hand is o[HAND]
        return T.nth_card(allowed, np.int64(view_hash(o, o[:0]) % np.uint64(T.count(allowed))))
    return random_type(o, rng)


# -- greedy card play ----------------------------------------------------------------

@jit
def trick_worth(alt, code):
    """What a trick is worth to its taker before its cards count: the points per trick,
    and 2 under most_tricks (each trick brings the majority nearer)."""
    if code == C.MOST_TRICKS:
        return np.int64(2)
    return C.PER_TRICK[alt, code]


@jit
def _most_points(mask, alt, code, low):
    """The card of a non-empty ``mask`` worth most to its trick's taker (ties: the one
    weakest in the order, kept strong cards being worth more)."""
    return T.first_lowest(mask, _less_worth, (alt, code, low))


@jit(inline=True)
def _less_worth(card, contract):
    """``_most_points``'s key: less for more points, then for a weaker card."""
    alt, code, low = contract
    return _rank_in_order(card, low) - C.CARD_POINTS[alt, code, card] * 32


@jit
def _least_points(mask, alt, code, low, strong_first):
    """The card of a non-empty ``mask`` worth least to its trick's taker (ties: the
    weakest in the order, or the strongest with ``strong_first``: a high card shed
    where it cannot be punished)."""
    return T.first_lowest(mask, _more_worth, (alt, code, low, strong_first))


@jit(inline=True)
def _more_worth(card, contract):
    """``_least_points``'s key: more for more points, then for a stronger card (a
    weaker one with ``strong_first``)."""
    alt, code, low, strong_first = contract
    r = _rank_in_order(card, low)
    return C.CARD_POINTS[alt, code, card] * 32 + (12 - r if strong_first else r)


@jit
def _rank_in_order(card, low):
    """0 (weakest) .. 12 (strongest) within the card's suit, in the contract's order."""
    r = card % 13
    return 12 - r if low else r


@jit
def _weakest_lead(hand, trump, low):
    """The weakest card to lead: the lowest-ranked side card (in the order); trumps only
    when nothing else is left."""
    side = hand & ~(T.suit_cards(trump) if trump >= 0 else np.int64(0))
    return T.first_lowest(side if side != 0 else hand, _rank_in_order, low)


@jit(inline=True)
def greedy_lead(hand, trump, low, unseen, alt, code):
    """A sure winner of the suit whose tricks are worth most (if positive), else the
    weakest card."""
    worth = trick_worth(alt, code)
    best = np.int64(-1)
    best_v = 0.0
    for s in range(4):
        mine = hand & T.suit_cards(s)
        if mine == 0:
            continue
        top = T.strongest_in(mine, low)
        if not T.sure_winner(top, unseen, trump, low):
            continue
        suit = (unseen | hand) & T.suit_cards(s)
        v = worth + 4.0 * cards_value(suit, alt, code) / T.count(suit)
        if v > best_v:
            best_v = v
            best = top
    if best >= 0:
        return best
    return _weakest_lead(hand, trump, low)


@jit(inline=True)
def greedy_follow(hand, legal, trump, low, led, best, trick, ours, n_after, unseen, alt,
                  code):
    """``ours``: the trick so far is won by the asking seat's pair."""
    worth = trick_worth(alt, code) + cards_value(trick, alt, code)
    win = T.beating_order(legal, best, led, trump, low)
    lose = legal & ~win
    if ours:
        if lose != 0:
            if worth >= 0:
                return _most_points(lose, alt, code, low)        # feed the partner's trick
            return _least_points(lose, alt, code, low, True)
        return _most_points(legal, alt, code, low)
    if worth >= 0 and win != 0:
        if n_after == 0:
            return _most_points(win, alt, code, low)
        safe = np.int64(0)
        m = win
        while m != 0:
            c = T.lowest(m)
            m &= m - 1
            if T.beating_order(unseen, c, led, trump, low) == 0:
                safe |= np.int64(1) << c
        if safe != 0:
            return _most_points(safe, alt, code, low)
    if lose != 0:
        if worth >= 0:
            return _least_points(lose, alt, code, low, False)
        return _least_points(lose, alt, code, low, True)         # load a bad trick
    return _most_points(legal, alt, code, low)                  # taken anyway


@jit(inline=True)
def greedy_card(hand, legal, trump, low, led, best, trick, ours, n_after, unseen, alt, code):
    """greedy's card from scalars: ``trick`` is the mask of the trick's cards so far,
    ``best`` the card winning it (-1 when leading), ``ours`` whether the asking seat's
    pair wins it so far, ``n_after`` the players still to play to it, ``unseen`` the
    cards the others may hold."""
    if T.count(legal) == 1:
        return T.lowest(legal)
    if led < 0:
        return greedy_lead(hand, trump, low, unseen, alt, code)
    return greedy_follow(hand, legal, trump, low, led, best, trick, ours, n_after, unseen,
                         alt, code)


@jit
def partner_of(o, s):
    """The partner of seat ``s`` once the pairs are known (V3)."""
    a, b = o[O.FIRST], o[O.SECOND]
    if s == a:
        return b
    if s == b:
        return a
    for t in range(PLAYERS):
        if t != s and t != a and t != b:
            return np.int64(t)
    return np.int64(-1)


@jit
def _winning_seat(o):
    for i in range(o[O.TRICK_N]):
        if o[O.TRICK_CARDS + i] == o[O.WINNING]:
            return (o[O.LEADER] + i) % PLAYERS
    return np.int64(-1)


@jit
def greedy_obs(o):
    me = o[O.SEAT]
    w = _winning_seat(o)
    ours = w == me or w == partner_of(o, me)
    unseen = np.int64(T.DECK52) & ~o[O.PLAYED] & ~o[O.HAND]
    return greedy_card(o[O.HAND], o[O.LEGAL], o[O.TRUMP], o[O.LOW_WINS] != 0, o[O.LED],
                       o[O.WINNING], T.trick_so_far(o, O.TRICKS), ours, PLAYERS - 1 - o[O.TRICK_N],
                       unseen, o[O.ALT], o[O.CONTRACT])


# -- pimc ----------------------------------------------------------------------------
# The search is strategies/pimc.py's; vybory gives it the hooks below: the playout is
# greedy's, a deal may be weighted by the others' first announcements (belief), and
# what it is worth is the asking seat's pair's margin.

WORK_SIZE = pimc.WORK_SIZE
WEIGHT_SCALE = 1024
"""A sample's weight is an integer: ``WEIGHT_SCALE x exp(-belief x regret)``."""


@jit(inline=True)
def _same_points(o, a, b):
    """Two cards that count the same for the contract play the same."""
    alt = o[O.ALT]
    code = o[O.CONTRACT]
    return C.CARD_POINTS[alt, code, a] == C.CARD_POINTS[alt, code, b]


@jit
def _weight(o, p, work):
    """How well the sampled hands suit the others' first announcements (expected's
    estimate at its default weights: what a typical player would name), with
    ``belief`` = ``p[1]``."""
    belief = p[1]
    if belief <= 0.0:
        return np.int64(WEIGHT_SCALE)
    regret = 0.0
    alt = o[O.ALT]
    all_types = np.int64(((1 << (N_TYPES + 1)) - 1) & ~1)
    for k in range(min(o[O.N_CALLS], PLAYERS)):
        s = _caller(o, k)
        if s == o[O.SEAT]:
            continue
        dealt = work[pimc.W_HANDS + s] | o[O.PLAYED_BY + s]
        _, top = best_type(dealt, alt, all_types, EXPECTED_DEFAULTS)
        named = type_value(dealt, alt, o[O.CALLS + k], EXPECTED_DEFAULTS, 0.0)
        regret += top - named
    return np.int64(WEIGHT_SCALE * np.exp(-belief * regret) + 0.5)


@jit(inline=True)
def _greedy(context, seat, hand, legal, trump, led, best, trick, k, winning, played):
    """greedy's card; ``ours``: the trick so far is won by the seat's pair."""
    a1, a2, alt, code, low = context
    ours = k > 0 and ((winning == a1 or winning == a2) == (seat == a1 or seat == a2))
    unseen = np.int64(T.DECK52) & ~played & ~hand
    return greedy_card(hand, legal, trump, low, led, best, trick, ours, PLAYERS - 1 - k,
                       unseen, alt, code)


@jit(inline=True)
def _trump_kept(card, trump):
    """The contract named the trump (or none) before play."""
    return trump


@jit(inline=True)
def _played_out(o, work, context, trump, tricks_done):
    """Every trick counts: a playout goes to the deal's end."""
    return False


@jit(inline=True)
def _margin(o, work, context, trump):
    """The asking seat's utility: its pair's points minus the other pair's
    (scoring=result: 64 x the deal's result for its pair, plus that margin)."""
    a1, a2, alt, code, _ = context
    won_a = work[pimc.W_WON + a1] | work[pimc.W_WON + a2]
    tricks_a = T.count(won_a) // PLAYERS             # a trick holds one card a seat
    pts_a = C.pair_points(won_a, tricks_a, alt, code)
    pts_d = C.pair_points(np.int64(T.DECK52) & ~won_a, TRICKS - tricks_a, alt, code)
    margin = pts_a - pts_d
    if o[O.RESULT]:
        margin += 64 * C.result(pts_a, pts_d)
    me = o[O.SEAT]
    return margin if me == a1 or me == a2 else -margin


@jit
def _playout(o, work, first):
    """The sampled deal played out with greedy for everyone, the asking seat's
    ``first`` card first; its utility (``_margin``)."""
    low = o[O.LOW_WINS] != 0
    context = (o[O.FIRST], o[O.SECOND], o[O.ALT], o[O.CONTRACT], low)
    return pimc.playout(o, O.TRICKS, work, first, PLAYERS, TRICKS, o[O.TRUMP], T.FOLLOW_SUIT,
                        low, context, _greedy, _trump_kept, _played_out, _margin)


@jit
def pimc_card(o, p, rng, work):
    """pimc's card: ``p`` = (samples, belief); no race; a deal that cannot honour the
    voids shown falls back to dealing the seats in the plan's order."""
    return pimc.search(o, O.TRICKS, p, rng, work, o[O.SEAT], o[O.HAND], o[O.LEGAL],
                       np.int64(T.DECK52), PLAYERS, o[O.TRUMP], 0.0, pimc.W_ORDER,
                       _same_points, _weight, _playout)


# -- dispatch --------------------------------------------------------------------------

@jit
def play(pid, o, p, rng, work):
    """One card from ``o[LEGAL]``."""
    if pid == GREEDY:
        return greedy_obs(o)
    if pid == PIMC:
        return pimc_card(o, p, rng, work)
    if pid == ILLEGAL_PID:
        return T.lowest(np.int64(T.DECK52) & ~o[O.LEGAL])
    if pid == VIEW_PID:                              # its own hand is o[HAND]
        legal = o[O.LEGAL]
        return T.nth_card(legal, np.int64(view_hash(o, o[:0]) % np.uint64(T.count(legal))))
    return T.random_card(rng, o[O.LEGAL])
