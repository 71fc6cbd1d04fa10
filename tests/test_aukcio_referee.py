"""The aukcio referee (``sim/games/aukcio/referee.py``, rules K1-K14): it accepts valid
traces and rejects each kind of tampering with a message naming the lot and the rule.

Traces are built here, without the engine, by :func:`build`: a small scripted game that
follows ``rules/aukcio.md`` and the trace format, from chosen hands and auction order.
"""

from __future__ import annotations

import copy
import random
import re
from collections import defaultdict, deque
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.errors import RefereeError
from sim.games.aukcio.referee import least_payment, pay_limit, replay

NUMBERS = [r + s for r in "23456789T" for s in "CDHS"]
FACES = [r + s for r in "JQKA" for s in "CDHS"]
DEFAULTS = dict(players=3, first_dealer=0, hand_size=5, buyer_draw=2, ace_draw=1,
                jokers_per_payment=1, bidding="open", unsold="discard")


def worth(card: str) -> int:
    return 0 if card == "JK" else "23456789T".index(card[0]) + 2


def best_payment(hand: list[str], jpp: int, price: int) -> list[str]:
    """An optimal payment (K8) by exhaustive search over how many cards of each value
    are paid, and which of them the jokers double."""
    by_value = defaultdict(list)
    for c in hand:
        if c != "JK":
            by_value[worth(c)].append(c)
    values, jokers, best = sorted(by_value), hand.count("JK"), None
    for counts in product(*(range(len(by_value[v]) + 1) for v in values)):
        chosen = [v for v, k in zip(values, counts) for _ in range(k)]
        for j in range(min(jokers, jpp, len(chosen)) + 1):
            ok = [sum(chosen) + sum(d) for d in set(combinations(chosen, j))
                  if sum(chosen) + sum(d) >= price]
            if ok and (best is None or (min(ok) - price, len(chosen) + j, j) < best[0]):
                best = ((min(ok) - price, len(chosen) + j, j), counts, j)
    assert best is not None, "the script bid more than the seat can pay"
    _, counts, j = best
    return [by_value[v][i] for v, k in zip(values, counts) for i in range(k)] + ["JK"] * j


def has_set(owned: list[str], card: str) -> list[str] | None:
    for a, b in combinations(sorted(set(owned) - {card}), 2):
        trio = [card, a, b]
        ranks, suits = {c[0] for c in trio}, {c[1] for c in trio}
        order = "".join(sorted(ranks, key="JQKA".index))
        if (len(ranks) == 1 and len(suits) == 3) or (len(suits) == 1 and order in ("JQK", "QKA")):
            return trio
    return None


def scripted(bids: dict[tuple[int, int], int]):
    """A bidding script: seat s bids ``bids[(lot, s)]`` at its first call of that lot and
    passes otherwise."""
    left = dict(bids)
    return lambda lot, seat, high, limit: left.pop((lot, seat), None)


