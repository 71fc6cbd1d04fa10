"""vybory's election solved by Monte Carlo CFR over deals (``sim/games/vybory/abstraction.py``).

One iteration is a batch of fresh deals (chance sampling, ``analysis/solvers/mccfr.py``). On each deal the
election's tree, restricted to the abstraction's actions (a player names one of his
``TOP`` best new types or matches one seat's best type for him), is walked exactly
against the current strategies of all four seats at once (vanilla CFR on the deal: each
node's reach per seat forward, every seat's value backward): about 4,000 nodes with
uniform strategies, far fewer once a strategy leaves actions at probability 0 (a subtree
where two seats' reach is 0 changes no regret and is skipped). Every leaf is an outcome
(contract type, first announcer, partner); its payoff is the deal played out with the play
policy (``greedy``), once per outcome the walk reaches (memoized per deal: the card play
depends on the contract, the pairs and the first announcer only, never on the
announcements, so at most 8 x 4 x 3 = 96 playouts a deal). Regrets and the average
strategy follow Linear CFR (iteration t weighted t), as Pluribus did; the average adds
each information set's strategy times its reach.

A seat's payoff is its pair's deal score minus the other pair's (scoring=points: the
difference of their pair points; result: 2, 0 or -2). vybory is played for the win share
of the tour, and pair points do not cancel (everyone can score): what moves a seat's
chance of finishing first is its score relative to the others', and its deal score minus
the mean of the other three's is exactly 2/3 of this margin. The margin game is zero-sum
among the four seats (partners change every deal, so it is not a two-team game), a
one-deal solution: the tour's scores and the deal number are dropped.

Against whom: with ``model`` (default ``MODEL_P`` = 0.5), each seat of a training deal
plays, with that probability, a fixed hand-written policy (``expected`` or ``matcher``,
half each, at their defaults) instead of the strategy being solved: a restricted Nash
response (Johanson, Zinkevich and Bowling 2007), which learns what the others' calls
mean when they are made by such policies while staying hard to exploit (the held-out
best response is measured against the solution in self-play, every seat solved). The
pure equilibrium (``model`` = 0) lost to ``matcher`` in the tournaments' lineups (A B A
B: a strategy's two seats sit across): its solved seats read a matcher's calls as if a
solved seat had made them. Measured on 10,000 tours of A B A B: nearly every election
ends at the second call either way (that moves no share between the strategies), and the
tours were decided in the few where the second speaker did not match: after a matcher
opened, solved declined to match it in 14% of the deals and the other matcher then
matched its own across seat in 63% of them (margin 6.7 to that pair); after solved
opened and the matcher declined, the other solved seat matched its across seat only 36%
of the time (margin 10.6 when it did). Trained with matchers and expecteds at the table
(``model`` 0.5) it wins both tournaments by far (see the README).

For whom (``team``, default 0): a seat's payoff is its pair's margin plus ``team`` times
its across seat's pair's margin. A tournament seats a strategy's two copies across (A B
A B) and counts their win shares together; to first order that share moves with the two
seats' scores less the other two's, which a deal changes only where the across seats
attack together (by twice the margin). A pair with an opponent's seat moves nothing
between the strategies, and against a matcher that matches whenever it can (``match``
52 and more) nearly every election is such a pair: the only deals that move anything are
those where solved, second to speak after a matcher's opening, declines. With ``team`` 0
(the shipped solution) it declines where its hand is weak for the opened type, right for
its own pair's margin, and the other matcher then matched its across seat in 69% of
those deals and won them by 7.5 (20,000 tours, seed 21, against ``matcher:match=52``);
adding that matcher to ``models`` made it worse (it lost by 2.2 points of win share,
20,000 tours, seed 5). With ``team`` 1 it declines 15% of a matcher's openings, where the
type suits its own hand, and the matchers' pair it leaves then loses by 3.4: it beats
``matcher:match=52`` by 3.2 points instead of 0.6. Against a matcher tuned against it
(``bidlab optimize``: match 54.8, trust 3.6, partner 3.0) both draw over 100,000 tours:
that matcher's third call joins the decliner in 64% of the declines and its own pair
then loses by only 0.8, so the declines are worth about 0.1 points of a tour. The price
of ``team`` 1: a lone solved seat among three others plays for its across seat (among
three expected seats it wins 22.2% of 20,000 tours, seed 31; the ``team`` 0 solution
30.5%). Not shipped for that reason (see the README).

``pairs`` (default 0): with 1 the fixed policies of ``model`` come as a tournament seats
them, both seats of one across pair (0: each seat drawn alone). ``models`` (default
``MODELS``): which fixed policies, with their parameters, e.g. responders ``bidlab
optimize`` tuned against an earlier solution (a best-response oracle).

``top`` (default 3) lets a player name only his ``top`` best new types (a coarser action
set on the same table, for measuring what the restriction costs).

Deals are split into fixed blocks whose sums are added in block order, so the solver's
state after t iterations is the same on any number of threads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analysis.solvers.mccfr import BLOCKS, DealSampledCFR, raise_on
from sim.cfr import Abstraction
from sim.games.vybory import abstraction as A
from sim.games.vybory import core as C
from sim.games.vybory import kernel as K
from sim.games.vybory.rules import PLAYERS, R_ALT, pack
from sim.harness import new_errors
from sim.jit import jit, prange
from sim.rng import seed_stream, uniform
from sim.rules import Rules
from strategies import vybory as SV
from strategies.base import assign_seats

TYPICAL_TIME = "about 2 minutes on two cores"
"""How long a solve at the default iterations takes on two cores (104 s measured)."""

HELD_OUT = 50_000
"""Held-out deals the best response is chosen on, and as many it is scored on."""
TRAIN_STREAM = 1 << 41
EVAL_STREAM = 1 << 42
FIT_STREAM = 1 << 43
"""Streams of the training and held-out deals and of the worth's fit: far from any
match's."""
DEPTH = A.CALLS + 1
MODEL_EXPECTED, MODEL_MATCHER = 1, 2
"""The fixed policies a seat may play in training (``model``)."""


