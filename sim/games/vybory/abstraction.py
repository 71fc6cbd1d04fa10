"""vybory's abstraction for the solver: what a player keys on when he names a type (V2-V5).

Every type's *worth* to a hand is an estimate of the deal's margin (the attackers' pair
points minus the defenders') when this hand attacks that type with a random partner and
greedy plays the cards: per type a linear function (``COEF``, fitted on played-out deals
by ``analysis.solvers.vybory.fit_worths``) of ``core.type_value`` at ``WORTH``
(expected's default weights), the honour, length and ruff tricks of ``est_tricks``, the
trumps held and the points of the cards held. expected's ``type_value`` alone ranks the
types badly (its scale differs by type: the margin rises by 0.12 to 0.51 per unit of it,
and for spades_in_hearts it hardly predicts at all, r = 0.15); the fitted worth predicts
it better for every type (club_tricks: r 0.48 -> 0.79, lowest_wins 0.28 -> 0.53,
spades_in_hearts 0.15 -> 0.43). Frozen here, so that retuning ``expected`` never changes
a solution's meaning.

An information set is

- the place in the election: the announcement number ``k``, 0..8 (it fixes the seat
  relative to the dealer, ``k mod 4``, and the round);
- the hand's worth among the types nobody has named yet: the best one's worth in
  ``len(BEST_CUTS) + 1`` buckets, and whether the second best is close to it (within
  ``GAP``);
- for each other seat, by its place relative to the speaker (next, across, previous:
  the partner he would get by matching it), the worth to the speaker's hand of the best
  type that seat has named: none named, or ``len(MATCH_CUTS) + 1`` buckets.

Dropped: which types these are (only their worth to the hand), the other types a seat
named (only its best for the speaker counts), the order of the earlier calls beyond
``k``, the rest of the hand, the deal number and the tour's scores (a one-deal solution,
version 1).

Actions (``ACTIONS``): ``a < TOP``: name the hand's ``a + 1``-th best type among those
nobody has named (ties: the lower code); ``TOP + r - 1`` for ``r`` = 1, 2, 3: match the
best type (for the hand) named by the seat ``r`` places after the speaker, ending the
election with that seat as partner (V3). So a player never names his 4th-best new type
or matches a seat's worse type; ``expected`` and ``matcher`` never do either (they name
the best type or match). Which actions are legal depends only on ``k`` (new types left:
``8 - k``; a seat has named a type once it has spoken). Size: ``CALLS x BEST x 2 x
MATCH**3`` = 9 x 6 x 2 x 125 = 13,500 information sets of 6 actions.
"""

from __future__ import annotations

import hashlib

import numpy as np

from sim import tricks as T
from sim.cfr import T_ACTIONS, T_HEADER, Abstraction, table_action
from sim.games.vybory import core as C
from sim.games.vybory import obs as O
from sim.games.vybory.rules import MAX_CALLS, N_TYPES, PLAYERS
from sim.jit import jit
from sim.rng import uniform
from sim.rules import Rules