def build(script, rules=None, hands=None, auction=(), pile_top=(), seed=0) -> dict:
    """A valid trace: ``hands`` (default: dealt from the shuffled money deck) and the
    draw pile ``pile_top`` first; the auction deck ``auction`` first, the rest shuffled;
    ``script(lot, seat, high, limit)`` gives each call (an illegal bid counts as a pass)."""
    r = {**DEFAULTS, **(rules or {})}
    r.setdefault("decks", 1 if r["players"] == 3 else 2)
    n, rng = r["players"], random.Random(seed)
    money = NUMBERS * r["decks"] + ["JK"] * 3 * r["decks"]
    rng.shuffle(money)
    if hands is None:
        hands = [money[s * r["hand_size"]:(s + 1) * r["hand_size"]] for s in range(n)]
    hands = [list(h) for h in hands]
    rest = list(money)
    for c in [c for h in hands for c in h] + list(pile_top):
        rest.remove(c)
    pile = deque(list(pile_top) + rest)
    faces = FACES * r["decks"]
    rng.shuffle(faces)
    for c in auction:
        faces.remove(c)
    deck = list(auction) + faces
    trace = dict(game="aukcio", rules=r, seed=seed, index=0, strategies=["script"] * n,
                 dealer=r["first_dealer"], auction_deck=list(deck), money_deck=list(pile),
                 hands=copy.deepcopy(hands))
    queue = deque([c, False] for c in deck)
    paid, owned, lots = [], [[] for _ in range(n)], []
    sitting, winner, won_set = None, None, None

    def draw(seat, lot):
        """K12: the top card; an empty draw pile is remade from the payment pile."""
        if not pile and paid:
            order = list(paid)
            rng.shuffle(order)
            lot["reshuffles"].append(order)
            pile.extend(order)
            paid.clear()
        if pile:
            hands[seat].append(pile.popleft())
            return hands[seat][-1]
        return None

    while queue and winner is None:
        card, marked = queue.popleft()
        turner = (r["first_dealer"] + 1 + len(lots)) % n
        lot = dict(card=card, turner=turner, sitting_out=sitting, ace_draws=[], calls=[],
                   buyer=None, price=None, payment=[], buyer_draws=[], reshuffles=[], unsold=None)
        if card[0] == "A":
            for _ in range(r["ace_draw"]):
                for i in range(1, n):
                    seat = (turner + i) % n
                    got = draw(seat, lot)
                    if got:
                        lot["ace_draws"].append([seat, got])
        first = turner if turner != sitting else (turner + 1) % n
        eligible = [(first + i) % n for i in range(n) if (first + i) % n != sitting]
        buyer, price = bid_round(r, eligible, lot, hands, script, len(lots))
        if buyer is None:
            lot["unsold"] = "bottom" if r["unsold"] == "bottom" and not marked else "discard"
            if lot["unsold"] == "bottom":
                queue.append([card, True])
        else:
            lot.update(buyer=buyer, price=price)
            lot["payment"] = best_payment(hands[buyer], r["jokers_per_payment"], price)
            for c in lot["payment"]:
                hands[buyer].remove(c)
            paid.extend(lot["payment"])
            owned[buyer].append(card)
            for q in queue:
                q[1] = False
            won_set = has_set(owned[buyer], card)
            if won_set:
                winner = buyer
            else:
                for _ in range(r["buyer_draw"]):
                    got = draw(buyer, lot)
                    if got:
                        lot["buyer_draws"].append(got)
        sitting = buyer
        lots.append(lot)
    trace.update(lots=lots, owned=owned, money_end=hands, winner=winner, set=won_set,
                 scores=[1.0 if s == winner else 0.0 for s in range(n)])
    return trace


def bid_round(r, eligible, lot, hands, script, n_lot):
    """K6, K7: the calls of one lot; returns (buyer, price)."""
    def limit(seat):
        values = sorted((worth(c) for c in hands[seat] if c != "JK"), reverse=True)
        k = min(hands[seat].count("JK"), r["jokers_per_payment"], len(values))
        return sum(values) + sum(values[:k])

    def call(seat, high):
        bid = script(n_lot, seat, high, limit(seat))
        bid = bid if bid is not None and high < bid <= limit(seat) else None
        lot["calls"].append({"seat": seat, "bid": bid})
        return bid

    high, price = None, 0
    if r["bidding"] == "single":
        for seat in eligible:
            bid = call(seat, price)
            if bid is not None:
                high, price = seat, bid
        return high, price if high is not None else None
    active, i = list(eligible), 0  # seats that have not passed; i: whose turn
    while len(active) > (high is not None):
        seat = active[i]
        bid = call(seat, price)
        if bid is None:
            del active[i]
        else:
            high, price = seat, bid
            i += 1
        i = i % len(active) if active else 0
    return high, price if high is not None else None