@jit
def _payoff(R, o, p, rng, work, si, play_pids, play_params, rngs, err, no_log, dealer, memo,
            done, t, first, second):
    if not done[t, first, second]:
        memo[t, first, second] = K.margin_if_elected(R, o, p, rng, work, si, play_pids,
                                                     play_params, rngs, err, dealer, t, first,
                                                     second, no_log)
        done[t, first, second] = True
    return memo[t, first, second]


@jit
def _model_type(pid, hand, alt, named, first_round, s, p):
    """The type ``expected`` (``pid`` MODEL_EXPECTED) or ``matcher`` (MODEL_MATCHER) with
    parameters ``p`` names for seat ``s`` holding ``hand`` (``strategies.vybory``'s
    ``expected_type`` and ``matcher_type``, on the walk's state: ``first_round``, the
    types named in the first round)."""
    used = named[0] | named[1] | named[2] | named[3]
    allowed = np.int64(A.ALL_TYPES) & ~named[s]
    best = np.int64(0)
    value = -1e18
    for t in range(1, A.N_TYPES + 1):
        if not allowed >> t & 1:
            continue
        if pid == MODEL_MATCHER and used >> t & 1:
            extra = p[6] if first_round >> t & 1 else 0.5 * p[6]
            v = C.type_value(hand, alt, t, p, extra) + p[5]
        else:
            v = C.type_value(hand, alt, t, p, 0.0)
        if v > value:
            value = v
            best = t
    return best


