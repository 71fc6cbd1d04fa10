"""bridge rules B1-B11 in numba against hand-worked figures and the plain-Python
referee: duplicate score (B10), IMPs (B11), call legality (B3, B4), board facts (B1)."""

import itertools

import numpy as np
import pytest

from sim.errors import RuleError
from sim.games.bridge import core as C
from sim.games.bridge import referee as REF
from sim.games.bridge.rules import board_dealer, board_vul, make

# (contract, vulnerable, tricks, declaring side's score): B10's checks first, then
# standard figures of Law 77 worked by hand.
SCORES = [
    ("4S", 0, 10, 420), ("3N", 1, 10, 630), ("1NX", 0, 7, 180), ("2HX", 1, 8, 670),
    ("7NXX", 1, 13, 2980), ("1CXX", 1, 8, 630), ("4SX", 0, 7, -500), ("6HX", 1, 10, -500),
    ("3N", 0, 7, -100),
    ("1C", 0, 7, 70), ("1N", 0, 7, 90), ("2S", 0, 8, 110), ("3N", 0, 9, 400),
    ("3N", 1, 9, 600), ("4H", 1, 10, 620), ("5C", 0, 11, 400), ("5D", 1, 11, 600),
    ("6S", 0, 12, 980), ("6S", 1, 12, 1430), ("7N", 0, 13, 1520), ("7N", 1, 13, 2220),
    ("6N", 0, 12, 990), ("7C", 1, 13, 2140), ("2C", 0, 10, 130), ("1S", 0, 13, 260),
    ("4S", 1, 11, 650), ("3N", 0, 11, 460), ("1H", 0, 6, -50), ("1H", 1, 6, -100),
    ("3N", 1, 6, -300), ("1NX", 0, 6, -100), ("1NX", 0, 5, -300), ("1NX", 0, 4, -500),
    ("1NX", 0, 3, -800), ("2SX", 1, 7, -200), ("2SX", 1, 6, -500), ("3NX", 1, 6, -800),
    ("4HXX", 0, 9, -200), ("4HXX", 1, 8, -1000), ("7NX", 0, 0, -3500),
    ("7NXX", 1, 0, -7600), ("2HX", 0, 8, 470), ("1SX", 0, 8, 260), ("1SX", 1, 8, 360),
    ("2DX", 1, 8, 180), ("5CX", 0, 11, 550), ("3NXX", 0, 9, 800), ("1NXX", 0, 7, 560),
    ("6NX", 1, 12, 1680), ("3H", 1, 8, -100), ("2N", 1, 8, 120), ("4S", 1, 9, -100),
    ("4SX", 0, 6, -800), ("4SX", 0, 5, -1100), ("5DXX", 0, 12, 1000),
]


def _parse(contract):
    level, strain = int(contract[0]), "CDHSN".index(contract[1])
    return level, strain, contract.count("X")


@pytest.mark.parametrize("contract,vul,tricks,expected", SCORES)
def test_duplicate_score_b10(contract, vul, tricks, expected):
    level, strain, doubled = _parse(contract)
    assert C.score(level, strain, doubled, vul, tricks) == expected
    assert REF.duplicate_score(level, "CDHSN"[strain], doubled, bool(vul), tricks) == expected


def test_kernel_score_equals_referee_on_every_case_b10():
    for level, strain, doubled, vul, tricks in itertools.product(
            range(1, 8), range(5), range(3), range(2), range(14)):
        assert C.score(level, strain, doubled, vul, tricks) == REF.duplicate_score(
            level, "CDHSN"[strain], doubled, bool(vul), tricks), (level, strain, doubled,
                                                                  vul, tricks)


