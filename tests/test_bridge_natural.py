"""The ``natural`` bridge system: hand-built hands with known calls and auctions, both
partners reading the auction alike, the parameters' bounds, and play against random on
the fixture's double-dummy boards (no new boards are solved here)."""

import json
from pathlib import Path

import numpy as np
import pytest

from sim.errors import StrategyError
from sim.games.bridge import core as C
from sim.games.bridge import dd as DD
from sim.games.bridge import engine as E
from sim.games.bridge import kernel as K
from sim.games.bridge import obs as O
from sim.games.bridge.pbn import parse_deal, parse_hand
from sim.games.bridge.rules import make
from strategies import bridge_natural as N
from strategies.bridge import STRATEGIES
from strategies.bridge_natural import params as NP
from strategies.bridge_natural import reading as NR

FIXTURE = Path(__file__).parent / "data" / "bridge_dd.json"
DEFAULTS = np.array([q.default for q in N.NATURAL_PARAMS])


def observe(hand, calls, dealer=0):
    """The observation of the seat whose turn follows ``calls`` (from ``dealer``)."""
    o = np.zeros(O.SIZE, dtype=np.int64)
    last, bidder, doubled = 0, -1, 0
    for k, text in enumerate(calls):
        c = C.parse_call(text)
        o[O.CALLS + k] = c
        if c >= C.FIRST_BID:
            last, bidder, doubled = c, (dealer + k) % 4, 0
        else:
            doubled = {C.PASS: doubled, C.DOUBLE: 1, C.REDOUBLE: 2}[c]
    seat = (dealer + len(calls)) % 4
    o[O.SEAT], o[O.HAND], o[O.DEALER], o[O.N_CALLS] = seat, parse_hand(hand), dealer, len(calls)
    o[O.LAST_BID], o[O.LAST_BIDDER], o[O.DOUBLED] = last, bidder, doubled
    o[O.LEGAL] = C.legal_mask(last, bidder, doubled, seat)
    return o


def read(o):
    """The full replay (a fresh memo)."""
    return N.read_auction(o, DEFAULTS, NR._bid_mask(o), np.zeros(N.MEMO_SIZE, dtype=np.int64))


def call(hand, *calls, params=DEFAULTS):
    return C.call_text(N.natural_call(observe(hand, list(calls)), params,
                                      np.zeros(N.MEMO_SIZE, dtype=np.int64)))


def auction(deal, spec="all=natural"):
    """The auction of a hand-built deal (PBN, North first) as board 1: North deals,
    nobody vulnerable."""
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    seats = seat_strategies("bridge", make(), [spec])
    out, calls = E.auctions(make(), policy_arrays("bridge", seats), seats.labels, 0, 0,
                            parse_deal(deal)[None, :], log=True)
    return " ".join(C.call_text(c) for c in calls[0, :out[0, K.B_NCALLS]])


# -- openings --------------------------------------------------------------------------

@pytest.mark.parametrize("hand, expected", [
    ("AK5.KQ94.J32.Q65", "1N"),       # 15 HCP, balanced
    ("AKJ52.K4.Q82.K65", "1N"),       # 16 HCP, 5-3-3-2 with a five-card major
    ("AK5.KQ94.AJ2.K65", "2N"),       # 20 HCP, balanced
    ("AKQ3.AKJ5.AK4.K6", "2C"),       # 26 HCP: strong and artificial
    ("AKJ52.K4.Q8.K652", "1S"),       # 13 HCP, five spades
    ("AK5.KJ943.Q8.865", "1H"),
    ("K64.AQ52.K82.652", "1C"),       # three-three in the minors
    ("K64.AQ52.K832.65", "1D"),       # the longer minor
    ("K6.AQ52.K832.Q65", "1D"),       # four-four: diamonds
    ("Q7.KQJ652.84.J52", "2H"),       # a weak two
    ("7.K4.QJT8642.J52", "3D"),       # a seven-card preempt
    ("Q7.K652.842.J652", "P"),
])
def test_openings(hand, expected):
    assert call(hand) == expected


# -- notrump responses: Stayman and transfers ---------------------------------------------