HANDS = [["2C", "3C", "4C", "5C", "6C"],
         ["TC", "9C", "JK", "8D", "7D"],
         ["2D", "3D", "4D", "5D", "6D"]]


def aces_game(**rules) -> dict:
    """Seat 1 buys AH (lot 0, price 20: TC doubled), seat 2 buys KS (lot 1), seat 1
    buys AC (lot 2), QD goes unsold (lot 3), seat 1 buys AD and wins (lot 4)."""
    bids = {(0, 1): 20, (1, 2): 3, (2, 1): 5, (4, 1): 1}
    # a larger hand_size deals further cards round the table, from the sorted rest
    rest = NUMBERS + ["JK"] * 3
    for c in sum(HANDS, []):
        rest.remove(c)
    extra = rules.get("hand_size", 5) - 5
    hands = [h + rest[s:3 * extra:3] for s, h in enumerate(HANDS)]
    return build(scripted(bids), rules, hands=hands, auction=["AH", "KS", "AC", "QD", "AD"])


def rejects(trace: dict, pattern: str) -> str:
    with pytest.raises(RefereeError) as err:
        replay(trace)
    assert re.search(pattern, str(err.value)), str(err.value)
    return str(err.value)


# -- valid traces ---------------------------------------------------------------------

def test_k14_scripted_game_replays_with_the_winner_and_scores():
    t = aces_game()
    assert [lot["buyer"] for lot in t["lots"]] == [1, 2, 1, None, 1]
    assert t["lots"][0]["payment"] == ["TC", "JK"]   # K8: 10 doubled pays 20 exactly
    got = replay(t)
    assert got.winners == [1] and got.scores == [0.0, 1.0, 0.0]
    assert got.details["lots"] == 5 and got.details["sales"] == 4
    assert got.details["reshuffles"] == 0
    # K9, K10: ace draws of lots 0, 2, 4 and the buyer draws of lots 0, 1, 2
    assert got.details["cards_drawn"] == [2, 6, 4]
    assert got.details["money_end"] == [sum(map(worth, h)) for h in t["money_end"]]
    assert got.actions == sum(len(lot["calls"]) for lot in t["lots"])
    assert sorted(t["set"]) == ["AC", "AD", "AH"]


def test_k12_reshuffle_of_the_payment_pile_replays():
    t = aces_game(hand_size=12)  # the draw pile holds 3 cards: lot 0 reshuffles
    assert len(t["lots"][0]["reshuffles"]) == 1
    got = replay(t)
    assert got.winners == [1] and got.details["reshuffles"] >= 1


def test_k12_nothing_drawn_from_two_empty_piles():
    t = aces_game(hand_size=13)  # the deal takes every money card
    assert t["lots"][0]["ace_draws"] == [] and t["money_deck"] == []
    assert replay(t).winners == [1]


def test_k14_a_game_without_a_set_is_a_draw():
    t = build(lambda lot, seat, high, limit: None)
    got = replay(t)
    assert got.winners == [] and got.scores == [0.0] * 3 and got.details["lots"] == 16


def test_k11_bottom_cards_come_back_and_go_when_unsold_twice():
    # Lot 0 sells; the other 15 cards go under; lot 16 discards the first of them (unsold
    # twice), lot 17 sells, which clears the marks, so the rest go under once more.
    bids = {(0, 1): 2, (17, 2): 2}
    t = build(scripted(bids), {"unsold": "bottom"}, hands=HANDS, auction=["AH"])
    fates = [lot["unsold"] for lot in t["lots"]]
    assert fates[1:16] == ["bottom"] * 15 and fates[16] == "discard" and fates[17] is None
    assert fates[18:31] == ["bottom"] * 13 and fates[31:] == ["discard"] * 13
    assert replay(t).details["lots"] == 44