@pytest.mark.parametrize("diff,expected", [
    (0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (80, 2), (90, 3), (120, 3), (130, 4),
    (160, 4), (170, 5), (210, 5), (220, 6), (260, 6), (270, 7), (310, 7), (320, 8),
    (360, 8), (370, 9), (420, 9), (430, 10), (490, 10), (500, 11), (590, 11), (600, 12),
    (740, 12), (750, 13), (890, 13), (900, 14), (1090, 14), (1100, 15), (1290, 15),
    (1300, 16), (1490, 16), (1500, 17), (1740, 17), (1750, 18), (1990, 18), (2000, 19),
    (2240, 19), (2250, 20), (2490, 20), (2500, 21), (2990, 21), (3000, 22), (3490, 22),
    (3500, 23), (3990, 23), (4000, 24), (7600, 24), (-20, -1), (-4000, -24), (-590, -11)])
def test_imp_table_edges_b11(diff, expected):
    assert C.imps(diff) == expected
    assert REF.imps(diff) == expected


def test_imps_vectorised_equal_scalar_b11():
    from sim.games.bridge.engine import imps_vec
    diffs = np.arange(-5000, 5001, 10)
    assert imps_vec(diffs).tolist() == [C.imps(int(d)) for d in diffs]


def test_call_codes_b3():
    texts = [C.call_text(c) for c in range(C.N_CALLS)]
    assert texts[:4] == ["P", "X", "XX", "1C"] and texts[-1] == "7N" and len(set(texts)) == 38
    assert all(C.parse_call(t) == c for c, t in enumerate(texts))
    assert C.parse_call("3NT") == C.bid_code(3, 4)
    with pytest.raises(ValueError):
        C.parse_call("8C")


def test_call_legality_b3_b4():
    b1h = C.bid_code(1, 2)
    # no bid yet: pass and every bid; no double or redouble
    m = C.legal_mask(0, -1, 0, 0)
    assert m == sum(1 << c for c in range(C.N_CALLS) if c not in (1, 2))
    # 1H by seat 0: seat 1 (opponent) may double, seat 2 (partner) may not
    assert C.is_legal(C.DOUBLE, b1h, 0, 0, 1)
    assert not C.is_legal(C.DOUBLE, b1h, 0, 0, 2)
    assert not C.is_legal(C.REDOUBLE, b1h, 0, 0, 1)
    # bids must be higher (B3)
    assert not C.is_legal(b1h, b1h, 0, 0, 1)
    assert not C.is_legal(C.bid_code(1, 0), b1h, 0, 0, 1)
    assert C.is_legal(C.bid_code(1, 3), b1h, 0, 0, 1)
    # doubled by seat 1: seat 0 or 2 may redouble, seat 3 may not; no second double
    assert C.is_legal(C.REDOUBLE, b1h, 0, 1, 2)
    assert C.is_legal(C.REDOUBLE, b1h, 0, 1, 0)
    assert not C.is_legal(C.REDOUBLE, b1h, 0, 1, 3)
    assert not C.is_legal(C.DOUBLE, b1h, 0, 1, 3)
    # redoubled: neither again
    assert not C.is_legal(C.REDOUBLE, b1h, 0, 2, 0)
    assert not C.is_legal(C.DOUBLE, b1h, 0, 2, 1)
    # is_legal agrees with legal_mask everywhere
    for last in [0, 3, 17, 37]:
        for dbl in range(3):
            for bidder in range(4):
                for seat in range(4):
                    mask = C.legal_mask(last, bidder if last else -1, dbl if last else 0, seat)
                    for c in range(-1, C.N_CALLS + 1):
                        ok = C.is_legal(c, last, bidder if last else -1, dbl if last else 0,
                                        seat)
                        assert ok == (0 <= c < C.N_CALLS and bool(mask >> c & 1))


def test_declarer_is_first_of_side_to_bid_strain_b7():
    # N 1H, E P, S 2H, W P, N 4H: North declares (he bid hearts first)
    assert REF.auction_result(0, "1H P 2H P 4H P P P".split())[2] == 0
    # N 1C, S 1H, N 2H, S 4H: South declares
    assert REF.auction_result(0, "1C P 1H P 2H P 4H P P P".split())[2] == 2
    # E deals: E 1S, S X, W XX, N P, E P, S P: 1SXX by East
    r = REF.auction_result(1, "1S X XX P P P".split())
    assert r[0][:2] == (1, 3) and r[1] == 2 and r[2] == 1
    assert REF.auction_result(3, "P P P P".split()) is None
    with pytest.raises(REF.RefereeError, match="B4"):
        REF.auction_result(0, "1H P X".split())
    with pytest.raises(REF.RefereeError, match="B3"):
        REF.auction_result(0, "1H 1D".split())


def test_board_dealer_and_vulnerability_b1():
    r = make()
    dealers = [board_dealer(i) for i in range(16)]
    assert dealers == [0, 1, 2, 3] * 4
    names = ["None", "NS", "EW", "Both"]
    vul = {b + 1: names[board_vul(r, b)] for b in range(16)}
    assert [b for b in vul if vul[b] == "None"] == [1, 8, 11, 14]
    assert [b for b in vul if vul[b] == "NS"] == [2, 5, 12, 15]
    assert [b for b in vul if vul[b] == "EW"] == [3, 6, 9, 16]
    assert [b for b in vul if vul[b] == "Both"] == [4, 7, 10, 13]
    assert board_vul(make({"vulnerability": "ew"}), 0) == 2
    for b in range(1, 17):
        assert REF.board_facts(b, "board") == (dealers[b - 1], vul[b])


def test_rule_keys_reject_bad_values():
    with pytest.raises(RuleError, match="vulnerability"):
        make({"vulnerability": "sometimes"})
    with pytest.raises(RuleError, match="unknown bridge rule key"):
        make({"players": 3})