NAME = "vybory-type-worth"
VERSION = 1
WORTH = np.array([2.65, 0.0, 0.25, 0.3, 0.35])
"""``type_value``'s weights (honour, length, ruff, partner, counters): expected's
defaults when this abstraction was made."""
FEATURES = 7
"""Per type: type_value, honour tricks, length tricks, ruff tricks (``est_tricks`` with one
weight at 1), trumps held, the points of the cards held, 1."""
COEF = np.array([
    [0, 0, 0, 0, 0, 0, 0],
    [0.111, 2.918, 1.005, 0, 0, 0, -6.315],
    [-0.408, -7.226, 1.399, 0, 0, 0, 15.915],
    [-0.135, 3.615, 1.957, -0.065, 1.052, 0, -11.887],
    [-0.133, 2.958, 1.289, 0.069, 0.057, -0.888, -0.316],
    [-0.181, 3.354, 1.335, 0.039, 0.014, -0.948, -0.956],
    [-0.149, 0.275, -0.126, 1.055, 1.381, -0.426, -4.862],
    [0.056, -0.878, -0.123, 0.828, -0.599, 0.16, 4.362],
    [-0.262, -5.006, -1.866, 1.448, -0.633, -0.7, 8.555],
    [0, 0, 0, 0, 0, 0, 0],
    [0.111, 2.918, 1.005, 0, 0, 0, -6.315],
    [-0.408, -7.226, 1.399, 0, 0, 0, 15.915],
    [-0.135, 3.615, 1.957, -0.065, 1.052, 0, -11.887],
    [-0.133, 2.958, 1.289, 0.069, 0.057, -0.888, -0.316],
    [-0.181, 3.354, 1.335, 0.039, 0.014, -0.948, -0.956],
    [-0.132, 3.734, 1.82, -0.242, 1.842, -0.437, -11.66],
    [-0.232, -4.659, -2.043, 1.622, -0.713, -0.421, 9.925],
    [-0.328, -6.33, -1.601, 2.388, -1.586, 0.289, 20.549],
]).reshape(2, N_TYPES + 1, FEATURES)
"""``COEF[type_set, type]``: the worth's weights on the features, fitted by
``analysis.solvers.vybory.fit_worths`` (least squares of the deal's margin when the hand
attacks the type with a random partner, played out by greedy, on 40,000 deals)."""
TOP = 3
"""New types a player may name: his best ``TOP`` among those nobody has named."""
ACTIONS = TOP + 3
CALLS = MAX_CALLS
BEST_CUTS = np.array([2.5, 3.5, 4.5, 5.5, 7.0])
BEST = BEST_CUTS.size + 1
GAP = 1.2
MATCH_CUTS = np.array([-0.5, 1.5, 3.5])
MATCH = MATCH_CUTS.size + 2
"""Per other seat: none named (0), or a bucket of the worth of its best type (1..)."""
INFOSETS = CALLS * BEST * 2 * MATCH ** 3
ALL_TYPES = ((1 << (N_TYPES + 1)) - 1) & ~1
NEG = -1e18
NO_WORTHS = np.zeros(0)
"""``key`` computes the worths itself."""


def abstraction(rules: Rules) -> Abstraction:
    return Abstraction(NAME, VERSION, INFOSETS, ACTIONS,
                       {"worth_weights": [float(x) for x in WORTH],
                        "worth_coef_sha256": hashlib.sha256(COEF.tobytes()).hexdigest()[:16],
                        "top_new_types": TOP,
                        "best_cuts": [float(x) for x in BEST_CUTS], "gap": GAP,
                        "match_cuts": [float(x) for x in MATCH_CUTS], "calls": CALLS})


@jit
def features(hand, alt, t, out):
    """The worth's features of ``hand`` for type ``t`` into ``out`` (``FEATURES``)."""
    trump = C.TRUMP[alt, t]
    low = C.LOW_WINS[alt, t] != 0
    out[0] = C.type_value(hand, alt, t, WORTH, 0.0)
    out[1] = C.est_tricks(hand, trump, low, 1.0, 0.0, 0.0)
    out[2] = C.est_tricks(hand, trump, low, 0.0, 1.0, 0.0)
    out[3] = C.est_tricks(hand, trump, low, 0.0, 0.0, 1.0)
    out[4] = T.count(hand & T.suit_cards(trump)) if trump >= 0 else 0
    out[5] = C.cards_value(hand, alt, t)
    out[6] = 1.0


@jit
def worth(hand, alt, t):
    """Type ``t``'s worth to ``hand``: the expected margin (the attackers' pair points
    minus the defenders') when it attacks ``t`` with a random partner and greedy plays."""
    trump = C.TRUMP[alt, t]
    low = C.LOW_WINS[alt, t] != 0
    c = COEF[alt, t]
    v = c[0] * C.type_value(hand, alt, t, WORTH, 0.0)
    v += c[1] * C.est_tricks(hand, trump, low, 1.0, 0.0, 0.0)
    v += c[2] * C.est_tricks(hand, trump, low, 0.0, 1.0, 0.0)
    v += c[3] * C.est_tricks(hand, trump, low, 0.0, 0.0, 1.0)
    if trump >= 0:
        v += c[4] * T.count(hand & T.suit_cards(trump))
    return v + c[5] * C.cards_value(hand, alt, t) + c[6]


@jit
def worths(hand, alt, out):
    """``out[t]``: type ``t``'s worth to ``hand`` (t = 1..8)."""
    for t in range(1, N_TYPES + 1):
        out[t] = worth(hand, alt, t)