def test_k7_single_bidding_replays():
    bids = {(0, 1): 5, (0, 2): 7, (1, 0): 3}
    t = build(scripted(bids), {"bidding": "single"}, hands=HANDS, auction=["AH", "KS"])
    assert [c["seat"] for c in t["lots"][0]["calls"]] == [1, 2, 0]
    assert t["lots"][0]["buyer"] == 2 and t["lots"][0]["price"] == 7
    replay(t)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6), decks=st.sampled_from([1, 2]),
       hand_size=st.integers(1, 6), buyer_draw=st.integers(0, 3), ace_draw=st.integers(0, 2),
       jpp=st.integers(0, 3), bidding=st.sampled_from(["open", "single"]),
       unsold=st.sampled_from(["discard", "bottom"]))
def test_k1_to_k14_random_games_replay(seed, players, decks, hand_size, buyer_draw, ace_draw,
                                       jpp, bidding, unsold):
    rules = dict(players=players, decks=decks, hand_size=hand_size, buyer_draw=buyer_draw,
                 ace_draw=ace_draw, jokers_per_payment=jpp, bidding=bidding, unsold=unsold,
                 first_dealer=seed % players)
    rng = random.Random(seed)

    def script(lot, seat, high, limit):
        return rng.randint(high + 1, limit) if high < limit and rng.random() < 0.5 else None

    t = build(script, rules, seed=seed)
    got = replay(t)
    assert got.winners == ([] if t["winner"] is None else [t["winner"]])
    assert got.details["lots"] == len(t["lots"])


# -- rules and deal --------------------------------------------------------------------

def test_k1_rules_must_hold_exactly_the_keys():
    t = aces_game()
    t["rules"]["house"] = 1
    rejects(t, r"rules.*unknown keys \['house'\]")
    t = aces_game()
    del t["rules"]["unsold"]
    rejects(t, r"missing keys \['unsold'\]")


def test_k1_k4_rule_values_are_checked():
    t = aces_game()
    t["rules"]["decks"] = 3
    rejects(t, r"decks=3 is not allowed.*\(K1\)")
    t = aces_game()
    t["rules"]["first_dealer"] = 3
    rejects(t, r"first_dealer=3 is not allowed: 0\.\.2")
    t = aces_game()
    t["rules"]["hand_size"] = 14
    rejects(t, r"more than the 39 money cards \(K4\)")


def test_k4_dealer_is_first_dealer():
    t = aces_game()
    t["dealer"] = 1
    rejects(t, r"deal: dealer is 1, expected first_dealer 0 \(K4\)")


def test_k2_k4_hands_and_draw_pile_must_form_the_money_deck():
    t = aces_game()
    t["hands"][0][0] = "TC"  # a second ten of clubs, and no two of clubs
    rejects(t, r"deal: hands \+ money_deck is not the money deck.*extra TC, missing 2C \(K2, K4\)")
    t = aces_game()
    t["money_deck"].pop()
    rejects(t, r"missing .*\(K2, K4\)")


def test_k4_hand_size():
    t = aces_game()
    t["money_deck"].insert(0, t["hands"][2].pop())
    rejects(t, r"deal, seat 2: the hand holds 4 money cards; the deal gives hand_size 5 \(K4\)")


def test_k2_auction_deck_is_the_face_cards():
    t = aces_game()
    t["auction_deck"][-1] = "AH"
    rejects(t, r"auction_deck is not the auction deck.*extra AH.*\(K2\)")


# -- lots ------------------------------------------------------------------------------

def test_k5_lot_card_is_the_next_auction_card():
    t = aces_game()
    t["lots"][1]["card"] = "QS"
    rejects(t, r"lot 1: the lot turns 'QS', but the next card of the auction deck is KS \(K5, K11\)")


def test_k5_turner():
    t = aces_game()
    t["lots"][2]["turner"] = 1
    rejects(t, r"lot 2: turner is 1, expected seat 0.*\(K5\)")