@jit
def _setup(d, dealer, w, named, sigma, best, br, rows, types, sig, nxt, si, alt, model,
           model_pids, model_params):
    """Node at depth ``d`` (announcement ``d``): its information set, the types its
    actions name and the strategy played there (a seat with ``model[s] > 0`` plays that
    fixed policy, ``model_pids[model[s]]`` with ``model_params[model[s]]``: one action,
    the type it names)."""
    s = (dealer + 1 + d) % PLAYERS
    row, tt = A.key(w[s], 0, 0, named[d], s, d)
    rows[d] = row
    if model[s] > 0:
        first = named[min(d, PLAYERS)]
        t = _model_type(model_pids[model[s]], si[K.I_DEALT + s], alt, named[d],
                        first[0] | first[1] | first[2] | first[3], s, model_params[model[s]])
        a = 0
        for x in range(PLAYERS):
            if x != s and named[d, x] >> t & 1:
                a = A.TOP + (x - s) % PLAYERS - 1
        for b in range(A.ACTIONS):
            types[d, b] = t if b == a else 0
            sig[d, b] = 1.0 if b == a else 0.0
        nxt[d] = 0
        return
    for a in range(A.ACTIONS):
        types[d, a] = tt[a] if A.legal(a, d) else 0
    one_hot = s == br and best.shape[0] > 0 and best[s, row] >= 0
    for a in range(A.ACTIONS):
        if one_hot:
            sig[d, a] = 1.0 if a == best[s, row] else 0.0
        else:
            sig[d, a] = sigma[row, a] if types[d, a] != 0 else 0.0
    nxt[d] = 0


@jit
def _walk(R, o, p, rng, work, si, play_pids, play_params, rngs, err, no_log, dealer, w, memo,
          done, sigma, best, br, prune_at, regret, average, q, named, pi, rows, types, sig,
          util, nxt, out, model, model_pids, model_params, team):
    """The election tree of one deal, walked depth first. Seat ``br`` (-1: none) plays
    ``best[br, row]`` where it is >= 0, every other choice ``sigma``. A child where at
    least ``prune_at`` seats' reach is 0 is skipped. With ``regret`` non-empty: each
    node's counterfactual regrets (weighted by the others' reach) and its strategy times
    its reach into ``regret``/``average``; with ``q`` non-empty: each node's action
    values weighted by the others' reach into ``q[seat, row]``. ``out``: each seat's
    expected payoff: its pair's margin plus ``team`` times its across seat's pair's
    margin (``team_payoff``)."""
    for j in range(PLAYERS):
        named[0, j] = 0
        pi[0, j] = 1.0
    _setup(0, dealer, w, named, sigma, best, br, rows, types, sig, nxt, si, R[R_ALT], model,
           model_pids, model_params)
    d = 0
    while True:
        a = nxt[d]
        s = (dealer + 1 + d) % PLAYERS
        if a < A.ACTIONS:
            nxt[d] = a + 1
            t = types[d, a]
            if t == 0:
                continue
            if a >= A.TOP:                                       # a match ends it (V3)
                x = (s + a - A.TOP + 1) % PLAYERS
                m = _payoff(R, o, p, rng, work, si, play_pids, play_params, rngs, err, no_log,
                            dealer, memo, done, t, x, s)
                if team != 0.0:
                    m = m * (1.0 + team if (x - s) % PLAYERS == 2 else 1.0 - team)
                for j in range(PLAYERS):
                    util[d, a, j] = m if j == x or j == s else -m
                continue
            zeros = 0
            for j in range(PLAYERS):
                pj = pi[d, j] * sig[d, a] if j == s else pi[d, j]
                pi[d + 1, j] = pj
                if pj == 0.0:
                    zeros += 1
            if zeros >= prune_at:
                for j in range(PLAYERS):
                    util[d, a, j] = 0.0
                continue
            for j in range(PLAYERS):
                named[d + 1, j] = named[d, j]
            named[d + 1, s] |= np.int64(1) << t
            d += 1
            _setup(d, dealer, w, named, sigma, best, br, rows, types, sig, nxt, si, R[R_ALT],
                   model, model_pids, model_params)
            continue
        row = rows[d]
        for j in range(PLAYERS):
            u = 0.0
            for b in range(A.ACTIONS):
                if sig[d, b] > 0.0:
                    u += sig[d, b] * util[d, b, j]
            out[j] = u
        others = 1.0
        for j in range(PLAYERS):
            if j != s:
                others *= pi[d, j]
        if regret.shape[0] > 0 and model[s] == 0:
            reach = others * pi[d, s]
            for b in range(A.ACTIONS):
                if types[d, b] != 0:
                    if others > 0.0:
                        regret[row, b] += others * (util[d, b, s] - out[s])
                    if reach > 0.0:
                        average[row, b] += reach * sig[d, b]
        if q.shape[0] > 0 and others > 0.0 and model[s] == 0:
            for b in range(A.ACTIONS):
                if types[d, b] != 0:
                    q[s, row, b] += others * util[d, b, s]
        if d == 0:
            return
        d -= 1
        for j in range(PLAYERS):
            util[d, nxt[d] - 1, j] = out[j]


