"""The vybory referee (``sim/games/vybory/referee.py``, rules V1-V13): it accepts the
engine's traces under many rule sets and strategy mixes and agrees with the seats table,
gets hand-worked known answers right, and rejects each kind of tampering with a message
naming the deal, the announcement or trick and the rule."""

from __future__ import annotations

import ast
import copy
import re
from pathlib import Path

import pytest

from analysis.runs import policy_arrays
from analysis.runs import trace as run_trace
from analysis.spec import make_rules, seat_strategies
from sim.errors import RefereeError
from sim.games import get_game
from sim.games.vybory import referee as R
from sim.games.vybory.referee import card_points, contract_type, pair_points, replay, trick_winner

GAME = get_game("vybory")
RANKS = "23456789TJQKA"
SEED = 11


def rejects(trace: dict, pattern: str) -> str:
    with pytest.raises(RefereeError) as err:
        replay(trace)
    assert re.search(pattern, str(err.value)), str(err.value)
    return str(err.value)


def held_before(deal: dict, seat: int, t: int) -> list[str]:
    """Seat's cards before trick ``t`` of ``deal``."""
    played = {c for trick in deal["tricks"][:t] for s, c in trick["cards"] if s == seat}
    return [c for c in deal["hands"][seat] if c not in played]


# -- real traces: the engine, the referee and the seats table agree ------------------------

