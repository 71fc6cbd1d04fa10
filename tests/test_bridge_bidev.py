"""bridge bid-EV: situations and their errors, common random numbers, known answers.

Double-dummy results come from ``tests/data/bridge_dd.json`` loaded into a temporary
cache (no solving at all where a test fixes every hand to a fixture deal), or from a
fake solver (``fake_dd``) where a test needs many random deals; the live solver runs
only in the slow test.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from analysis.bidev import bid_ev
from bidlab.cli import main
from sim.errors import BidlabError
from sim.games.bridge import core as C
from sim.games.bridge import dd as DD
from sim.games.bridge import engine as E
from sim.games.bridge import kernel as K
from sim.games.bridge import rollout as RO
from sim.games.bridge.pbn import format_hand, parse_deal
from sim.games.bridge.rules import BOARD_VUL, make
from sim.games.bridge.situation import candidates, parse

FIXTURE = Path(__file__).parent / "data" / "bridge_dd.json"
BOARDS = json.loads(FIXTURE.read_text())["boards"]
HAND = "KQ52.AJ3.742.Q87"
RESPONSE = {"hand": f"S={HAND}", "board": "1", "calls": "1H,P"}


@pytest.fixture(autouse=True)
def dd_cache(tmp_path, monkeypatch):
    """A fresh cache holding the fixture's boards; no test solves a board for real."""
    monkeypatch.setenv("BIDLAB_DD_CACHE", str(tmp_path / "dd.sqlite"))
    DD.import_json(FIXTURE)
    DD.set_solve_limit(0)
    yield
    DD.set_solve_limit(None)