@jit(nrt=True)
def _scratch(n_params, rows):
    o, p, rng, rngs, work, si = K.new_scratch(n_params)
    return (o, p, rng, rngs, work, si, np.zeros(4, np.uint64), np.zeros((PLAYERS, 9)),
            np.zeros((9, PLAYERS, PLAYERS), np.int64), np.zeros((9, PLAYERS, PLAYERS), np.bool_),
            np.zeros((DEPTH, PLAYERS), np.int64), np.zeros((DEPTH, PLAYERS)),
            np.zeros(DEPTH, np.int64), np.zeros((DEPTH, A.ACTIONS), np.int64),
            np.zeros((DEPTH, A.ACTIONS)), np.zeros((DEPTH, A.ACTIONS, PLAYERS)),
            np.zeros(DEPTH, np.int64), np.zeros(PLAYERS), np.empty((0, 1), np.int64),
            np.empty((0, PLAYERS), np.int64))


@jit
def _deal(R, seed, index, stream, deal_rng, si, o, no_fixed, w, done):
    seed_stream(deal_rng, seed, index, stream)
    K.deal_for_solver(R, deal_rng, si, o, no_fixed)
    for s in range(PLAYERS):
        A.worths(si[K.I_DEALT + s], R[R_ALT], w[s])
    for i in range(done.shape[0]):
        for j in range(PLAYERS):
            for k in range(PLAYERS):
                done[i, j, k] = False


@jit(parallel=True)
def train_batch(seed, first, count, R, play_pids, play_params, sigma, d_regret, d_average, err,
                model_p, model_pids, model_params, pairs, team):
    """Deals ``first .. first + count - 1``: block b's regret and average increments
    into ``d_regret[b]``, ``d_average[b]``. With ``model_p > 0``, with that probability
    each seat of a deal (``pairs`` false) or one of the deal's two across pairs
    (``pairs`` true: both its seats, as in a tournament's lineups A B A B) plays a fixed
    hand-written policy instead of the strategy being solved: one of the ``K =
    len(model_pids) - 1`` policies ``model_pids[1..K]`` (parameters ``model_params[k]``),
    each with probability 1/K. ``team``: see ``_walk``."""
    blocks = d_regret.shape[0]
    rows = sigma.shape[0]
    kinds = model_pids.shape[0] - 1
    for b in prange(blocks):
        (o, p, rng, rngs, work, si, deal_rng, w, memo, done, named, pi, rws, types, sig, util,
         nxt, out, no_log, no_fixed) = _scratch(play_params.shape[1], rows)
        no_best = np.zeros((0, rows), np.int64)
        no_q = np.zeros((0, rows, A.ACTIONS))
        model = np.zeros(PLAYERS, np.int64)
        for i in range(rows):
            for a in range(A.ACTIONS):
                d_regret[b, i, a] = 0.0
                d_average[b, i, a] = 0.0
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            index = first + k
            _deal(R, seed, index, TRAIN_STREAM, deal_rng, si, o, no_fixed, w, done)
            if model_p > 0.0 and pairs:
                for s in range(PLAYERS):
                    model[s] = 0
                if uniform(deal_rng) < model_p:
                    s = 0 if uniform(deal_rng) < 0.5 else 1
                    model[s] = model[s + 2] = min(kinds, 1 + np.int64(uniform(deal_rng) * kinds))
            elif model_p > 0.0:
                for s in range(PLAYERS):
                    model[s] = 0
                    if uniform(deal_rng) < model_p:
                        model[s] = min(kinds, 1 + np.int64(uniform(deal_rng) * kinds))
            _walk(R, o, p, rng, work, si, play_pids, play_params, rngs, err, no_log,
                  index % PLAYERS, w, memo, done, sigma, no_best, -1, 2, d_regret[b],
                  d_average[b], no_q, named, pi, rws, types, sig, util, nxt, out, model,
                  model_pids, model_params, team)