@jit
def _bucket(x, cuts):
    b = 0
    for c in cuts:
        if x >= c:
            b += 1
    return b


@jit
def legal(a, k):
    """Whether action ``a`` is legal at announcement ``k``."""
    if a < TOP:
        return a < N_TYPES - k
    r = a - TOP + 1
    return (k % PLAYERS + r) % PLAYERS < k


@jit
def key(w, hand, alt, named, me, k):
    """(information set, then the type each action names, 0 where it names none) of seat
    ``me`` at announcement ``k``; ``named[s]``: the bit set of the types seat ``s`` has
    named; ``w``: the hand's ``worths``, or an empty array to compute them from ``hand``
    and ``alt`` (no allocation: the policies call this)."""
    used = named[0] | named[1] | named[2] | named[3]
    left, across, right = named[(me + 1) % PLAYERS], named[(me + 2) % PLAYERS], \
        named[(me + 3) % PLAYERS]
    n1 = n2 = n3 = m1 = m2 = m3 = np.int64(0)
    v1 = v2 = v3 = u1 = u2 = u3 = NEG
    new = 0
    for t in range(1, N_TYPES + 1):             # ties: the lower code first
        v = w[t] if w.size > 0 else worth(hand, alt, t)
        if not used >> t & 1:
            new += 1
            if v > v1:
                n3, v3, n2, v2, n1, v1 = n2, v2, n1, v1, t, v
            elif v > v2:
                n3, v3, n2, v2 = n2, v2, t, v
            elif v > v3:
                n3, v3 = t, v
        elif left >> t & 1:
            if v > u1:
                m1, u1 = t, v
        elif across >> t & 1:
            if v > u2:
                m2, u2 = t, v
        elif right >> t & 1:
            if v > u3:
                m3, u3 = t, v
    nb = _bucket(v1, BEST_CUTS) if new > 0 else 0
    gap = 1 if new > 1 and v1 - v2 <= GAP else 0
    m = 0 if m1 == 0 else 1 + _bucket(u1, MATCH_CUTS)
    m = m * MATCH + (0 if m2 == 0 else 1 + _bucket(u2, MATCH_CUTS))
    m = m * MATCH + (0 if m3 == 0 else 1 + _bucket(u3, MATCH_CUTS))
    row = ((k * BEST + nb) * 2 + gap) * MATCH ** 3 + m
    return row, (n1, n2, n3, m1, m2, m3)


@jit
def _fallback(o):
    """The type ``solved`` names where its table plays an action that names none (an
    illegal one): the first type the seat has not named."""
    allowed = np.int64(ALL_TYPES) & ~o[O.NAMED + o[O.SEAT]]
    for c in range(1, N_TYPES + 1):
        if allowed >> c & 1:
            return np.int64(c)
    return np.int64(0)


@jit
def _infoset(o):
    """(information set, the type each action names) of the seat asked in ``o``."""
    return key(NO_WORTHS, o[O.HAND], o[O.ALT], o[O.NAMED:O.NAMED + PLAYERS], o[O.SEAT],
               o[O.N_CALLS])


@jit
def solved_elect(o, rng, table, base):
    """The solution's announcement: an action drawn from its information set's row, as
    the type it names."""
    row, types = _infoset(o)
    t = types[table_action(table, base, row, uniform(rng))]
    if t == 0:             # a table that plays an illegal action: the first type allowed
        return _fallback(o)
    return t


@jit
def call_probability(o, table, base, t):
    """The probability that :func:`solved_elect` names type ``t`` in ``o``, the table
    starting at ``table[base]``: the summed widths of the cumulative row's intervals
    whose action names ``t`` (``table_action`` takes the first action whose cumulative
    probability exceeds the draw, the last for a draw beyond them all), an action that
    names none counting for the type it falls back to. Draws nothing."""
    row, types = _infoset(o)
    actions = np.int64(table[base + T_ACTIONS])
    start = base + T_HEADER + row * actions
    fallback = np.int64(-1)
    total = 0.0
    below = 0.0
    for a in range(actions):
        top = table[start + a] if a < actions - 1 else 1.0
        width = top - below if top > below else 0.0
        below = top if top > below else below
        named = types[a]
        if named == 0:
            if fallback < 0:
                fallback = _fallback(o)
            named = fallback
        if named == t:
            total += width
    return total