def test_stayman_with_a_four_card_major_and_invitational_values():
    assert call("Q864.AJ53.K54.J2", "1N", "P") == "2C"
    assert call("Q864.AJ53.K54.J2", "1N", "P", "2C", "P", "2H", "P") == "4H"   # fit, game
    assert call("Q864.J853.854.J2", "1N", "P") == "P"       # too weak for Stayman


def test_opener_answers_stayman():
    assert call("AK5.KQ94.J32.Q65", "1N", "P", "2C", "P") == "2H"
    assert call("AK54.KQ9.J32.Q65", "1N", "P", "2C", "P") == "2S"
    assert call("AK5.KQ9.J432.Q65", "1N", "P", "2C", "P") == "2D"


def test_jacoby_transfers_and_their_completion():
    assert call("J84.AJ653.954.T2", "1N", "P") == "2D"      # five hearts, weak: transfer
    assert call("QJ864.T53.954.T2", "1N", "P") == "2H"      # five spades
    assert call("AK5.KQ94.J32.Q65", "1N", "P", "2D", "P") == "2H"
    assert call("AK5.KQ94.J32.Q65", "1N", "P", "2H", "P") == "2S"
    weak = ("J84.AJ653.954.T2", "1N", "P", "2D", "P", "2H", "P")
    assert call(*weak) == "P"
    assert call("J84.AJ653.954.Q2", "1N", "P", "2D", "P", "2H", "P") == "2N"   # invites
    assert call("J84.AJ653.954.A2", "1N", "P", "2D", "P", "2H", "P") == "3N"   # game
    # opener picks the game: hearts with three, notrump with two
    assert call("AK5.KQ9.J432.Q65", "1N", "P", "2D", "P", "2H", "P", "3N", "P") == "4H"
    assert call("AK52.K9.J432.Q65", "1N", "P", "2D", "P", "2H", "P", "3N", "P") == "P"


def test_full_auctions_stayman_and_transfer():
    stayman = "N:AK5.KQ94.J32.Q65 JT9.T87.T987.T98 Q864.AJ53.K54.J2 732.62.AQ6.AK743"
    assert auction(stayman) == "1N P 2C P 2H P 4H P P P"
    transfer = "N:AK5.KQ94.J32.Q65 QT97.T8.AK8.9843 J84.AJ653.954.T2 632.72.QT76.AKJ7"
    assert auction(transfer) == "1N P 2D P 2H P P P"


def test_notrump_raises_by_combined_points():
    assert call("Q86.K105.J42.A953", "1N", "P") == "3N"      # 10: game
    assert call("Q86.K105.J42.Q953", "1N", "P") == "2N"      # 8: invite
    assert call("AK5.KQ94.J32.Q65", "1N", "P", "2N", "P") == "P"      # 15: declines
    assert call("AK5.KQ94.K32.Q65", "1N", "P", "2N", "P") == "3N"     # 17: accepts
    assert call("AQ6.K105.KJ4.Q953", "1N", "P") == "4N"      # 15: quantitative
    assert call("AK5.KQ94.K32.Q65", "1N", "P", "4N", "P") == "6N"     # maximum: accepts
    assert call("AK5.KQ94.J32.Q65", "1N", "P", "4N", "P") == "P"


# -- responses to one of a suit, opener's rebids -----------------------------------------------

@pytest.mark.parametrize("hand, opening, expected", [
    ("Q64.K542.Q82.965", "1S", "2S"),        # 7 support points: single raise
    ("Q642.K54.K82.A65", "1S", "3S"),        # 12: limit raise
    ("Q642.KQ54.K82.A6", "1S", "2N"),        # game values, four trumps: Jacoby 2NT
    ("64.K542.J82.AQ65", "1S", "2C"),        # 2/1 with ten
    ("64.K542.Q82.Q965", "1S", "1N"),
    ("J84.K1052.Q8.A652", "1D", "1H"),       # a four-card major first
    ("K1052.J8.Q84.A652", "1H", "1S"),
    ("J84.952.Q8.T6532", "1H", "P"),          # under respond_min
])
def test_responses_to_one_of_a_suit(hand, opening, expected):
    assert call(hand, opening, "P") == expected