@jit(parallel=True)
def evaluate(seed, first, count, R, play_pids, play_params, sigma, best, q_sum, gains, err,
             team):
    """Held-out deals ``first .. first + count - 1``: with ``best`` empty, each seat's
    action values (weighted by the others' reach) summed per information set into
    ``q_sum[block, seat]``; with ``best`` (per seat and information set an action, or -1
    to play ``sigma``), each deal's gain of each seat's best response over ``sigma``
    into ``gains[deal, seat]``."""
    blocks = q_sum.shape[0]
    rows = sigma.shape[0]
    for b in prange(blocks):
        (o, p, rng, rngs, work, si, deal_rng, w, memo, done, named, pi, rws, types, sig, util,
         nxt, out, no_log, no_fixed) = _scratch(play_params.shape[1], rows)
        no_best = np.zeros((0, rows), np.int64)
        no_q = np.zeros((0, rows, A.ACTIONS))
        no_regret = np.zeros((0, A.ACTIONS))
        mine = np.zeros(PLAYERS)
        model = np.zeros(PLAYERS, np.int64)
        model_pids = np.zeros(1, np.int64)
        model_params = np.zeros((1, 1))
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            index = first + k
            dealer = index % PLAYERS
            _deal(R, seed, index, EVAL_STREAM, deal_rng, si, o, no_fixed, w, done)
            if best.shape[0] == 0:
                _walk(R, o, p, rng, work, si, play_pids, play_params, rngs, err, no_log, dealer,
                      w, memo, done, sigma, no_best, -1, 2, no_regret, no_regret, q_sum[b],
                      named, pi, rws, types, sig, util, nxt, out, model, model_pids,
                      model_params, team)
                continue
            _walk(R, o, p, rng, work, si, play_pids, play_params, rngs, err, no_log, dealer, w,
                  memo, done, sigma, no_best, -1, 1, no_regret, no_regret, no_q, named, pi,
                  rws, types, sig, util, nxt, out, model, model_pids, model_params,
                  team)
            for s in range(PLAYERS):
                mine[s] = out[s]
            for s in range(PLAYERS):
                _walk(R, o, p, rng, work, si, play_pids, play_params, rngs, err, no_log,
                      dealer, w, memo, done, sigma, best, s, 1, no_regret, no_regret, no_q,
                      named, pi, rws, types, sig, util, nxt, out, model, model_pids,
                      model_params, team)
                gains[k, s] = out[s] - mine[s]