CASES = {
    "default-random": ({}, ["all=random+random"]),
    "alt-basic": ({"type_set": "alt"}, ["all=expected+greedy"]),
    "result-dealer2-mixed": ({"scoring": "result", "first_dealer": 2, "deals_per_match": 4},
                             ["all=random+random", "0=matcher+pimc:samples=4", "3=expected+greedy"]),
    "alt-result-dealer3": ({"type_set": "alt", "scoring": "result", "first_dealer": 3,
                            "deals_per_match": 3}, ["all=matcher+greedy", "1=random+random"]),
    "one-deal-dealer1": ({"deals_per_match": 1, "first_dealer": 1}, ["all=expected+random"]),
    "long-tour": ({"deals_per_match": 20, "type_set": "alt"}, ["all=random+greedy"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_v1_v13_engine_traces_replay_and_agree_with_the_seats_table(case):
    """V1-V13 over real traces: every trace the engine writes is accepted, and the
    referee's scores and winners are the seats table's score and win share."""
    overrides, specs = CASES[case]
    rules = make_rules("vybory", overrides)
    seats = seat_strategies("vybory", rules, specs)
    count = 4
    table = GAME.run_chunk(rules, policy_arrays("vybory", seats), seats.labels, SEED, 0,
                           count)["seats"]
    for index in range(count):
        t = run_trace("vybory", seed=SEED, index=index, rules=overrides, strategies=specs)
        got = replay(t)
        rows = [i for i in range(len(table["match"])) if table["match"][i] == index]
        assert [int(table["seat"][i]) for i in rows] == [0, 1, 2, 3]
        assert got.scores == [float(table["score"][i]) for i in rows], (case, index)
        share = [float(table["win"][i]) for i in rows]
        assert got.winners == [s for s in range(4) if share[s] > 0]
        assert all(share[s] == pytest.approx(1 / len(got.winners)) for s in got.winners)
        n = rules.deals_per_match
        assert got.details["deals"] == n and got.details["cards"] == 52 * n
        assert got.details["calls"] == sum(len(d["announcements"]) for d in t["deals"])
        assert got.actions == got.details["calls"] + got.details["cards"]
        assert sum(got.details["results"].values()) == n


@pytest.fixture(scope="module")
def pool() -> list[dict]:
    """Random-play tours of both type sets, 64 deals each: enough deals to find every
    case below (nine-announcement elections included)."""
    out = []
    for type_set in ("standard", "alt"):
        for index in range(4):
            out.append(run_trace("vybory", seed=SEED, index=index,
                                 rules={"type_set": type_set, "deals_per_match": 64},
                                 strategies=["all=random+random"]))
    for t in out:
        replay(t)
    return out


@pytest.fixture(scope="module")
def tour() -> dict:
    """A tour under the default rules (8 deals, standard, points)."""
    return run_trace("vybory", seed=SEED, index=0, strategies=["all=random+random"])


def find(pool: list[dict], ok) -> tuple[dict, int]:
    """A copy of the first trace with a deal ``d`` where ``ok(deal, rules)``."""
    for t in pool:
        for d, deal in enumerate(t["deals"]):
            if ok(deal, t["rules"]):
                return copy.deepcopy(t), d
    raise AssertionError("no such deal in the pool")


@pytest.fixture
def trace(tour) -> dict:
    return copy.deepcopy(tour)


def test_v4_nine_announcement_elections_replay(pool):
    """V4: the longest election (two rounds of distinct types, then a match on the first
    call of round 3) is accepted; every election holds at most nine announcements."""
    lengths = {len(d["announcements"]) for t in pool for d in t["deals"]}
    assert max(lengths) <= 9 and min(lengths) >= 2
    t, d = find(pool, lambda deal, r: len(deal["announcements"]) == 9)
    replay(t)


# -- hand-worked known answers -------------------------------------------------------------

def test_v10_pair_points_known_answers():
    """V10 by hand, for the cards TC JC TS JD (trick 1) and 2C AH 5S 9D (trick 2) won in
    two tricks: a club ten or jack under tens_jacks_no_clubs is +5 - 2 = +3."""
    won = ["TC", "JC", "TS", "JD", "2C", "AH", "5S", "9D"]
    std = {"most_tricks": 0, "no_tricks": -4, "club_tricks": 4, "lowest_wins": 3,
           "spades_in_hearts": 4, "red_black": 3 - 5, "tens_jacks": 5 + 5 + 5 - 5,
           "no_clubs": -6}
    alt = {"red_cards": 3, "black_cards": -5, "tens_jacks_no_clubs": 3 + 3 + 5 - 5 - 2}
    for name, want in std.items():
        assert pair_points(contract_type("standard", name), won, 2) == want, name
    for name, want in alt.items():
        assert pair_points(contract_type("alt", name), won, 2) == want, name
    tjnc = contract_type("alt", "tens_jacks_no_clubs")
    assert [card_points(tjnc, c) for c in ("TC", "JC", "TS", "JS", "TH", "JD", "2C", "AD")] == \
        [3, 3, 5, 5, -5, -5, -2, 0]
    most = contract_type("standard", "most_tricks")
    assert [pair_points(most, [], k) for k in (6, 7, 13, 0)] == [0, 12, 12, 0]
    # the two pairs' red_black points add to 26 red - 26 black = 0
    deck = [r + s for s in "CDHS" for r in RANKS]
    rb = contract_type("standard", "red_black")
    assert pair_points(rb, deck[:20], 5) + pair_points(rb, deck[20:], 8) == 0


def test_contract_types_trumps_and_order_from_the_rules_file():
    """Contract types: the trump and the order of every type of both type sets."""
    want = {"most_tricks": None, "no_tricks": None, "club_tricks": "C", "lowest_wins": "C",
            "spades_in_hearts": "H", "red_black": "D", "tens_jacks": "S", "no_clubs": "S",
            "red_cards": "D", "black_cards": "D", "tens_jacks_no_clubs": "S"}
    for types in R.TYPE_SETS.values():
        assert len(types) == 8 and len({t.name for t in types}) == 8
        for t in types:
            assert t.trump == want[t.name] and t.lowest_wins == (t.name == "lowest_wins")
    assert [t.name for t in R.TYPE_SETS["alt"][:5]] == [t.name for t in R.TYPE_SETS["standard"][:5]]


@pytest.mark.parametrize("cards, trump, low, want", [
    (["2H", "AH", "3C", "KH"], "C", False, 2),   # V8: the only trump
    (["2H", "AH", "3C", "KH"], "C", True, 2),    # V9: the only trump, however low it is
    (["5C", "2C", "AH", "9C"], "C", False, 3),   # V8: the highest trump
    (["5C", "2C", "AH", "9C"], "C", True, 1),    # V9: the lowest trump
    (["KD", "3D", "2S", "7D"], "C", True, 1),    # V9: no trump: lowest of the suit led, not 2S
    (["KD", "3D", "2S", "7D"], "C", False, 0),   # V8: no trump: highest of the suit led
    (["TH", "QH", "AS", "2H"], None, False, 1),  # V8: no trumps at all: AS is a discard
    (["TH", "QH", "2S", "AS"], "S", False, 3),   # V8: the highest of two trumps
])
def test_v8_v9_trick_winner_known_answers(cards, trump, low, want):
    assert trick_winner(cards, trump, low) == want


def one_suit_deal(contract: str, other: str, scoring: str = "points") -> dict:
    """A hand-built one-deal tour: seat 0 holds the clubs, 1 the diamonds, 2 the hearts,
    3 the spades. Seat 1 names ``contract``, seat 2 ``other``, seat 3 matches: the
    attackers are [1, 3] and seat 2 leads (V6). Seat 2 leads its hearts in order and
    the others, void, discard theirs in order: the winner of every trick is given."""
    hands = [[r + s for r in RANKS] for s in "CDHS"]
    deal = {"dealer": 0, "hands": hands,
            "announcements": [[1, contract], [2, other], [3, contract]],
            "contract": contract, "attackers": [1, 3], "first_announcer": 1, "tricks": []}
    return {"game": "vybory", "seed": 0, "index": 0, "strategies": ["hand"] * 4,
            "rules": {"type_set": "standard", "first_dealer": 0, "scoring": scoring,
                      "deals_per_match": 1}, "deals": [deal]}


def play_out(t: dict, winner_of) -> dict:
    """Tricks of :func:`one_suit_deal`: the winner of trick ``k`` plays his ``k``-th card
    first (seat 2 leads trick 0), the others theirs in seat order."""
    deal, leader = t["deals"][0], 2
    for k in range(13):
        cards = [[(leader + i) % 4, deal["hands"][(leader + i) % 4][k]] for i in range(4)]
        winner = winner_of(cards)
        deal["tricks"].append({"leader": leader, "cards": cards, "winner": winner})
        leader = winner
    return t


def finish(t: dict, attack: int, defend: int, result: str, deltas: list[int]) -> dict:
    deal = t["deals"][0]
    deal.update(pair_points={"attackers": attack, "defenders": defend}, result=result,
                deal_scores=deltas, scores_after=deltas)
    top = max(deltas)
    t.update(totals=deltas, winners=[s for s in range(4) if deltas[s] == top])
    return t


def test_v6_v8_v10_v12_hand_worked_spades_in_hearts():
    """Hearts trump: seat 2 (a defender) trumps every trick and wins all 13 spades for
    its pair: 26 points to 0, the attackers lose (V8, V10, V11); points scoring gives
    each player his pair's points, result scoring +1/-1 (V12); ties share (V13)."""
    t = finish(play_out(one_suit_deal("spades_in_hearts", "most_tricks"), lambda c: 2),
               0, 26, "loss", [26, 0, 26, 0])
    got = replay(t)
    assert got.scores == [26.0, 0.0, 26.0, 0.0] and got.winners == [0, 2]
    assert got.details == {"deals": 1, "calls": 3, "cards": 52,
                           "results": {"win": 0, "loss": 1, "draw": 0}}
    t = finish(play_out(one_suit_deal("spades_in_hearts", "most_tricks", "result"),
                        lambda c: 2), 0, 26, "loss", [1, -1, 1, -1])
    assert replay(t).scores == [1.0, -1.0, 1.0, -1.0]


def test_v9_v10_hand_worked_lowest_wins_and_most_tricks():
    """lowest_wins (clubs trump): seat 0 ruffs trick 0 with the 2C as the only trump and
    then leads clubs nobody follows: the defenders win all 26 red cards (V9, V10).
    most_tricks (no trump): seat 2 wins every trick with the suit led: +12 (V8, V10)."""
    t = finish(play_out(one_suit_deal("lowest_wins", "no_clubs"), lambda c: 0),
               0, 26, "loss", [26, 0, 26, 0])
    assert [tr["winner"] for tr in t["deals"][0]["tricks"]] == [0] * 13
    assert replay(t).winners == [0, 2]
    t = finish(play_out(one_suit_deal("most_tricks", "no_tricks"), lambda c: 2),
               0, 12, "loss", [12, 0, 12, 0])
    assert replay(t).scores == [12.0, 0.0, 12.0, 0.0]
    # red_black (diamonds trump): seat 1 (attacker) ruffs every trick: 26 red - 26 black
    t = finish(play_out(one_suit_deal("red_black", "tens_jacks"), lambda c: 1),
               0, 0, "draw", [0, 0, 0, 0])
    assert replay(t).winners == [0, 1, 2, 3]
    t = finish(play_out(one_suit_deal("red_black", "tens_jacks", "result"), lambda c: 1),
               0, 0, "draw", [0, 0, 0, 0])
    assert replay(t).details["results"]["draw"] == 1


def test_v9_hand_worked_wrong_winner_under_lowest_wins():
    """V9: in trick 0 (2H 2S 2C 2D, clubs trump) the 2C takes the trick; with seat 2
    named as the winner the referee names the lowest-wins rule."""
    t = finish(play_out(one_suit_deal("lowest_wins", "no_clubs"), lambda c: 0),
               0, 26, "loss", [26, 0, 26, 0])
    t["deals"][0]["tricks"][0]["winner"] = 2
    rejects(t, r"deal 0, trick 0: winner is 2, but 2C of seat 0 takes the trick .*lowest "
               r"trump.*lowest_wins\) \(V9\)")


# -- the referee is independent --------------------------------------------------------

def test_the_referee_is_plain_python_and_independent_of_the_engine():
    """No NumPy, no numba, nothing of the kernel, engine, core tables or policies: of the
    game's package only its rule-key table (the allowed values of each key, the spec that
    ``TraceReferee.rules_allowed`` checks a trace's rules against)."""
    tree = ast.parse(Path(R.__file__).read_text())
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules.add(node.module or "")
    banned = ("numpy", "numba", "strategies", "sim.games.vybory", "sim.tricks", "sim.jit")
    spec = "sim.games.vybory.rules"
    assert not [m for m in modules - {spec} if m.startswith(banned)], modules
    assert modules <= {"__future__", "dataclasses", "typing", "sim.cards", "sim.referee",
                       "sim.errors", "collections", spec}


# -- tampered traces: rules, deal ---------------------------------------------------------

@pytest.mark.parametrize("key, value, pattern", [
    ("type_set", "odd", r"rules: type_set='odd' is not allowed: standard or alt"),
    ("first_dealer", 4, r"rules: first_dealer=4 is not allowed: 0..3 \(V1\)"),
    ("first_dealer", True, r"rules: first_dealer=True is not allowed"),
    ("scoring", "money", r"rules: scoring='money' is not allowed: points or result \(V12\)"),
    ("deals_per_match", 65, r"rules: deals_per_match=65 is not allowed: 1..64"),
])
def test_rules_values(trace, key, value, pattern):
    trace["rules"][key] = value
    rejects(trace, pattern)


def test_rules_keys_are_exactly_the_four(trace):
    trace["rules"]["players"] = 4
    rejects(trace, r"rules: missing keys \[\], unknown keys \['players'\]")
    del trace["rules"]["players"], trace["rules"]["scoring"]
    rejects(trace, r"rules: missing keys \['scoring'\]")


def test_v1_v13_one_deal_per_deals_per_match(trace):
    trace["deals"].pop()
    rejects(trace, r"deals must list the 8 deals of the tour \(deals_per_match\), got 7 "
                   r"\(V1, V13\)")


def test_v1_dealer_rotates(trace):
    trace["deals"][3]["dealer"] = 0
    rejects(trace, r"deal 3: dealer is 0, expected seat 3 \(first_dealer 0 \+ 3\) \(V1\)")
    trace["deals"][3]["dealer"] = 3.0
    rejects(trace, r"deal 3: dealer is 3.0, not a seat \(V1\)")


def test_v1_hands_make_the_deck(trace):
    hands = trace["deals"][2]["hands"]
    hands[1][0] = hands[0][0]
    rejects(trace, rf"deal 2, seat 1: card {hands[0][0]} is dealt twice \(also to seat 0\) "
                   r"\(V1\)")
    hands[1].pop(0)
    rejects(trace, r"deal 2, seat 1: a hand holds 13 cards \(V1\)")
    hands[1].append("1X")
    rejects(trace, r"deal 2, seat 1: '1X' is not a card of the 52-card deck \(V1\)")


# -- tampered traces: the election ------------------------------------------------------

def test_v2_announcements_in_seat_order_from_the_dealers_left(trace):
    calls = trace["deals"][1]["announcements"]   # dealer 1: seat 2 opens
    calls[0][0] = 1
    rejects(trace, r"deal 1, announcement 0: expected \[2, type\]: announcements go round in "
                   r"seat order from the seat after the dealer 1 \(V2\)")


def test_v2_type_names_of_the_type_set(pool):
    t, d = find(pool, lambda deal, r: r["type_set"] == "standard")
    t["deals"][d]["announcements"][0][1] = "red_cards"   # an alt type
    rejects(t, rf"deal {d}, announcement 0, seat \d: 'red_cards' is not a contract type of "
               r"type_set=standard.*\(V2\)")


def test_v2_a_type_named_twice_by_one_player(pool):
    t, d = find(pool, lambda deal, r: len(deal["announcements"]) >= 6)
    calls = t["deals"][d]["announcements"]
    calls[4][1] = calls[0][1]     # the opener's second call repeats his first
    seat = calls[0][0]
    rejects(t, rf"deal {d}, announcement 4, seat {seat}: seat {seat} names {calls[0][1]} a "
               r"second time; he named .* before in this election \(V2\)")


def test_v3_the_election_ends_at_the_first_match(pool):
    t, d = find(pool, lambda deal, r: len(deal["announcements"]) <= 6)
    deal = t["deals"][d]
    calls = deal["announcements"]
    k = len(calls)
    seat = (deal["dealer"] + 1 + k) % 4
    mine = [n for s, n in calls if s == seat]
    other = next(n for n in R.TYPE_SETS[t["rules"]["type_set"]][::-1]
                 if n.name not in mine).name
    calls.append([seat, other])
    rejects(t, rf"deal {d}, announcement {k}: the election ended at announcement {k - 1}, "
               rf"when seat {calls[k - 1][0]} named {deal['contract']}, already named by "
               rf"seat {deal['attackers'][0]}; yet 1 more announcement\(s\) follow \(V3\)")


def test_v3_the_election_does_not_stop_before_a_match(pool):
    t, d = find(pool, lambda deal, r: len(deal["announcements"]) < 8)
    calls = t["deals"][d]["announcements"]
    calls.pop()
    rejects(t, rf"deal {d}: the election stops after {len(calls)} announcement\(s\) without "
               r"a player naming a type another one named \(V3\)")


def test_v4_after_two_rounds_the_first_call_of_round_3_must_match(pool):
    t, d = find(pool, lambda deal, r: len(deal["announcements"]) == 9)
    t["deals"][d]["announcements"].pop()
    rejects(t, rf"deal {d}: the election stops after 8 announcement\(s\) .*every type has "
               r"been named, so the first call of round 3 must match one \(V3, V4\)")


def test_v3_contract_is_the_matched_type(trace):
    deal = trace["deals"][0]
    other = next(n for n in R.TYPE_SETS["standard"] if n.name != deal["contract"]).name
    deal["contract"] = other
    rejects(trace, rf"deal 0: contract is '{other}', but the election ends when "
                   rf"{trace['deals'][0]['announcements'][-1][1]} is named a second time \(V3\)")


def test_v5_attackers_and_first_announcer(trace):
    deal = trace["deals"][0]
    a = list(deal["attackers"])
    deal["attackers"] = a[::-1]
    rejects(trace, rf"deal 0: attackers are \[{a[1]}, {a[0]}\], expected \[{a[0]}, {a[1]}\]: "
                   rf"seat {a[0]} named .* first and seat {a[1]} matched it \(V3, V5\)")
    deal["attackers"] = a
    deal["first_announcer"] = a[1]
    rejects(trace, rf"deal 0: first_announcer is {a[1]}, expected seat {a[0]}, the attacker "
                   r"who named .* first \(V5\)")
    deal["first_announcer"] = a[0]
    deal["attackers"] = [a[0], (a[1] + 1) % 4 if (a[1] + 1) % 4 != a[0] else (a[1] + 2) % 4]
    rejects(trace, r"deal 0: attackers are .*\(V3, V5\)")


# -- tampered traces: the play ----------------------------------------------------------

def test_v6_first_leader_is_the_seat_after_the_first_announcer(trace):
    deal = trace["deals"][0]
    first = deal["first_announcer"]
    deal["tricks"][0]["leader"] = first
    rejects(trace, rf"deal 0, trick 0: leader is {first}, expected seat {(first + 1) % 4}: the "
                   rf"seat after the first announcer {first} leads the first trick \(V6\)")


def test_v6_the_winner_leads_the_next_trick(trace):
    deal = trace["deals"][0]
    w = deal["tricks"][4]["winner"]
    deal["tricks"][5]["leader"] = (w + 1) % 4
    rejects(trace, rf"deal 0, trick 5: leader is {(w + 1) % 4}, expected seat {w}: seat {w} won "
                   r"trick 4 and leads this one \(V6\)")


def test_v7_cards_go_round_in_seat_order(trace):
    cards = trace["deals"][0]["tricks"][3]["cards"]
    cards[1], cards[2] = cards[2], cards[1]
    rejects(trace, rf"deal 0, trick 3, card 1, seat {(cards[0][0] + 1) % 4}: expected "
                   r"\[\d, card\]: play goes round in seat order from the leader \d \(V7\)")


def test_v7_revoke_not_following_suit_when_able(pool):
    """Swap a follower's card of the suit led with a card of another suit he plays
    later: at the earlier trick he holds the suit led and does not follow."""
    def spot(deal):
        for t, trick in enumerate(deal["tricks"]):
            led = trick["cards"][0][1][1]
            for k, (seat, card) in enumerate(trick["cards"][1:], 1):
                if card[1] != led:
                    continue
                off = [c for c in held_before(deal, seat, t + 1) if c[1] != led]
                if off:
                    return t, k, off[0]
        return None

    t, d = find(pool, lambda deal, r: spot(deal) is not None)
    deal = t["deals"][d]
    ti, k, off = spot(deal)
    seat, card = deal["tricks"][ti]["cards"][k]
    for trick in deal["tricks"][ti + 1:]:
        for item in trick["cards"]:
            if item[1] == off:
                item[1] = card
    deal["tricks"][ti]["cards"][k][1] = off
    led = deal["tricks"][ti]["cards"][0][1][1]
    rejects(t, rf"deal {d}, trick {ti}, card {k}, seat {seat}: {off} does not follow the suit "
               rf"led \({led}\); seat {seat} holds .*{card}.* \(V7\)")


def test_v7_a_card_not_in_the_players_hand(trace):
    deal = trace["deals"][0]
    seat, card = deal["tricks"][0]["cards"][0]
    other = deal["hands"][(seat + 1) % 4][0]
    deal["tricks"][0]["cards"][0][1] = other
    rejects(trace, rf"deal 0, trick 0, card 0, seat {seat}: '{other}' is not in seat {seat}'s "
                   r"remaining hand .* \(V1, V7\)")


def test_v7_a_card_played_twice(trace):
    deal = trace["deals"][0]
    t1 = deal["tricks"][1]
    seat = t1["cards"][0][0]
    before = next(c for s, c in deal["tricks"][0]["cards"] if s == seat)
    t1["cards"][0][1] = before
    rejects(trace, rf"deal 0, trick 1, card 0, seat {seat}: '{before}' is not in seat {seat}'s "
                   r"remaining hand .*\(V1, V7\)")


def test_v8_wrong_trick_winner_with_a_trump(pool):
    """V8: a trump played to a plain-suit lead takes the trick, not the highest card of
    the suit led."""
    def spot(deal, rules):
        ctype = contract_type(rules["type_set"], deal["contract"])
        if ctype.trump is None or ctype.lowest_wins:
            return None
        for t, trick in enumerate(deal["tricks"]):
            cards = [c for _, c in trick["cards"]]
            plain = trick_winner(cards, None, False)
            if cards[0][1] != ctype.trump and trick_winner(cards, ctype.trump, False) != plain:
                return t, trick["cards"][plain][0]
        return None

    t, d = find(pool, lambda deal, r: spot(deal, r) is not None)
    ti, wrong = spot(t["deals"][d], t["rules"])
    trick = t["deals"][d]["tricks"][ti]
    right = trick["winner"]
    trick["winner"] = wrong
    rejects(t, rf"deal {d}, trick {ti}: winner is {wrong}, but .. of seat {right} takes the "
               r"trick .*; trump .; the highest trump, else the highest card of the suit led "
               r"wins under .*\) \(V8\)")


def test_v8_wrong_trick_winner_without_trumps(pool):
    t, d = find(pool, lambda deal, r: deal["contract"] in ("most_tricks", "no_tricks"))
    trick = t["deals"][d]["tricks"][6]
    right = trick["winner"]
    trick["winner"] = (right + 1) % 4
    rejects(t, rf"deal {d}, trick 6: winner is {(right + 1) % 4}, but .. of seat {right} takes "
               r"the trick .*; no trump; .*\(V8\)")


def test_v9_wrong_trick_winner_under_lowest_wins(pool):
    """V9: under lowest_wins the winner the usual order would give is refused."""
    def spot(deal):
        if deal["contract"] != "lowest_wins":
            return None
        for t, trick in enumerate(deal["tricks"]):
            cards = [c for _, c in trick["cards"]]
            if trick_winner(cards, "C", True) != trick_winner(cards, "C", False):
                return t, trick["cards"][trick_winner(cards, "C", False)][0]
        return None

    t, d = find(pool, lambda deal, r: spot(deal) is not None)
    ti, wrong = spot(t["deals"][d])
    trick = t["deals"][d]["tricks"][ti]
    right = trick["winner"]
    trick["winner"] = wrong
    rejects(t, rf"deal {d}, trick {ti}: winner is {wrong}, but .. of seat {right} takes the "
               r"trick .*; trump C; the lowest trump, else the lowest card of the suit led "
               r"wins under lowest_wins\) \(V9\)")


def test_v6_thirteen_tricks(trace):
    trace["deals"][0]["tricks"].pop()
    rejects(trace, r"deal 0: 13 tricks are played \(V6\), got 12")


# -- tampered traces: scoring -----------------------------------------------------------

def test_v10_wrong_pair_points(trace):
    pp = trace["deals"][2]["pair_points"]
    pp["attackers"] += 1
    rejects(trace, r"deal 2: pair_points .*, expected .*: under \w+ the attackers \[\d, \d\] won "
                   r"\d+ tricks and the defenders \d+ \(V10\)")
    pp["attackers"] -= 1
    pp["defenders"] = float(pp["defenders"])
    rejects(trace, r"deal 2: pair_points .*\(V10\)")


def test_v10_tens_jacks_no_clubs_points_in_a_real_trace(pool):
    """V10 in the engine's traces: under tens_jacks_no_clubs a club ten or jack counts
    +3 for the pair that takes it; the referee and the trace agree on every such deal."""
    t, d = find(pool, lambda deal, r: deal["contract"] == "tens_jacks_no_clubs")
    deal = t["deals"][d]
    att = deal["attackers"]
    won = [c for tr in deal["tricks"] if tr["winner"] in att for _, c in tr["cards"]]
    by_hand = sum((5 if c[0] in "TJ" and c[1] in "CS" else 0)
                  - (5 if c[0] in "TJ" and c[1] in "DH" else 0)
                  - (2 if c[1] == "C" else 0) for c in won)
    assert deal["pair_points"]["attackers"] == by_hand
    deal["pair_points"]["attackers"] = by_hand + 2
    rejects(t, rf"deal {d}: pair_points .*under tens_jacks_no_clubs .*\(V10\)")


def test_v11_wrong_result(trace):
    deal = trace["deals"][1]
    right = deal["result"]
    deal["result"] = "draw" if right != "draw" else "win"
    rejects(trace, rf"deal 1: result is '{deal['result']}', expected '{right}': the attackers "
                   r"have -?\d+ points, the defenders -?\d+ \(V11\)")


def test_v12_wrong_scores_under_points_scoring(trace):
    assert trace["rules"]["scoring"] == "points"
    deal = trace["deals"][3]
    deal["scores_after"][0] += 1
    rejects(trace, r"deal 3: scores_after .*, expected .*: the scores before .* plus the deal "
                   r"scores .* \(scoring=points, V12\)")
    deal["scores_after"][0] -= 1
    deal["deal_scores"][2] += 1
    rejects(trace, r"deal 3: deal_scores .*, expected .*: scoring=points, each player adds his "
                   r"pair's contract points \(V12\)")


def test_v12_wrong_scores_under_result_scoring():
    t = run_trace("vybory", seed=SEED, index=1, rules={"scoring": "result"},
                  strategies=["all=random+random"])
    replay(t)
    deal = t["deals"][2]
    deal["scores_after"] = [s + 1 for s in deal["scores_after"]]
    rejects(t, r"deal 2: scores_after .* \(scoring=result, V12\)")
    t = run_trace("vybory", seed=SEED, index=1, rules={"scoring": "result"},
                  strategies=["all=random+random"])
    deal = t["deals"][2]
    pp = deal["pair_points"]
    deal["deal_scores"] = [pp["attackers"] if s in deal["attackers"] else pp["defenders"]
                           for s in range(4)]   # points scoring under the result key
    rejects(t, r"deal 2: deal_scores .*, expected .*: scoring=result, \+1 to each player of "
               r"the pair that won the deal, -1 to the losers, 0 on a draw \(V12\)")


def test_v12_points_scores_refused_under_result_scoring(trace):
    trace["rules"]["scoring"] = "result"
    rejects(trace, r"deal 0: deal_scores .*scoring=result.*\(V12\)")


def test_v13_totals_and_winners(trace):
    totals = list(trace["totals"])
    trace["totals"][1] += 5
    rejects(trace, r"end: totals .*, expected .*, the scores after the last deal \(V13\)")
    trace["totals"] = totals
    right = list(trace["winners"])
    trace["winners"] = [s for s in range(4) if s not in right][:1]
    rejects(trace, rf"end: winners .*, expected {re.escape(str(right))}: every seat with the "
                   r"top total -?\d+; ties are shared \(V13\)")


def test_v13_a_tie_is_shared():
    """V13: where the totals tie at the top, every tied seat is a winner (result scoring,
    tour 2: seats 2 and 3 tie at +1)."""
    t = run_trace("vybory", seed=SEED, index=2, rules={"scoring": "result"},
                  strategies=["all=random+random"])
    assert t["totals"] == [-1, -1, 1, 1]
    assert replay(t).winners == [2, 3] == t["winners"]
    t["winners"] = [2]
    rejects(t, r"end: winners \[2\], expected \[2, 3\]: every seat with the top total 1; ties "
               r"are shared \(V13\)")