def test_opener_rebids_describe_shape_and_strength():
    assert call("AKJ52.K4.Q82.K65", "1S", "P", "2N", "P") == "3S"    # extras over Jacoby
    assert call("AKJ52.K4.Q82.865", "1S", "P", "2N", "P") == "4S"    # a minimum
    assert call("K64.AQ52.K82.652", "1C", "P", "1H", "P") == "2H"    # four-card support
    assert call("AK64.Q52.K82.A65", "1C", "P", "1H", "P") == "1S"    # spades at the one level
    assert call("KJ5.AK105.Q8.KJ65", "1C", "P", "1S", "P") == "2N"   # 18-19 balanced
    assert call("AQ5.KJ4.Q8.J6532", "1C", "P", "1H", "P") == "1N"    # 12-14 balanced
    assert call("A5.KJ4.Q8.AKJ652", "1C", "P", "1H", "P") == "3C"    # six clubs, 16-18


def test_strong_two_clubs_is_answered_and_rebid():
    assert call("J3.Q52.8432.J652", "2C", "P") == "2D"
    assert call("AKQ3.AKJ5.AK4.K6", "2C", "P", "2D", "P") == "3N"   # balanced 26


# -- competition -------------------------------------------------------------------------------

def test_overcalls_and_takeout_doubles():
    assert call("AQJ52.K3.Q82.865", "1H") == "1S"               # five spades, 12
    assert call("AQ52.3.KQ82.K652", "1H") == "X"                # shortness, support
    assert call("AQ5.KJ3.KQ82.J65", "1H") == "1N"               # 16 balanced, heart stopper
    assert call("J52.963.Q842.T65", "1H", "X", "P") == "2D"     # answer in the best suit
    assert call("K1052.963.Q842.65", "1H", "X", "P") == "1S"    # a major first
    assert call("Q5.963.Q842.T652", "1H") == "P"


def test_answers_to_a_two_notrump_overcall_go_above_it():
    # partner's 2NT over their weak two shows what a 1NT overcall does, one level up
    assert call("K52.Q73.J842.Q65", "2H", "2N", "P") == "3N"    # 8: upper half of an invite
    assert call("K52.Q73.J842.965", "2H", "2N", "P") == "P"
    assert call("J8652.Q73.842.Q6", "2H", "2N", "P") == "P"     # weak: no two-level major
    assert call("KQ852.Q73.K42.Q6", "2H", "2N", "P") == "3S"    # game values: forcing


@pytest.mark.parametrize("spec", [
    ["all=natural"],
    ["0=random:span=35,p_bid=0.4", "1=natural", "2=natural", "3=random:span=35,p_bid=0.4"],
    ["0=natural", "1=random:span=35,p_bid=0.6,p_double=0.5", "2=random:p_double=0.3",
     "3=natural:game_min=22,invite_min=28"],
])
def test_natural_never_makes_an_illegal_call(spec):
    """Whatever partner and the opponents do (random bids at any level included), every
    call natural makes is legal: the kernel stops on the first illegal one."""
    logged_auctions(7, 20000, spec)


def test_negative_double_and_cue_bid_raise():
    assert call("K1052.963.AJ84.65", "1C", "1H") == "X"         # four spades, 8 points
    assert call("Q642.K54.K82.965", "1S", "2H") == "2S"         # a raise: 8 points
    assert call("Q642.K54.K82.A65", "1S", "2H") == "3H"         # cue-bid: limit raise


def test_penalty_doubles_are_sound():
    # partner opened 1NT and they came in where we hold the trumps and the values
    assert call("KQJ98.A52.A83.96", "1N", "2S") == "X"
    assert call("9752.Q52.Q83.965", "1N", "2S") == "P"
    assert call("KQJ9.652.Q83.965", "1N", "2S") == "P"          # not enough tricks


# -- slams -------------------------------------------------------------------------------------