@jit(parallel=True)
def _worth_samples(seed, R, play_pids, play_params, X, M, err):
    """Per deal, seat and type: the worth's features (``X``) and the deal's margin when
    the seat attacks the type, averaged over its three possible partners (``M``)."""
    n = X.shape[0]
    blocks = 16
    for b in prange(blocks):
        (o, p, rng, rngs, work, si, deal_rng, w, memo, done, named, pi, rws, types, sig, util,
         nxt, out, no_log, no_fixed) = _scratch(play_params.shape[1], 1)
        for i in range(b * n // blocks, (b + 1) * n // blocks):
            _deal(R, seed, i, FIT_STREAM, deal_rng, si, o, no_fixed, w, done)
            for s in range(PLAYERS):
                for t in range(1, A.N_TYPES + 1):
                    A.features(si[K.I_DEALT + s], R[R_ALT], t, X[i, s, t - 1])
                    total = 0.0
                    for x in range(PLAYERS):
                        if x != s:
                            total += K.margin_if_elected(R, o, p, rng, work, si, play_pids,
                                                         play_params, rngs, err, i % PLAYERS,
                                                         t, s, x, no_log)
                    M[i, s, t - 1] = total / (PLAYERS - 1)


def fit_worths(deals: int = 40_000, seed: int = 7) -> np.ndarray:
    """The abstraction's ``COEF``: per type set and type, the least-squares weights of
    the features on the margin (``_worth_samples``), rounded to 3 decimals."""
    from sim.games.vybory.rules import make
    coef = np.zeros((2, A.N_TYPES + 1, A.FEATURES))
    seats = assign_seats(SV.STRATEGIES, PLAYERS, ["all=expected+greedy"])
    for alt, name in enumerate(("standard", "alt")):
        R = pack(make({"type_set": name}))
        X = np.zeros((deals, PLAYERS, A.N_TYPES, A.FEATURES))
        M = np.zeros((deals, PLAYERS, A.N_TYPES))
        _worth_samples(np.uint64(seed), R, seats.ids("play"), seats.params("play"), X, M,
                       new_errors(1))
        for t in range(A.N_TYPES):
            c, *_ = np.linalg.lstsq(X[:, :, t].reshape(-1, A.FEATURES), M[:, :, t].ravel(),
                                    rcond=None)
            coef[alt, t + 1] = np.round(c, 3)
    return coef


def legal_mask(top: int = A.TOP) -> np.ndarray:
    """Per information set, its legal actions (they depend on the announcement only);
    ``top``: name only the hand's ``top`` best new types (a coarser action set on the
    same table: the others are never played)."""
    per_call = A.INFOSETS // A.CALLS
    mask = np.zeros((A.INFOSETS, A.ACTIONS), np.int64)
    for k in range(A.CALLS):
        for a in range(A.ACTIONS):
            mask[k * per_call:(k + 1) * per_call, a] = A.legal(a, k) and not top <= a < A.TOP
    return mask


MODEL_P = 0.5
"""The default ``model``: in a training deal each seat plays a fixed hand-written policy
(expected or matcher, half each, at their defaults) with this probability, the strategy
being solved otherwise (a restricted Nash response, Johanson et al. 2007)."""
MODELS = "expected;matcher"
"""The default ``models``: the fixed policies of a training deal, ``;`` between them,
each ``POLICY[:param=value,...]`` as ``bidlab tournament`` reads an election policy
(``expected`` or ``matcher``), drawn with equal probability (name one twice to draw it
twice as often)."""


def parse_models(text: str) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """``models`` -> (policy ids, parameter rows, the specs as given): row 0 is unused
    (a seat that plays the solution)."""
    from sim.errors import BidlabError
    specs = [x.strip() for x in str(text).split(";") if x.strip()]
    pids = np.zeros(len(specs) + 1, np.int64)
    params = np.zeros((len(specs) + 1, len(SV.MATCHER_PARAMS)))
    for k, spec in enumerate(specs, 1):
        policy, values = SV.STRATEGIES.parse(spec).policy("elect")
        if policy.pid not in (MODEL_EXPECTED, MODEL_MATCHER):
            raise BidlabError(f"vybory solver: models: {spec!r} is not expected or matcher "
                              f"(the fixed policies a training deal can seat)")
        pids[k] = policy.pid
        params[k, :len(values)] = values
    if not specs:
        raise BidlabError("vybory solver: models: name at least one policy, e.g. "
                          f"models={MODELS}")
    return pids, params, specs


class VyborySolver(DealSampledCFR):
    game = "vybory"
    default_iterations = 500
    settings = {"top": A.TOP, "model": MODEL_P, "models": MODELS, "pairs": 0, "team": 0.0}
    """The defaults make the shipped solution (its table bit for bit)."""
    """``top``: new types a player may name (1..3: his best ``top``); ``model``: the
    probability that a seat (``pairs`` 0) or an across pair (``pairs`` 1: both its seats,
    as the tournament's lineups A B A B seat a strategy) plays a fixed hand-written policy
    in a training deal; ``models``: those policies (``MODELS``); ``team``: the weight of
    the across seat's pair margin in a seat's payoff (0: its own pair's margin only; 1:
    the margin of its strategy's two seats in a lineup A B A B, so a pair with an
    opponent's seat is worth 0 to it)."""

    def __init__(self, rules: Rules, seed: int, **settings: Any):
        unknown = set(settings) - set(self.settings)
        if unknown:
            from sim.errors import BidlabError
            raise BidlabError(f"vybory solver: no setting {', '.join(sorted(unknown))} "
                              f"(settings: {', '.join(self.settings)})")
        self.settings = {**self.settings, **settings}
        self.top = int(self.settings["top"])
        self.model = float(self.settings["model"])
        self.pairs = bool(int(self.settings["pairs"]))
        self.team = float(self.settings["team"])
        self.model_pids, self.model_params, specs = parse_models(self.settings["models"])
        self.rules = rules
        self.seed = seed
        self.R = pack(rules)
        self.abstraction: Abstraction = A.abstraction(rules)
        self.start(legal_mask(self.top))
        seats = assign_seats(SV.STRATEGIES, PLAYERS, ["all=expected+greedy"])
        self.play_ids, self.play_params = seats.ids("play"), seats.params("play")
        who = "an across pair" if self.pairs else "each seat"
        payoff = ("the deal-score margin of the seat's pair over the other pair"
                  + (f" plus {self.team:g} times its across seat's" if self.team else ""))
        self.method = (
            "Monte Carlo CFR over deals (chance sampling, 4,096 deals an iteration), the "
            "election tree of each deal (restricted to the abstraction's actions) walked "
            "exactly against all seats' current strategies; Linear CFR weights; payoff: "
            f"{payoff}, the card play by greedy; restricted Nash response: in training "
            f"{who} plays {' or '.join(specs)} ({'each 1/' + str(len(specs))}) with "
            f"probability {self.model:g} in a deal")

    def increments(self, first: int, count: int, blocks: int, sigma: np.ndarray):
        d_regret, d_average = self.block_buffers(blocks)
        err = new_errors(1)
        train_batch(np.uint64(self.seed), first, count, self.R, self.play_ids, self.play_params,
                    sigma, d_regret, d_average, err, self.model, self.model_pids,
                    self.model_params, self.pairs, self.team)
        raise_on(err, self.game)
        return d_regret, d_average

    def exploitability(self, probabilities: np.ndarray) -> dict[str, Any]:
        """Per seat, the gain of a best response in the abstract game over the solution,
        per deal, in deal-score margin: the best response (the best action at every
        information set, given the others' play, against the solution everywhere else)
        is chosen on ``HELD_OUT`` held-out deals, then played at every information set at
        once on ``HELD_OUT`` other held-out deals, whose exact gain is the figure (it can
        fall below 0 where what the first deals suggest does not pay on the others).
        ``in_sample``: the sum of the single deviations' gains on the deals they were
        chosen on, an optimistic figure. The figure is the mean over seats; each seat's
        is reported too."""
        rows = self.legal.shape[0]
        err = new_errors(1)
        q_sum = np.zeros((BLOCKS, PLAYERS, rows, A.ACTIONS))
        no_best = np.zeros((0, rows), np.int64)
        gains = np.zeros((HELD_OUT, PLAYERS))
        evaluate(np.uint64(self.seed), 0, HELD_OUT, self.R, self.play_ids, self.play_params,
                 probabilities, no_best, q_sum, gains, err, self.team)
        raise_on(err, self.game)
        q = q_sum.sum(axis=0)
        own = (q * probabilities[None]).sum(axis=2)
        seen = np.abs(q).sum(axis=2) > 0
        q = np.where(self.legal[None] > 0, q, -np.inf)
        best = np.where(seen, q.argmax(axis=2), -1).astype(np.int64)
        in_sample = float((np.where(seen, q.max(axis=2), 0.0) - own).sum() / HELD_OUT / PLAYERS)
        evaluate(np.uint64(self.seed), HELD_OUT, HELD_OUT, self.R, self.play_ids,
                 self.play_params, probabilities, best, q_sum, gains, err, self.team)
        raise_on(err, self.game)
        per_deal = gains.mean(axis=1)
        half = 1.96 * per_deal.std(ddof=1) / np.sqrt(per_deal.size)
        seats = gains.mean(axis=0)
        return {"value": float(per_deal.mean()), "ci_low": float(per_deal.mean() - half),
                "ci_high": float(per_deal.mean() + half),
                "unit": "deal-score margin (own pair minus the other) per seat",
                "per_seat": [float(x) for x in seats], "deals": HELD_OUT,
                "in_sample": in_sample, "best_response_chosen_on": HELD_OUT}



def make_solver(rules: Rules, seed: int, **settings: Any) -> VyborySolver:
    return VyborySolver(rules, seed, **settings)
