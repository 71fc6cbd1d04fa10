"""bridge players' tools: constrained dealing, PBN import/export."""

import numpy as np
import pytest

from sim.errors import BidlabError
from sim.games.bridge import core as C
from sim.games.bridge import engine as E
from sim.games.bridge.deal import Constraints, deal
from sim.games.bridge.pbn import format_deal, format_hand, parse_deal, parse_hand, read_pbn, write_pbn


def test_fixed_hand_and_constraints_hold():
    c = Constraints.parse(hands=["N=AKQ52.K3.742.Q87"], hcp=["S=10-12"],
                          shape=["E=S0-1,H5-"])
    hands = deal(c, 3, 0, 500)
    north = parse_hand("AKQ52.K3.742.Q87")
    assert (hands[:, 0] == north).all()
    for h in hands:
        assert np.bitwise_or.reduce(h) == (1 << 52) - 1
        assert sum(bin(int(x)).count("1") for x in h) == 52
        assert 10 <= C.hcp(h[2]) <= 12
        assert C.suit_length(h[1], 3) <= 1 and C.suit_length(h[1], 2) >= 5
    # reproducible and chunk-independent
    assert (deal(c, 3, 100, 50) == hands[100:150]).all()


def test_hcp_constraint_distribution():
    hands = deal(Constraints.parse(hcp=["N=20-"]), 1, 0, 2000)
    h = np.array([C.hcp(x) for x in hands[:, 0]])
    assert h.min() >= 20 and h.mean() < 23


def test_impossible_constraints_fail_clearly():
    # totals no deal can meet are refused at once, named, before any search
    with pytest.raises(BidlabError, match="least HCP add up to 50, more than the deck's 40"):
        deal(Constraints.parse(hcp=["N=25-", "E=25-"]), 1, 0, 1)
    with pytest.raises(BidlabError, match="most HCP add up to 12, fewer"):
        deal(Constraints.parse(hcp=["N=-3", "E=-3", "S=-3", "W=-3"]), 1, 0, 1)
    with pytest.raises(BidlabError, match="N's suit lengths add up to 14..52 cards"):
        deal(Constraints.parse(shape=["N=S7-,H7-"]), 1, 0, 1)
    with pytest.raises(BidlabError, match="four hands' S lengths add up to 16..52"):
        deal(Constraints.parse(shape=["N=S8-", "S=S8-"]), 1, 0, 1)
    with pytest.raises(BidlabError, match="N's hand has 5 S, outside --shape S6-13"):
        deal(Constraints.parse(hands=["N=AKQ52.K3.742.Q87"], shape=["N=S6-"]), 1, 0, 1)
    # possible by the totals but vanishingly rare (37 points in N, the other 3 in S):
    # the search gives up and says so
    with pytest.raises(BidlabError, match="attempts"):
        deal(Constraints.parse(hcp=["N=37-", "S=3-"]), 1, 0, 1, max_tries=1000)
    with pytest.raises(BidlabError, match="SEAT"):
        Constraints.parse(hcp=["X=3-"])
    with pytest.raises(BidlabError, match="13 cards"):
        Constraints.parse(hands=["N=AKQ.K3.742.Q8"]).matrix()


def test_pbn_round_trip(tmp_path):
    hands = E.deal(5, 0, 20)
    for h in hands:
        assert (parse_deal(format_deal(h)) == h).all()
        assert parse_hand(format_hand(h[1])) == h[1]
    assert (parse_deal("E:" + " ".join(format_hand(hands[0][(1 + k) % 4]) for k in range(4)))
            == hands[0]).all()
    boards = [{"board": i + 1, "dealer": i % 4, "vulnerability": "NS", "hands": hands[i],
               "auction": ["1S", "P", "4S", "P", "P", "P"], "contract": "4S", "declarer": 0,
               "tricks": 10, "score_ns": 620, "par_ns": 620} for i in range(3)]
    path = tmp_path / "x.pbn"
    write_pbn(path, boards)
    back = read_pbn(path)
    assert [b["board"] for b in back] == [1, 2, 3]
    assert all((b["hands"] == hands[i]).all() for i, b in enumerate(back))
    assert back[1]["dealer"] == 1 and back[0]["vulnerability"] == "NS"
    with pytest.raises(BidlabError):
        parse_deal("N:AKQ52.K3.742.Q87 AKQ52.K3.742.Q87 x y")


def test_cli_bridge_deal_writes_pbn(tmp_path, capsys):
    from bidlab.cli import main
    path = tmp_path / "d.pbn"
    assert main(["bridge", "deal", "--hand", "N=AKQ52.K3.742.Q87", "--hcp", "S=10-12", "-n",
                 "4", "--pbn", str(path)]) == 0
    boards = read_pbn(path)
    assert len(boards) == 4 and all(b["hands"][0] == parse_hand("AKQ52.K3.742.Q87")
                                    for b in boards)
    assert main(["bridge", "deal", "--hcp", "Q=3"]) == 2


def test_cli_help_defaults_come_from_the_games(capsys):
    """The help's defaults are the ones the commands use: bridge's tools from
    analysis.bridge and bridge's default strategy, -n and --rollouts from each Game."""
    from analysis.bridge import DEFAULT_BOARDS
    from bidlab.cli import main
    from sim.game import Game
    from sim.games import get_game
    from strategies import for_game

    def help_of(*argv):
        with pytest.raises(SystemExit):
            main([*argv, "--help"])
        return " ".join(capsys.readouterr().out.split())

    bridge = get_game("bridge")
    text = help_of("bridge", "team")          # each tool has its own --help
    assert f"boards (default {DEFAULT_BOARDS}," in text
    assert f"team A's strategy (default {for_game('bridge').default})" in text
    text = help_of("simulate")
    assert f"number of matches (default: {Game.default_n};" in text
    assert f"; bridge {bridge.default_n}" in text
    text = help_of("bid-ev")
    assert f"rollouts per candidate (default: {Game.bidev_rollouts};" in text
    assert f"; bridge {bridge.bidev_rollouts}" in text


def test_natural_sees_only_its_own_hand_and_the_calls_b8():
    """North deals on boards 0, 4, 8, ...: re-dealing the other three hands never changes
    North's first call; and the policy's observation holds only the asker's hand."""
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    from sim.games.bridge import kernel as K
    from sim.games.bridge.rules import make
    seats = seat_strategies("bridge", make(), ["all=natural"])
    pol = policy_arrays("bridge", seats)
    idx = np.arange(0, 2000, 4)
    a = E.deal(9, 0, 2000)[idx]
    b = a.copy()
    rng = np.random.default_rng(0)
    for m in range(len(b)):                   # shuffle E, S, W cards among themselves
        rest = [c for c in range(52) if not (int(b[m, 0]) >> c) & 1]
        rng.shuffle(rest)
        for s in range(1, 4):
            b[m, s] = sum(1 << c for c in rest[13 * (s - 1):13 * s])
    starts = [int(i) for i in idx]
    first_a = [E.auctions(make(), pol, seats.labels, 9, i, a[k:k + 1], log=True)[1][0, 0]
               for k, i in enumerate(starts[:100])]
    first_b = [E.auctions(make(), pol, seats.labels, 9, i, b[k:k + 1], log=True)[1][0, 0]
               for k, i in enumerate(starts[:100])]
    assert first_a == first_b
    assert K.BOARD_COLS > 0