def test_k9_sitting_out_is_the_previous_buyer():
    t = aces_game()
    t["lots"][1]["sitting_out"] = None
    rejects(t, r"lot 1: sitting_out is None, expected 1.*\(K6, K9\)")
    t = aces_game()
    t["lots"][1]["sitting_out"] = False  # not seat 0 either
    rejects(t, r"lot 1: sitting_out is False")


def test_k10_wrong_ace_draw_card():
    t = aces_game()
    t["lots"][0]["ace_draws"][0][1] = "TS" if t["lots"][0]["ace_draws"][0][1] != "TS" else "9S"
    rejects(t, r"lot 0, ace draw 0, seat 2: seat 2 draws '.S', but the top of the draw pile "
               r"is .* \(K10, K12\)")


def test_k10_ace_draw_order_and_count():
    t = aces_game()
    draws = t["lots"][0]["ace_draws"]
    draws[0][0], draws[1][0] = draws[1][0], draws[0][0]
    rejects(t, r"lot 0, ace draw 0, seat 2: seat 0 draws, but it is seat 2's draw.*\(K10\)")
    t = aces_game()
    t["lots"][0]["ace_draws"].pop()
    rejects(t, r"lot 0, ace draw 1, seat 0: seat 0 must draw .* \(K10\)")
    t = aces_game()
    t["lots"][1]["ace_draws"] = [[0, t["money_deck"][2]]]
    rejects(t, r"lot 1, ace draw 0: .*is extra: the KS is not an ace \(K10\)")


def test_k12_no_draw_from_two_empty_piles():
    t = aces_game(hand_size=13)
    t["lots"][0]["ace_draws"] = [[2, "2C"]]
    rejects(t, r"lot 0, ace draw 0: .*extra.*both empty \(K12\)")


def test_k9_wrong_buyer_draw_card():
    t = aces_game()
    draws = t["lots"][1]["buyer_draws"]
    draws[0], draws[1] = draws[1], draws[0]
    rejects(t, r"lot 1, seat 2: buyer draw 0 is .*, but the top of the draw pile is .* \(K9, K12\)")


def test_k9_buyer_draws_buyer_draw_cards():
    t = aces_game()
    t["lots"][0]["buyer_draws"].pop()
    rejects(t, r"lot 0, seat 1: the buyer draws 1 cards, but buyer_draw is 2.*\(K9, K12\)")


def test_k12_missing_reshuffle():
    t = aces_game(hand_size=12)
    t["lots"][0]["reshuffles"] = []
    rejects(t, r"lot 0, seat 1: the draw pile is empty and the payment pile holds .*, so it must "
               r"be reshuffled.*no reshuffle for it \(K12\)")


def test_k12_reshuffle_must_be_a_permutation_of_the_payment_pile():
    t = aces_game(hand_size=12)
    t["lots"][0]["reshuffles"][0].append("2C")
    rejects(t, r"lot 0, seat 1: reshuffle 0 is .*, not a permutation of the payment pile .*\(K12\)")


def test_k12_no_reshuffle_left_over():
    t = aces_game(hand_size=12)
    t["lots"][0]["reshuffles"].append([])
    rejects(t, r"lot 0: reshuffle 1 is listed, but the draw pile never ran empty again.*\(K12\)")


# -- calls -----------------------------------------------------------------------------

def test_k6_bid_above_what_the_seat_can_pay():
    t = aces_game()
    t["lots"][1]["calls"][0]["bid"] = 60
    t["lots"][1]["price"] = 60
    rejects(t, r"lot 1, call 0, seat 2: bid 60, but seat 2's money cards \(.*\) pay at most 30 "
               r"\(K3, K6\)")