@pytest.fixture
def fake_dd(monkeypatch):
    """Replace DDS by a made-up but deterministic table (a side takes 6 tricks plus one
    per 2 HCP above 20, plus its trumps beyond 7); records every call's strains and
    boards. Lifts the solve limit: these boards are free."""
    calls = []

    def solve_direct(hands, strains=(0, 1, 2, 3, 4), progress=False, batch=None, times=None):
        calls.append((len(hands), tuple(strains)))
        out = np.full((len(hands), 4, 5), -1, dtype=np.int8)
        for i, h in enumerate(hands):
            for seat in range(4):
                pts = int(C.hcp(h[seat])) + int(C.hcp(h[(seat + 2) % 4]))
                for s in strains:
                    fit = 0 if s == 4 else max(0, int(C.suit_length(h[seat], s))
                                               + int(C.suit_length(h[(seat + 2) % 4], s)) - 7)
                    out[i, seat, s] = min(13, max(0, 6 + (pts - 20) // 2 + fit))
        return out

    monkeypatch.setattr(DD, "solve_direct", solve_direct)
    DD.set_solve_limit(None)
    return calls


def _policies(spec):
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    seats = seat_strategies("bridge", make(), spec)
    return policy_arrays("bridge", seats), seats.labels


def _fixture_situation(i, seat, calls=()):
    """Board ``i`` of the fixture with every hand known: no solving needed."""
    hands = parse_deal(BOARDS[i]["deal"])
    known = ";".join(f"{'NESW'[s]}={format_hand(hands[s])}" for s in range(4) if s != seat)
    return {"hand": format_hand(hands[seat]), "seat": "NESW"[seat], "board": str(i % 16 + 1),
            "calls": ",".join(calls), "known": known}


# -- situations -------------------------------------------------------------------------

def test_situation_reads_seat_board_and_calls():
    s = parse(make(), RESPONSE)
    assert (s.seat, s.dealer, s.vul, s.board) == (2, 0, 0, 1)
    assert [C.call_text(c) for c in s.calls] == ["1H", "P"]
    # the seat from the turn, the dealer from the seat, a seat key, NT and spaces
    assert parse(make(), {"hand": HAND, "board": "1", "calls": "1H P"}).seat == 2
    s = parse(make(), {"S": HAND, "calls": "1NT pass", "vul": "both"})
    assert (s.dealer, s.vul, s.board) == (0, 3, 13)
    assert parse(make({"vulnerability": "ew"}), {"hand": HAND, "board": "1"}).vul == 2


def test_default_candidates_pass_double_and_the_cheapest_bid_per_strain():
    s = parse(make(), RESPONSE)
    assert [C.call_text(c) for c in candidates(s, None)] == ["P", "1S", "1N", "2C", "2D", "2H"]
    s = parse(make(), {"hand": f"E={HAND}", "board": "1", "calls": "1H"})
    assert [C.call_text(c) for c in candidates(s, None)][:2] == ["P", "X"]
    assert [C.call_text(c) for c in candidates(s, ["2S,4S", "2s", "P"])] == ["2S", "4S", "P"]


@pytest.mark.parametrize("change,message", [
    ({"hand": "S=KQ52.AJ3.742.Q8"}, "12 cards; a hand has 13"),
    ({"hand": "S=KQ52.AJ3.742.QQ8"}, "holds CQ twice"),
    ({"hand": "S=KQ52.AJ3.742"}, "four suits S.H.D.C"),
    ({"seat": "N"}, "but the hand is given for S"),
    ({"hand": HAND, "seat": "E"}, r"it is not E's turn: N deals and after 2 call\(s\) it is S's"),
    ({"calls": "1H,1D"}, r"call 2 \(1D\) is illegal: a bid must be higher than the last "
                         r"bid, 1H \(B3\); legal there: P, X, 1S..7N"),
    ({"calls": "1H,P,X"}, r"call 3 \(X\) is illegal: a double needs an opponent's bid"),
    ({"calls": "1H,XX"}, "a redouble needs"),
    ({"calls": "1H,P,P,P"}, "the auction is over after these calls"),
    ({"calls": "P,P,P,P,1C"}, "the auction ended with call 4"),
    ({"calls": "1H,Q"}, "call 2: cannot read call 'Q'"),
    ({"board": "17"}, "allowed 1..16"),
    ({"dealer": "E"}, "board 1 is dealt by N"),
    ({"vul": "ns"}, "board 1 has vulnerability None"),
    ({"vul": "red"}, "expected none, ns, ew or both"),
    ({"known": "N=AKJ4.KQ2.K98.Q96"}, "card CQ of N's hand is in another hand"),
    ({"known": "S=AKJ4.KQ8.K98.T96"}, "S is your seat"),
    ({"hcp": "N=11-40"}, "outside 0..37"),
    ({"hcp": "N=30-;E=15-"}, "hidden hands hold 28 HCP between them"),
    ({"shape": "N=H11-;E=H1-"}, "hold 10 cards of suit H"),
    ({"shape": "N=Z5"}, "a suit letter"),
    ({"colour": "red"}, "unknown bridge situation key 'colour'"),
    ({"auction": "1H"}, "both calls and auction"),
])
def test_bad_situations_say_what_is_wrong(change, message):
    with pytest.raises(BidlabError, match=message):
        parse(make(), {**RESPONSE, **change})


def test_missing_hand_and_bad_candidates():
    with pytest.raises(BidlabError, match="needs your hand"):
        parse(make(), {"board": "1"})
    s = parse(make(), RESPONSE)
    with pytest.raises(BidlabError, match=r"candidate 1D is illegal here: .*legal calls: "
                                          r"P, 1S..7N"):
        candidates(s, ["1D"])
    with pytest.raises(BidlabError, match="candidate '5Z': write P, X, XX, a bid 1C..7N"):
        candidates(s, ["2H,5Z"])


def test_candidate_ranges_run_up_the_bids():
    """``A..B``: every bid from A up to B (sim.situation.parse_candidates, as in auktsion
    and pitch); a range that runs down, joins a non-bid or holds an illegal bid says so."""
    s = parse(make(), RESPONSE)
    assert [C.call_text(c) for c in candidates(s, ["P,2H..3C", "bid 2H"])] == \
        ["P", "2H", "2S", "2N", "3C"]
    for given, message in [(["4H..2H"], r"candidate '4H\.\.2H' runs downward: .* 2H\.\.4H"),
                           (["P..2H"], r"candidate 'P\.\.2H': a range joins two bids"),
                           (["11..4"], r"candidate '11\.\.4': write P, X, XX, a bid 1C"),
                           (["1D..1N"], r"candidate 1D \(of 1D\.\.1N\) is illegal here: a bid "
                                        r"must be higher than the last bid, 1H \(B3\)"),
                           (["X"], r"candidate X is illegal here: a double needs .* \(B4\); "
                                   r"legal calls: P, 1S\.\.7N")]:
        with pytest.raises(BidlabError, match=message):
            candidates(s, given)


def test_cli_bad_situation_exits_2(capsys):
    code = main(["bid-ev", "bridge", "--hand", f"S={HAND}", "--state", "board=1",
                 "--state", "calls=1H,1D"])
    assert code == 2 and "situation calls='1H,1D': call 2 (1D) is illegal" in \
        capsys.readouterr().err


@pytest.mark.parametrize("extra,message", [
    (["--state", "nope=1"], "unknown bridge situation key 'nope'; known keys: hand, seat, "
                            "board, dealer, vul, calls, auction, hcp, shape, known, infer "
                            "(or N/E/S/W=HAND)"),
    (["--state", "bord=1"], "'bord' (did you mean board?)"),
    (["--candidates", "4H..2H"], "candidate '4H..2H' runs downward"),
    (["--candidates", "foo"], "candidate 'foo': write P, X, XX"),
    (["--candidates", "1D"], "candidate 1D is illegal here"),
])
def test_cli_bad_keys_or_candidates_exit_2_with_one_line(capsys, extra, message):
    code = main(["bid-ev", "bridge", "--hand", f"S={HAND}", "--state", "board=1",
                 "--state", "calls=1H,P", "--rollouts", "10", *extra])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err and message in err


def test_help_teaches_the_bridge_situation(capsys):
    with pytest.raises(SystemExit):
        main(["bid-ev", "--help"])
    out = capsys.readouterr().out
    assert "situation keys for bridge" in out and "hcp=N=11-21" in out and "cached" in out


# -- known answers on fixture deals (no solving) ----------------------------------------

def test_known_deal_with_passing_opponents_scores_each_contract_exactly_b10():
    """Every hand known (fixture board 0), everyone else passes: each candidate is the
    contract, declared by North, on the fixture's double-dummy tricks."""
    b = BOARDS[0]
    r = bid_ev("bridge", _fixture_situation(0, 0), rollouts=5, seed=0,
               candidates=["1N,2H,4S,P"], strategies=["all=pass"])
    tricks = b["dd_table"][0]
    want = [C.score_py(1, 4, 0, False, tricks[4]), C.score_py(2, 2, 0, False, tricks[2]),
            C.score_py(4, 3, 0, False, tricks[3]), 0]
    f = r.frame.set_index("action")
    assert list(f["mean"]) == want == [-100, 110, -150, 0]
    assert f["ci_low"].to_numpy() == pytest.approx(f["mean"].to_numpy())
    assert r.best == "2H" and r.p_best == 1.0
    assert list(f["imps"]) == [C.imps(w - 110) for w in want]
    assert list(f["win"]) == pytest.approx([1 / 3, 1.0, 0.0, 2 / 3])  # matchpoints among 4


def test_forcing_the_strategys_own_call_reproduces_the_plain_run():
    """The natural policy is deterministic: forcing the calls it makes itself on a fixture
    board gives the score of the plain run of that board (kernel, forced calls, scoring
    and the board's dealer and vulnerability all agree)."""
    pol, labels = _policies(None)
    hands = E.deal(1, 0, 16)
    tables, par_ns, oracle = E.solve_boards(make(), hands, 0)
    out, calls = E.auctions(make(), pol, labels, 1, 0, hands, tables, par_ns, oracle, log=True)
    checked = 0
    for i in range(16):
        n = int(out[i, K.B_NCALLS])
        if n < 5:
            continue
        seat = (i % 4 + 2) % 4  # the third caller
        prefix = [C.call_text(c) for c in calls[i, :2]]
        r = bid_ev("bridge", _fixture_situation(i, seat, prefix), rollouts=2, seed=1,
                   candidates=[C.call_text(calls[i, 2])])
        sign = 1 if seat % 2 == 0 else -1
        assert r.frame["mean"].iloc[0] == sign * out[i, K.B_SCORE_NS]
        checked += 1
    assert checked >= 5


def test_par_oracle_uses_cached_tables_and_par():
    r = bid_ev("bridge", _fixture_situation(3, 3), rollouts=2, strategies=["all=par"])
    assert r.frame["mean"].notna().all()


# -- common random numbers and reproducibility (fake solver) ----------------------------

CONSTRAINED = {**RESPONSE, "hcp": "N=11-21;E=0-10", "shape": "N=H5-"}


def test_every_candidate_plays_the_same_deals_solved_once(fake_dd):
    s = parse(make(), CONSTRAINED)
    pol, labels = _policies(["all=pass"])
    calls = candidates(s, ["2H,4H"])
    hands, tables, board_out, score = RO.play(make(), pol, labels, s, calls, 7, 40)
    assert (hands == RO.deal_rollouts(s, 7, 0, 40, *RO._policy_arrays(pol))).all()
    assert (hands[:, 2] == s.hand).all()
    assert all(C.hcp(h) >= 11 and C.suit_length(h, 2) >= 5 for h in hands[:, 0])
    # each deal is solved once, in hearts only (the only strain of the contracts)
    assert sum(n for n, _ in fake_dd) == 40 and {st for _, st in fake_dd} == {(2,)}
    assert (board_out[:, :, K.B_STRAIN] == 2).all()
    assert (score[:, 1] == [C.score_py(4, 2, 0, False, t) for t in tables[:, 2, 2]]).all()
    again = RO.play(make(), pol, labels, s, calls, 7, 40)[3]
    assert (again == score).all() and sum(n for n, _ in fake_dd) == 40  # cached
    # natural bids on: a candidate's outcome per rollout does not depend on the other
    # candidates (same deal, same policy streams)
    pol, labels = _policies(None)
    a = RO.play(make(), pol, labels, s, candidates(s, ["2H,4H"]), 7, 40)[3]
    b = RO.play(make(), pol, labels, s, candidates(s, ["3H,2H"]), 7, 40)[3]
    assert (b[:, 1] == a[:, 0]).all()


def test_recorded_rollout_is_the_rollout(fake_dd):
    s = parse(make(), CONSTRAINED)
    pol, labels = _policies(None)
    calls = candidates(s, ["2H,4H,P"])
    hands, _, _, score = RO.play(make(), pol, labels, s, calls, 3, 12)
    for action, c in (("4H", 1), ("P", 2)):
        rec = RO.play_rollout(make(), pol, labels, CONSTRAINED, action, 3, 9)
        assert rec["deal"] == DD.pbn(hands[9]) and rec["score"] == score[9, c]
        assert rec["auction"][:3] == ["1H", "P", action]


def test_same_seed_same_result_across_threads(fake_dd, threads):
    threads(1)
    a = bid_ev("bridge", CONSTRAINED, rollouts=60, seed=5)
    threads(2)
    b = bid_ev("bridge", CONSTRAINED, rollouts=60, seed=5)
    assert a.frame.equals(b.frame) and a.best == b.best
    c = bid_ev("bridge", CONSTRAINED, rollouts=60, seed=6)
    assert not a.frame["mean"].equals(c.frame["mean"])
    f = a.frame
    assert ((f["ci_low"] <= f["mean"]) & (f["mean"] <= f["ci_high"])).all()
    assert ((f["imps_ci_low"] <= f["imps"]) & (f["imps"] <= f["imps_ci_high"])).all()
    assert f["p_best"].sum() == pytest.approx(1.0)


def test_cli_prints_score_imps_and_matchpoints(capsys, fake_dd):
    code = main(["bid-ev", "bridge", "--hand", f"S={HAND}", "--state", "board=1",
                 "--state", "calls=1H,P", "--rollouts", "20", "--candidates", "2H,4H"])
    out = capsys.readouterr().out
    assert code == 0 and "20 rollouts per candidate" in out
    assert "score (your side) [95% CI]" in out and "IMPs vs best" in out
    assert "matchpoints" in out and "best: " in out
    assert "hidden hands of N, E dealt to make their calls so far" in out


def _natural_call(hand, calls, dealer):
    """What natural calls with ``hand`` after ``calls`` (from ``dealer``), from a full
    replay (strategies/bridge_natural/)."""
    from sim.games.bridge import obs as O
    from strategies import bridge_natural as NAT
    o = np.zeros(O.SIZE, dtype=np.int64)
    o[O.DEALER], o[O.LAST_BIDDER] = dealer, -1
    for k, c in enumerate(calls):
        o[O.CALLS + k] = c
        if c >= C.FIRST_BID:
            o[O.LAST_BID], o[O.LAST_BIDDER], o[O.DOUBLED] = c, (dealer + k) % 4, 0
        elif c != C.PASS:
            o[O.DOUBLED] = c
    seat = (dealer + len(calls)) % 4
    o[O.SEAT], o[O.HAND], o[O.N_CALLS] = seat, hand, len(calls)
    o[O.LEGAL] = C.legal_mask(o[O.LAST_BID], o[O.LAST_BIDDER], o[O.DOUBLED], seat)
    params = np.array([q.default for q in NAT.NATURAL_PARAMS])
    return int(NAT.natural_call(o, params, np.zeros(NAT.MEMO_SIZE, dtype=np.int64)))


def test_the_calls_condition_the_hidden_hands():
    """After 1H (North, natural) and a pass (East, natural), every rollout deals North a
    hand that natural opens 1H and East one that passes over it; infer=no does not."""
    pol, _ = _policies(None)
    ids, params = RO._policy_arrays(pol)
    s = parse(make(), RESPONSE)
    assert RO.calls_tell(s, ids) == [0, 1] and s.to_json()["infer"] is True
    hands = RO.deal_rollouts(s, 4, 0, 200, ids, params)
    assert (hands[:, 2] == s.hand).all()
    for h in hands:
        assert _natural_call(h[0], [], 0) == C.parse_call("1H")
        assert _natural_call(h[1], s.calls[:1], 0) == C.PASS
    free = parse(make(), {**RESPONSE, "infer": "no"})
    assert RO.calls_tell(free, ids) == []
    plain = RO.deal_rollouts(free, 4, 0, 200, ids, params)
    opens = [_natural_call(h[0], [], 0) == C.parse_call("1H") for h in plain]
    assert 0 < sum(opens) < 100      # unconditioned, North seldom opens 1H
    # a rollout whose plain deal already makes the calls keeps it (attempt 0)
    same = [i for i in range(200) if opens[i]
            and _natural_call(plain[i, 1], s.calls[:1], 0) == C.PASS]
    assert same and all((hands[i] == plain[i]).all() for i in same)


def test_only_natural_seats_without_known_hands_are_conditioned():
    pol, _ = _policies(["all=natural", "1=random", "3=pass"])
    ids, _ = RO._policy_arrays(pol)
    assert RO.calls_tell(parse(make(), RESPONSE), ids) == [0]       # E plays random
    s = parse(make(), {"hand": f"S={HAND}", "board": "4", "calls": "P,1S,P"})
    assert RO.calls_tell(s, ids) == [0]           # W (the dealer) plays pass
    known = parse(make(), {**RESPONSE, "known": "N=AJ6.KQT98.AKJ.54"})
    assert RO.calls_tell(known, _policies(None)[0]["bid"][0]) == [1]


def test_calls_the_strategies_never_make_fail_fast_with_a_way_out():
    """North opening 7NT never comes out of natural: the first rollout gives up (not all
    of them), and the message says how to go on."""
    pol, labels = _policies(None)
    s = parse(make(), {"hand": f"S={HAND}", "board": "1", "calls": "7N,P"})
    with pytest.raises(BidlabError, match=r"N, E make the calls so far .* set infer=no"):
        RO.deal_rollouts(s, 1, 0, 50, *RO._policy_arrays(pol))
    with pytest.raises(BidlabError, match="situation infer='maybe': expected yes or no"):
        parse(make(), {**RESPONSE, "infer": "maybe"})


def test_solve_limit_counts_all_batches():
    DD.set_solve_limit(2)
    with pytest.raises(BidlabError, match="boards need solving but the solve limit is 2"):
        bid_ev("bridge", RESPONSE, rollouts=10)


# -- an obvious case, live solver -------------------------------------------------------

@pytest.mark.slow
def test_a_huge_hand_opposite_known_values_bids_game():
    """South, fourth in hand after three passes, holds 26 HCP opposite a passed partner
    with 8-11: four spades beats passing it out (+620 vulnerable nearly every time)."""
    DD.set_solve_limit(None)
    situation = {"hand": "S=AKQJ5.AKQ.A2.K32", "board": "4", "calls": "P,P,P",
                 "hcp": "N=8-11"}
    assert BOARD_VUL[3] == 3
    r = bid_ev("bridge", situation, rollouts=60, seed=2, candidates=["P,4S"],
               strategies=["all=pass"])
    f = r.frame.set_index("action")
    assert r.best == "4S" and f.loc["pass", "diff_ci_high"] < 0 and f.loc["4S", "mean"] > 500


def test_an_illegal_call_in_a_rollout_names_rollout_candidate_and_seat(fake_dd):
    """B3, B4: a policy's illegal call in a rollout is an error naming the rollout, the
    candidate, the seat by name and the legal calls (West answers only illegal calls)."""
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    from sim.errors import IllegalActionError
    from strategies.base import ILLEGAL_PID
    seats = seat_strategies("bridge", make(), ["all=natural"])
    pol = policy_arrays("bridge", seats)
    ids, params = pol["bid"]
    cheat = {"bid": (np.where(np.arange(4) == 3, ILLEGAL_PID, ids), params)}
    with pytest.raises(IllegalActionError,
                       match=r"rollout 0, candidate 2H, call 4: bid policy of 'natural' "
                             r"\(seat W\) answered -1, which is illegal; legal: P .* 7N"):
        RO.run_rollouts(make(), cheat, seats.labels, dict(RESPONSE), ["2H", "3H"], 1, 4)