def test_slams_need_combined_values_and_grands_need_more():
    assert call("AQ6.AJ5.KQ4.KJ53", "1N", "P") == "6N"          # 20 + 15 at least
    assert call("AQ6.J95.KQ4.J853", "2N", "P") == "6N"          # 13 + 20: no grand
    assert call("AKQ.AKJ.KQ43.KQJ", "1N", "P") == "7N"          # 28 + 15
    # Blackwood after Jacoby 2NT and opener's extras: five with two aces missing
    assert call("KQ742.KQ5.KQ4.K6", "1S", "P", "2N", "P", "3S", "P") == "4N"
    assert call("KQ742.KQ5.KQ4.A6", "1S", "P", "2N", "P", "3S", "P", "4N", "P", "5C",
                "P") == "5S"                              # one ace between us
    assert call("KQ742.KQ5.KQ4.A6", "1S", "P", "2N", "P", "3S", "P", "4N", "P", "5H",
                "P") == "6S"                              # three: one missing
    assert call("KQ742.KQ5.KQ4.K6", "1S", "P", "2N", "P", "3S", "P", "4N", "P", "5C",
                "P") == "6S"                              # 5C with no ace here: all four
    assert call("AJ853.A4.A82.J65", "1S", "P", "2N", "P", "3S", "P", "4N", "P") == "5S"


def test_full_auction_reaches_slam_without_a_grand():
    deal = "N:AQ853.AJ4.A82.Q6 J9.T9873.T97.T87 KT42.KQ5.KQ4.A95 76.62.J653.KJ432"
    a = auction(deal)
    assert a.split()[-4] in ("6S", "6N"), a
    assert "7" not in a


# -- both partners read the calls alike --------------------------------------------------------

def test_what_an_opening_shows():
    rd = read(observe("AK5.KQ94.J32.Q65", ["1N", "P"]))          # partner's 1NT
    part = rd.part
    assert (NR.lo_of(part), NR.hi_of(part)) == (15, 17) and NR.balanced_of(part)
    assert all(NR.len_of(part, s) == 2 for s in range(4))
    rd = read(observe("AK5.KQ94.J32.Q65", ["1S", "P", "2N", "P"], dealer=2))
    assert rd.agreed == 3 and rd.pa_kind == NR.K_FORCE    # Jacoby 2NT
    assert NR.len_of(rd.part, 3) >= 3


def logged_auctions(seed, count, spec=("all=natural",)):
    """``count`` boards bid by ``spec``: (hands, bid parameters per seat, per board its
    dealer and call texts)."""
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    seats = seat_strategies("bridge", make(), list(spec))
    policies = policy_arrays("bridge", seats)
    hands = E.deal(seed, 0, count)
    out, calls = E.auctions(make(), policies, seats.labels, seed, 0, hands, log=True)
    boards = [(int(out[m, K.B_DEALER]), [C.call_text(c) for c in calls[m, :out[m, K.B_NCALLS]]])
              for m in range(count)]
    return hands, policies["bid"][1], boards


def test_partners_read_each_other_alike():
    """What a seat thinks its partner has shown equals what the partner thinks it has
    shown, at every turn of a thousand natural auctions."""
    _, _, boards = logged_auctions(4, 1000)
    checked = 0
    for dealer, texts in boards:
        for k in range(1, len(texts)):
            seat = (dealer + k) % 4
            mine = read(observe("AK5.KQ94.J32.Q65", texts[:k], dealer))
            o = observe("AK5.KQ94.J32.Q65", texts[:k], dealer)
            o[O.SEAT] = (seat + 2) % 4
            theirs = read(o)
            assert mine.part == theirs.mine, (texts[:k], seat)
            assert mine.pa_kind == theirs.my_kind
            checked += 1
    assert checked > 5000


@pytest.mark.parametrize("spec", [
    ["all=natural"],                                   # partners share a memo
    ["all=natural", "0=natural:nt_min=12,nt_max=14", "1=natural:open_min=10"],  # they don't
])
def test_the_memo_changes_no_call(spec):
    """The kernel's seats go on from the reading they remembered (partners with the same
    parameters from a shared one); every call must equal the call from a full replay."""
    hands, params, boards = logged_auctions(6, 400, spec)
    checked = 0
    for m, (dealer, texts) in enumerate(boards):
        for k, text in enumerate(texts):
            seat = (dealer + k) % 4
            o = observe("AK5.KQ94.J32.Q65", texts[:k], dealer)
            o[O.HAND] = hands[m, seat]
            fresh = N.natural_call(o, params[seat], np.zeros(N.MEMO_SIZE, dtype=np.int64))
            assert C.call_text(fresh) == text, (m, texts[:k], seat)
            checked += 1
    assert checked > 3000