def test_k6_bid_must_exceed_the_high_bid():
    bids = {(0, 1): 5, (0, 2): 7, (1, 0): 3}
    t = build(scripted(bids), {"bidding": "single"}, hands=HANDS, auction=["AH", "KS"])
    t["lots"][0]["calls"][1]["bid"] = 5
    rejects(t, r"lot 0, call 1, seat 2: bid 5 must exceed the high bid 5 \(K6\)")
    t = aces_game()
    t["lots"][0]["calls"][0]["bid"] = 0
    rejects(t, r"lot 0, call 0, seat 1: bid 0 is below the smallest bid, 1 \(K6\)")
    t = aces_game()
    t["lots"][0]["calls"][0]["bid"] = 2.5
    rejects(t, r"lot 0, call 0, seat 1: bid 2.5 is neither whole thousands nor a pass \(null\) \(K6\)")


def test_k7_call_out_of_turn():
    t = aces_game()
    calls = t["lots"][3]["calls"]
    calls[0], calls[1] = calls[1], calls[0]
    rejects(t, r"lot 3, call 0: seat 0 calls, but it is seat 2's turn \(K5, K7\)")


def test_k9_sitting_out_seat_calls():
    t = aces_game()
    t["lots"][2]["calls"].insert(0, {"seat": 2, "bid": None})
    rejects(t, r"lot 2, call 0: seat 2 calls, but it bought the previous lot and sits out "
               r"this one \(K6, K9\)")


def test_k7_open_lot_ends_exactly_when_all_others_passed():
    t = aces_game()
    t["lots"][0]["calls"].append({"seat": 1, "bid": None})
    rejects(t, r"lot 0, call 3: the lot was already sold to seat 1 at 20 after call 2, yet more "
               r"calls follow \(K7\)")
    t = aces_game()
    t["lots"][0]["calls"].pop()
    rejects(t, r"lot 0: the calls stop after 2 calls with the lot still open: seats \[0\] have "
               r"not passed \(K7\)")


def test_k7_single_each_eligible_seat_calls_once():
    bids = {(0, 1): 5, (0, 2): 7, (1, 0): 3}
    t = build(scripted(bids), {"bidding": "single"}, hands=HANDS, auction=["AH", "KS"])
    t["lots"][0]["calls"].append({"seat": 1, "bid": 8})
    rejects(t, r"lot 0, call 3: every eligible seat \[1, 2, 0\] has called once.*\(K7\)")
    t = build(scripted(bids), {"bidding": "single"}, hands=HANDS, auction=["AH", "KS"])
    t["lots"][1]["calls"].pop()
    rejects(t, r"lot 1: the calls stop after 1, but seats \[1\] have not called \(K7\)")


def test_k7_buyer_and_price_follow_the_calls():
    t = aces_game()
    t["lots"][1]["price"] = 4
    rejects(t, r"lot 1: buyer 2 at price 4, but the calls give buyer 2 at price 3 \(K7\)")


# -- payment ---------------------------------------------------------------------------

def test_k8_non_optimal_payment():
    t = aces_game()
    t["lots"][0]["payment"] = ["TC", "9C", "7D"]  # worth 26 for a price of 20
    rejects(t, r"lot 0, seat 1: the payment TC 9C 7D for price 20 overpays 6 with 3 cards and 0 "
               r"jokers, but from .* the best overpays 0 with 2 cards and 1 jokers.*\(K8\)")


def test_k8_payment_ties_are_acceptable():
    """3 + 6 and 4 + 5 both pay 9 exactly with two cards: either is acceptable."""
    hands = [HANDS[0], ["3H", "6H", "4S", "5S", "2H"], HANDS[2]]
    t = build(scripted({(0, 1): 9}), hands=hands, auction=["AH"])
    paid = sorted(t["lots"][0]["payment"])
    other = ["4S", "5S"] if paid == ["3H", "6H"] else ["3H", "6H"]
    assert paid in (["3H", "6H"], ["4S", "5S"])
    t["lots"][0]["payment"] = other
    t["money_end"][1] = [c for c in t["money_end"][1] if c not in other] + paid
    assert replay(t).winners == []


