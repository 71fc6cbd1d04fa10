"""Invariants over many aukcio matches from the kernel (``rules/aukcio.md``), under
several rule sets and strategy mixes: the tables add up (money cards and face cards are
conserved), turners, sitting out, payments and the end of a match follow K5-K14, and
the independent referee accepts the traces of the same matches."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from sim.errors import RuleError
from sim.games import get_game
from sim.games.aukcio import core as C
from sim.games.aukcio import kernel as K
from sim.games.aukcio import obs as O
from sim.games.aukcio.core import completing_set, kind_bits
from sim.games.aukcio.referee import replay

GAME = get_game("aukcio")
STRATEGIES = strategies.for_game("aukcio")
COUNT = 400

CASES = {
    "default": ({}, None),
    "mixed": ({}, ["0=random:p_bid=0.6,max_jump=8", "1=setvalue", "2=passive"]),
    "four-two-decks": ({"players": 4, "first_dealer": 3}, ["0=random", "2=setvalue:block=0"]),
    "single-bottom": ({"bidding": "single", "unsold": "bottom"},
                      ["0=random:p_bid=0.4", "1=setvalue:shade=0.5", "2=setvalue"]),
    "lean": ({"players": 5, "hand_size": 2, "buyer_draw": 0, "ace_draw": 3,
              "jokers_per_payment": 3}, ["all=random:p_bid=0.7,max_jump=2"]),
    "six-one-deck": ({"players": 6, "decks": 1, "hand_size": 6}, None),
}


def packed(overrides, specs):
    rules = GAME.make_rules(overrides)
    sa = strategies.assign_seats(STRATEGIES, rules.players, specs)
    return rules, sa, {"bid": (sa.ids("bid"), sa.params("bid"))}


def frame(columns) -> pd.DataFrame:
    return pd.DataFrame({k: np.ma.filled(np.ma.asarray(v).astype(float), np.nan)
                         for k, v in columns.items()})


@pytest.fixture(scope="module", params=list(CASES))
def chunk(request):
    rules, sa, pol = packed(*CASES[request.param])
    tables = GAME.run_chunk(rules, pol, sa.labels, 7, 100, COUNT, detail=True)
    return rules, sa, pol, {name: frame(t) for name, t in tables.items()}


def test_k4_k9_k10_k12_money_cards_are_conserved(chunk):
    rules, _, _, t = chunk
    seats = t["seats"].groupby("match").sum()
    # hands hold what was dealt, plus what was drawn, minus what was paid
    assert (seats["cards_left"] == rules.players * rules.hand_size + seats["cards_drawn"]
            - seats["cards_paid"]).all()
    assert (seats["cards_left"] <= 39 * rules.decks).all()


def test_k9_k13_k14_one_winner_with_a_set_or_a_draw(chunk):
    rules, _, _, t = chunk
    seats, matches = t["seats"], t["matches"]
    wins = seats.groupby("match")["win"].sum()
    assert wins.isin([0, 1]).all()
    winners = seats[seats["win"] == 1]
    assert (winners["face_cards"] >= 3).all() and winners["set_kind"].notna().all()
    assert seats[seats["win"] == 0]["set_kind"].isna().all()
    assert ((matches["winner"].isna()) == matches["draw"].astype(bool)).all()
    # face cards bought = sales; never more than the auction deck holds
    bought = seats.groupby("match")["face_cards"].sum()
    assert (bought.to_numpy() == matches["sales"].to_numpy()).all()
    assert (bought <= 16 * rules.decks).all()


def test_k5_k9_turners_rotate_and_the_last_buyer_sits_out(chunk):
    rules, _, _, t = chunk
    lots = t["lots"]
    n = rules.players
    assert (lots["turner"] == (rules.first_dealer + 1 + lots["lot"]) % n).all()
    previous = lots.groupby("match")["buyer"].shift(1)
    first = lots["lot"] == 0
    assert lots.loc[first, "sitting_out"].isna().all()
    later = lots[~first]
    assert ((later["sitting_out"].fillna(-1) == previous[~first].fillna(-1))).all()
    assert (lots["buyer"] != lots["sitting_out"]).all()


def test_k6_k8_prices_payments_and_overpayment(chunk):
    _, _, _, t = chunk
    sold = t["lots"].dropna(subset=["price"])
    assert (sold["price"] >= 1).all() and (sold["price"] <= sold["buyer_money"]).all()
    # least overpayment: never a whole card too much (a doubled ten is worth 20)
    assert (sold["overpaid"] >= 0).all() and (sold["overpaid"] < 20).all()
    assert (sold["cards_paid"] >= 1).all()
    seats = t["seats"]
    assert (seats["money_spent"] - seats["overpaid"] >= 0).all()


def test_k11_k14_the_match_ends_at_the_set_or_the_end_of_the_deck(chunk):
    rules, _, _, t = chunk
    lots, matches = t["lots"], t["matches"]
    last = lots.groupby("match")["lot"].transform("max") == lots["lot"]
    completed = lots["completed"].fillna(0).astype(bool)
    assert not (completed & ~last).any()             # nothing is played after a set
    ended = lots[last].set_index("match")
    won = matches.set_index("match")["winner"].notna()
    assert (ended["completed"].fillna(0).astype(bool) == won).all()
    if rules.unsold == "discard":
        assert (matches["lots"] <= 16 * rules.decks).all()
    assert (lots.groupby("match").size().to_numpy() == matches["lots"].to_numpy()).all()


def test_k7_single_bidding_each_eligible_player_speaks_once(chunk):
    rules, _, _, t = chunk
    if rules.bidding != "single":
        pytest.skip("open bidding")
    lots = t["lots"]
    eligible = rules.players - lots["sitting_out"].notna()
    assert (lots["calls"] == eligible).all()


def test_traces_of_the_same_matches_replay_and_agree_with_the_tables(chunk):
    rules, sa, pol, t = chunk
    seats = t["seats"]
    for index in (100, 101, 250, 499):
        trace = GAME.trace(rules, pol, sa.labels, 7, index)
        result = replay(trace)
        row = seats[seats["match"] == index].sort_values("seat")
        assert result.scores == row["score"].tolist()
        assert len(trace["lots"]) == int(t["matches"].set_index("match").loc[index, "lots"])


def test_k13_sets_and_two_decks():
    kind = {f"{r}{s}": s_i * 4 + r_i for s_i, s in enumerate("CDHS") for r_i, r in enumerate("JQKA")}

    def completes(cards, card):
        return completing_set(kind_bits(kind[c] for c in cards), kind[card]) >= 0

    assert completes(["AH", "AC"], "AD")                  # three aces, three suits
    assert not completes(["AH", "AH"], "AC")              # duplicates do not count twice
    assert not completes(["AH", "AC"], "AH")
    assert completes(["JS", "QS"], "KS") and completes(["KS", "AS"], "QS")
    assert not completes(["JS", "QS"], "AS")              # J-Q-A is no run
    assert not completes(["JS", "QH"], "KS")              # a run is of one suit


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), st.integers(0, 15))
def test_k13_progress_counts_the_open_sets_of_a_card(mine, in_deck, kind):
    """The looked-up progress of ``strategies.aukcio`` against a plain count over
    ``core.SETS``: a set through ``kind`` is open when each of its other kinds is owned
    or still in the auction deck, and counts by how many of them are owned."""
    counts = [0, 0, 0]                                   # done, two of three, started
    for members in C.SETS:
        others = [int(k) for k in members if k != kind]
        if len(others) == 2 and all((mine | in_deck) >> k & 1 for k in others):
            counts[2 - sum(mine >> k & 1 for k in others)] += 1
    assert tuple(int(x) for x in strategies.aukcio.progress(mine, in_deck, kind)) == tuple(counts)


def test_k4_a_deal_larger_than_the_money_deck_is_an_error_naming_the_keys():
    with pytest.raises(RuleError) as e:
        GAME.make_rules({"players": 6, "decks": 1, "hand_size": 7})
    assert all(k in str(e.value) for k in ("players=6", "hand_size=7", "decks=1", "K4"))
    GAME.make_rules({"players": 6, "decks": 1, "hand_size": 6})   # 36 of 39: fine


def test_k1_default_decks_follow_the_players():
    assert GAME.make_rules({"players": 3}).decks == 1
    assert all(GAME.make_rules({"players": n}).decks == 2 for n in (4, 5, 6))


def test_passive_players_buy_nothing_and_draw():
    rules, sa, pol = packed({}, ["all=passive"])
    t = GAME.run_chunk(rules, pol, sa.labels, 1, 0, 50, detail=True)
    assert not t["seats"]["win"].any() and t["matches"]["draw"].all()
    assert (t["matches"]["lots"] == 16).all() and (t["matches"]["sales"] == 0).all()


def test_given_decks_play_the_dealt_match_and_bad_decks_are_refused():
    from sim.errors import BidlabError
    from sim.games.aukcio.engine import dealt

    rules, sa, pol = packed({"players": 4}, ["0=random", "1=setvalue:block=0"])
    decks = dealt(rules, 5, 10, 30)
    a = GAME.run_chunk(rules, pol, sa.labels, 5, 10, 30, detail=True)
    b = GAME.run_chunk(rules, pol, sa.labels, 5, 10, 30, detail=True, deals=decks)
    for name in a:
        for col in a[name]:
            assert np.array_equal(np.ma.getdata(a[name][col]), np.ma.getdata(b[name][col]))
    assert GAME.trace(rules, pol, sa.labels, 5, 12) == GAME.trace(rules, pol, sa.labels, 5, 12,
                                                                 deals=decks[2:3])
    bad = decks.copy()
    bad[3, 0] = bad[3, 40]                        # a number card in the auction deck
    with pytest.raises(BidlabError, match="row 3"):
        GAME.run_chunk(rules, pol, sa.labels, 5, 10, 30, deals=bad)
    with pytest.raises(BidlabError, match="30 rows"):
        GAME.run_chunk(rules, pol, sa.labels, 5, 10, 30, deals=decks[:5])


def open_bidding_turn_by_turn(caps, in_lot, s, high, bidder):
    """K6, K7 open bidding between seats that bid the smallest legal bid while it is
    within their ceiling (``caps``, their money included), one turn at a time."""
    n, in_lot, calls = len(caps), list(in_lot), 0
    while True:
        if in_lot[s]:
            calls += 1
            if high >= caps[s]:
                in_lot[s] = False
            else:
                high, bidder = high + 1, s
            left = sum(in_lot)
            if left == 0 or (left == 1 and bidder >= 0 and in_lot[bidder]):
                return bidder, high, calls, in_lot
        s = (s + 1) % n


@st.composite
def open_lots(draw):
    n = draw(st.integers(3, 6))
    in_lot = draw(st.lists(st.booleans(), min_size=n, max_size=n).filter(any))
    caps = draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
    most = draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
    s = draw(st.sampled_from([t for t in range(n) if in_lot[t]]))
    fresh = draw(st.booleans())
    high = 0 if fresh else draw(st.integers(0, 40))
    bidder = -1 if fresh else draw(st.sampled_from([-1] + [t for t in range(n) if in_lot[t]]))
    return caps, most, in_lot, s, high, bidder


@settings(max_examples=400, deadline=None)
@given(open_lots())
def test_k6_k7_open_bidding_between_ceilings_is_played_a_pass_at_a_time(lot):
    """The kernel plays an open lot between ceiling policies a pass at a time
    (``_ceiling_bidding``); it ends as the same lot played turn by turn."""
    caps, most, in_lot, s, high, bidder = lot
    n = len(caps)
    o = np.zeros(O.SIZE)
    o[O.IN_LOT:O.IN_LOT + n] = in_lot
    h = np.zeros((n, O.HAND_LEN))
    h[:, O.HAND_MOST] = most
    got = K._ceiling_bidding(n, o, np.array(caps, np.int64), h, s, high, bidder, 0)
    want = open_bidding_turn_by_turn([min(c, m) for c, m in zip(caps, most)], in_lot, s,
                                     high, bidder)
    assert tuple(int(x) for x in got) == want[:3]
    assert (o[O.IN_LOT:O.IN_LOT + n] > 0).tolist() == want[3]