def test_the_memo_never_holds_a_hand():
    """Partners share a memo (B8: a seat sees only its own hand), so what the reader
    remembers must not depend on the hand of the seat that wrote it."""
    hands, _, boards = logged_auctions(7, 300)
    checked = 0
    for m, (dealer, texts) in enumerate(boards):
        for k in range(1, len(texts) + 1):
            memos = []
            for seat_hand in hands[m]:
                o = observe("AK5.KQ94.J32.Q65", texts[:k], dealer)
                o[O.HAND] = seat_hand
                memo = np.zeros(N.MEMO_SIZE, dtype=np.int64)
                N.read_auction(o, DEFAULTS, NR._bid_mask(o), memo)
                memos.append(memo)
            assert all((x == memos[0]).all() for x in memos), (m, texts[:k])
            checked += 1
    assert checked > 2000


# -- parameters ----------------------------------------------------------------------------------

def test_parameters_are_named_bounded_and_documented():
    policy = STRATEGIES.by_name("natural")
    assert policy.params == N.NATURAL_PARAMS
    names = [q.name for q in N.NATURAL_PARAMS]
    assert len(set(names)) == len(names) >= 20
    for q in N.NATURAL_PARAMS:
        assert q.lo <= q.default <= q.hi and q.doc
        with pytest.raises(StrategyError, match="out of range"):
            STRATEGIES.parse(f"natural:{q.name}={q.hi + 1}")
    assert STRATEGIES.parse("natural:nt_min=14,nt_max=16").label == "natural:nt_min=14,nt_max=16"


def test_parameters_change_the_calls():
    p = DEFAULTS.copy()
    p[NP.NT_MIN], p[NP.NT_MAX] = 12, 14
    assert call("AK5.QJ94.J32.Q65", params=p) == "1N"            # 13 HCP
    assert call("AK5.QJ94.J32.Q65") == "1C"
    p = DEFAULTS.copy()
    p[NP.OPEN_MIN] = 15
    assert call("AKJ52.K4.Q8.8652", params=p) == "P"             # 14 points
    assert call("AKJ52.K4.Q8.8652") == "1S"


def test_policies_help_teaches_the_system(capsys):
    from bidlab.cli import main
    assert main(["policies", "bridge"]) == 0
    text = capsys.readouterr().out
    for word in ("Stayman", "transfer", "Blackwood", "takeout", "nt_min", "slam_min",
                 "two_over_one_min", "compete_margin"):
        assert word in text


# -- against random, on the fixture's boards -------------------------------------------------------

@pytest.fixture
def fixture_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BIDLAB_DD_CACHE", str(tmp_path / "dd.sqlite"))
    DD.import_json(FIXTURE)
    DD.set_solve_limit(0)
    yield json.loads(FIXTURE.read_text())["boards"]
    DD.set_solve_limit(None)


def test_natural_beats_random_and_stays_near_par(fixture_cache):
    from analysis.bridge import team_match
    n = len(fixture_cache)
    r = team_match("natural", "random", n, seed=1)
    assert r.ci_low > 0, (r.imps_per_board, r.ci_low, r.ci_high)
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    hands = E.deal(1, 0, n)
    tables, par_ns, oracle = E.solve_boards(make(), hands, 0)
    means = {}
    for spec in ("natural", "random"):
        seats = seat_strategies("bridge", make(), [f"all={spec}"])
        out, _ = E.auctions(make(), policy_arrays("bridge", seats), seats.labels, 1, 0, hands,
                            tables, par_ns, oracle)
        diff = out[:, K.B_SCORE_NS].astype(np.int64) - out[:, K.B_PAR_NS]
        means[spec] = np.abs(E.imps_vec(diff)).mean()
    assert means["natural"] < means["random"] - 2