def test_k8_payment_too_small_or_not_held_or_too_many_jokers():
    t = aces_game()
    t["lots"][0]["payment"] = ["TC", "9C"]
    rejects(t, r"lot 0, seat 1: the payment TC 9C is worth at most 19, less than the price 20 \(K3, K8\)")
    t = aces_game()
    t["lots"][0]["payment"] = ["TS", "JK"]
    rejects(t, r"lot 0, seat 1: pays TS, which seat 1 does not hold .*\(K8\)")
    t = aces_game(jokers_per_payment=0)
    t["lots"][0]["payment"] = ["TC", "JK"]
    rejects(t, r"lot 0, seat 1: the payment TC JK has 1 jokers; at most jokers_per_payment=0.*\(K3, K8\)")


# -- unsold and the end ----------------------------------------------------------------

def bottom_game() -> dict:
    return build(scripted({(0, 1): 2, (17, 2): 2}), {"unsold": "bottom"}, hands=HANDS,
                 auction=["AH"])


def test_k11_unsold_bottom_first_time_goes_under():
    t = bottom_game()
    t["lots"][1]["unsold"] = "discard"
    rejects(t, r"lot 1: unsold is 'discard', expected 'bottom': .* goes under the auction deck \(K11\)")


def test_k11_unsold_twice_without_a_sale_is_discarded():
    t = bottom_game()
    t["lots"][16]["unsold"] = "bottom"
    rejects(t, r"lot 16: unsold is 'bottom', expected 'discard': .* went unsold before with no "
               r"sale since.*\(K11\)")


def test_k11_a_sale_clears_the_unsold_marks():
    t = bottom_game()
    t["lots"][18]["unsold"] = "discard"  # lot 17 sold: lot 18's card is unmarked again
    rejects(t, r"lot 18: unsold is 'discard', expected 'bottom'.*\(K11\)")


def test_k11_bottom_cards_come_back_in_order():
    t = bottom_game()
    t["lots"][16]["card"], t["lots"][17]["card"] = t["lots"][17]["card"], t["lots"][16]["card"]
    rejects(t, r"lot 16: the lot turns .*, but the next card of the auction deck is "
               + t["lots"][1]["card"] + r" \(K5, K11\)")


def test_k11_discard_rule():
    t = aces_game()
    t["lots"][3]["unsold"] = "bottom"
    rejects(t, r"lot 3: unsold is 'bottom', expected 'discard': .*unsold=discard.*\(K11\)")
    t = aces_game()
    t["lots"][2]["unsold"] = "discard"
    rejects(t, r"lot 2: unsold is 'discard', but the lot was sold \(K11\)")


def test_k14_game_continuing_after_a_set():
    t = aces_game()
    t["lots"].append(copy.deepcopy(t["lots"][3]))
    rejects(t, r"lot 5: the game ended at lot 4: seat 1 completed a set with AD, yet lot 5 "
               r"follows \(K14\)")


def test_k14_winner_draws_nothing():
    t = aces_game()
    t["lots"][4]["buyer_draws"] = [t["money_deck"][-1]]
    rejects(t, r"lot 4, seat 1: buyer draw 0 .* is extra: his purchase completed a set, so he "
               r"draws nothing \(K14\)")


def test_k14_the_game_does_not_stop_early():
    t = build(lambda lot, seat, high, limit: None)
    t["lots"].pop()
    rejects(t, r"end: the trace stops after 15 lots, but the auction deck still holds 1 cards "
               r"and no one owns a set \(K14\)")


def test_k14_wrong_winner():
    t = aces_game()
    t["winner"] = 0
    rejects(t, r"end: winner is 0, expected 1: seat 1 completed a set with AD \(K14\)")
    t = build(lambda lot, seat, high, limit: None)
    t["winner"] = 2
    rejects(t, r"end: winner is 2, expected None: the auction deck ran out with no set made \(K14\)")


def test_k13_set_must_be_owned_and_include_the_last_card():
    t = aces_game()
    t["set"] = ["AH", "AC", "KS"]
    rejects(t, r"end: set .* is not three cards seat 1 owns .* bought, AD \(K13\)")
    t = build(lambda lot, seat, high, limit: None)
    t["set"] = ["AH", "AC", "AD"]
    rejects(t, r"end: set .* but the game is a draw: null \(K14\)")


def test_k14_scores():
    t = aces_game()
    t["scores"] = [0.0, 0.5, 0.0]
    rejects(t, r"end: scores .*expected \[0.0, 1.0, 0.0\].*\(K14\)")


def test_k9_owned_and_money_end():
    t = aces_game()
    t["owned"][2] = []
    rejects(t, r"end, seat 2: owned is none, but the lots leave KS \(K9\)")
    t = aces_game()
    t["money_end"][0].append("JK")
    rejects(t, r"end, seat 0: money_end is .*JK.*\(K8-K12\)")


def test_k13_two_decks_duplicates_do_not_make_a_set():
    rules = dict(players=4, decks=2)
    bids = {(0, 1): 1, (2, 1): 1, (4, 1): 1}
    t = build(scripted(bids), rules, auction=["JH", "QS", "JH", "QD", "JC", "KS"], seed=3)
    assert t["lots"][4]["buyer"] == 1 and t["winner"] is None  # JH JH JC is no set
    replay(t)


# -- least_payment (K3, K8) ------------------------------------------------------------

def brute_force(values: list[int], jokers: int, jpp: int, price: int):
    """Every subset of the number cards, every joker count and every choice of the cards
    the jokers double."""
    best = None
    for mask in range(1 << len(values)):
        chosen = [v for i, v in enumerate(values) if mask >> i & 1]
        for j in range(min(jokers, jpp, len(chosen)) + 1):
            for doubled in combinations(chosen, j):
                value = sum(chosen) + sum(doubled)
                if value >= price:
                    key = (value - price, len(chosen) + j, j)
                    best = key if best is None or key < best else best
    return best


@pytest.mark.parametrize("values, jokers, jpp, price, want", [
    ([10, 9], 1, 1, 20, (0, 2, 1)),       # 10 doubled
    ([10, 10, 9], 1, 1, 20, (0, 2, 0)),   # two tens: fewer jokers
    ([7, 3], 1, 1, 4, (2, 2, 1)),         # 3 doubled overpays 2; the 7 alone 3
    ([6, 5], 2, 2, 22, (0, 4, 2)),        # both doubled
    ([6, 5], 2, 1, 22, None),             # one joker per payment: at most 17
    ([10], 2, 0, 15, None),               # no jokers allowed
    ([2, 2, 2, 2], 0, 1, 5, (1, 3, 0)),
    ([], 3, 3, 1, None),                  # jokers alone are worth nothing
    ([9, 8, 4], 1, 1, 12, (0, 2, 0)),     # 8 + 4 exactly; 9 + 4 overpays
])
def test_k8_least_payment_known_answers(values, jokers, jpp, price, want):
    assert least_payment(values, jokers, jpp, price) == want
    assert brute_force(values, jokers, jpp, price) == want


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.integers(2, 10), max_size=7), jokers=st.integers(0, 3),
       jpp=st.integers(0, 3), price=st.integers(1, 70))
def test_k8_least_payment_matches_exhaustive_search(values, jokers, jpp, price):
    assert least_payment(values, jokers, jpp, price) == brute_force(values, jokers, jpp, price)


@settings(max_examples=100, deadline=None)
@given(values=st.lists(st.integers(2, 10), max_size=8), jokers=st.integers(0, 3),
       jpp=st.integers(0, 3))
def test_k6_pay_limit_is_the_largest_payable_price(values, jokers, jpp):
    limit = pay_limit(values, jokers, jpp)
    assert least_payment(values, jokers, jpp, limit + 1) is None
    if limit:
        assert least_payment(values, jokers, jpp, limit) is not None
