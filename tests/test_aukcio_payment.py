"""K8: the kernel's payment search against an exhaustive enumeration of every payment,
and K6's most payable amount, on random hands."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.games.aukcio.payment import JOKERS, most_payable, payment

MONEY_DECK = [i for i in range(9) for _ in range(4)] + [JOKERS] * 3


def _every_payment(counts, jokers_per_payment):
    """(value, cards, jokers, cards per value) of every payment: per value, how many
    cards are paid plainly and how many doubled by a joker (K3)."""
    per_value = [[(k, d) for d in range(c + 1) for k in range(c - d + 1)] for c in counts[:9]]
    usable = min(counts[JOKERS], jokers_per_payment)
    for choice in itertools.product(*per_value):
        doubled = sum(d for _, d in choice)
        if doubled <= usable:
            value = sum((k + 2 * d) * (i + 2) for i, (k, d) in enumerate(choice))
            yield value, sum(k + 2 * d for k, d in choice), doubled, [k + d for k, d in choice]


def _brute_force(counts, jokers_per_payment, price):
    """The best payment's (overpayment, cards, jokers, cards per value); ties broken by
    more cards of the highest value, then the next (payment.py)."""
    payable = [(v - price, cards, j, [-x for x in reversed(per)], per)
               for v, cards, j, per in _every_payment(counts, jokers_per_payment) if v >= price]
    if not payable:
        return None
    over, cards, j, _, per = min(payable)
    return over, cards, j, per


hands = st.lists(st.sampled_from(range(2 * len(MONEY_DECK))), min_size=1, max_size=13,
                 unique=True).map(lambda idx: np.bincount([MONEY_DECK[i % len(MONEY_DECK)]
                                                           for i in idx], minlength=10))
"""Random hands of up to 13 money cards from two decks (so values repeat up to 8 times)."""


@settings(max_examples=400, deadline=None)
@given(hands, st.integers(0, 3), st.integers(1, 200))
def test_k8_the_payment_is_least_overpayment_then_fewest_cards_then_fewest_jokers(
        counts, jokers_per_payment, price_seed):
    most = most_payable(counts, jokers_per_payment)
    price = 1 + price_seed % (most + 2)   # mostly payable, sometimes one or two too many
    value, pay = payment(counts, jokers_per_payment, price)
    best = _brute_force(counts.tolist(), jokers_per_payment, price)
    if best is None:
        assert value == -1 and price > most
        return
    assert (value - price, int(pay.sum()), int(pay[JOKERS]), pay[:9].tolist()) == best
    assert (pay <= counts).all() and pay[JOKERS] <= jokers_per_payment
    # the cards paid are worth the value claimed, jokers doubling the highest they may
    worth = max(v for v, cards, _, _ in _every_payment(pay.tolist(), jokers_per_payment)
                if cards == pay.sum())
    assert worth >= value >= price


@settings(max_examples=200, deadline=None)
@given(hands, st.integers(0, 3))
def test_k6_most_payable_is_the_largest_payment(counts, jokers_per_payment):
    assert most_payable(counts, jokers_per_payment) == max(
        v for v, _, _, _ in _every_payment(counts.tolist(), jokers_per_payment))


def test_k3_k8_known_payments():
    def pay(values, jokers, jp, price):
        counts = np.bincount([v - 2 for v in values] + [JOKERS] * jokers, minlength=10)
        value, p = payment(counts, jp, price)
        return value, int(p.sum()), int(p[JOKERS])

    assert pay([10, 9], 1, 1, 20) == (20, 2, 1)       # the ten doubled by the joker
    assert pay([10, 10, 9], 1, 1, 20) == (20, 2, 0)   # two tens: no joker needed
    assert pay([10, 9], 1, 0, 20) == (-1, 0, 0)       # no joker allowed: 19 is all
    assert pay([7, 5, 3], 0, 1, 8) == (8, 2, 0)       # 5 + 3, not the 7 and 3 (overpays)
    assert pay([7, 5, 3], 0, 1, 6) == (7, 1, 0)       # one card overpaying by one
    assert pay([4, 4, 8], 0, 1, 8) == (8, 1, 0)       # the 8 alone: fewer cards
    assert pay([2], 3, 3, 4) == (4, 2, 1)             # one joker per number card at most
    # six tens: totals past 63 in a one-word search must not wrap around
    assert pay([7, 7, 8, 9, 9, 9] + [10] * 6, 1, 1, 1) == (7, 1, 0)   # one seven


def test_k8_ties_go_to_more_cards_of_the_highest_value():
    counts = np.array([1, 0, 3, 0, 3, 1, 0, 2, 1, 2])  # 2, 4 4 4, 6 6 6, 7, 9 9, T, 2 jokers
    value, pay = payment(counts, 1, 55)
    assert value == 55 and pay.tolist() == [0, 0, 1, 0, 1, 1, 0, 2, 1, 1]  # T 9 9 7 6 4 + JK


def test_k8_with_a_joker_the_tie_break_looks_past_the_first_payment_with_fewest_cards():
    # 3, 5, 7, 8 and a joker, price 25: 8 + 7 doubled + 3 is found first, with four
    # cards and a joker like 8 + 7 + 5 doubled, which pays the five, not the three
    value, pay = payment(np.array([0, 1, 0, 1, 0, 1, 1, 0, 0, 1]), 1, 25)
    assert value == 25 and pay.tolist() == [0, 0, 0, 1, 0, 1, 1, 0, 0, 1]


def test_k8_one_or_two_cards_worth_the_price_are_paid_without_a_search():
    """``payment._one_or_two_cards``: a card of the price; else the plain pair with the
    highest card; else a card doubled by a joker; else the search."""
    def pay(values, jokers, jp, price):
        counts = np.bincount([v - 2 for v in values] + [JOKERS] * jokers, minlength=10)
        value, p = payment(counts, jp, price)
        return value, sorted(i + 2 for i in range(9) for _ in range(p[i])), int(p[JOKERS])

    assert pay([3, 4, 7, 10], 1, 1, 7) == (7, [7], 0)            # one card, not 3 + 4
    assert pay([2, 3, 6, 6, 9, 10], 1, 1, 12) == (12, [2, 10], 0)  # the ten's pair first
    assert pay([3, 5, 6, 6, 7, 9], 0, 1, 12) == (12, [3, 9], 0)
    assert pay([6, 6, 8], 1, 1, 12) == (12, [6, 6], 0)          # two sixes: no joker
    assert pay([6, 8], 1, 1, 12) == (12, [6], 1)                # one six, doubled
    assert pay([6, 8], 1, 0, 12) == (14, [6, 8], 0)             # no joker allowed
    assert pay([10, 10], 0, 1, 20) == (20, [10, 10], 0)         # the largest pair
    assert pay([2, 2, 3], 0, 1, 1) == (2, [2], 0)               # price 1: a two overpays
    assert pay([4, 4, 4], 1, 1, 12) == (12, [4, 4, 4], 0)       # three cards: the search


@settings(max_examples=300, deadline=None)
@given(hands, st.integers(0, 3), st.integers(1, 22))
def test_k8_small_prices_against_every_payment(counts, jokers_per_payment, price):
    """Prices up to two tens and a little more: where one or two cards may pay exactly."""
    value, pay = payment(counts, jokers_per_payment, price)
    best = _brute_force(counts.tolist(), jokers_per_payment, price)
    if best is None:
        assert value == -1
    else:
        assert (value - price, int(pay.sum()), int(pay[JOKERS]), pay[:9].tolist()) == best


TWO_DECKS = MONEY_DECK * 2


def test_k8_prices_at_the_bit_set_word_boundaries():
    """Prices whose totals need one word, two words or more of the search's bit sets
    (prices 44/45 and 108/109 switch), with 0..3 jokers per payment, against the
    exhaustive enumeration."""
    rng = np.random.default_rng(13)
    checked = 0
    while checked < 120:
        counts = np.bincount([TWO_DECKS[i] for i in rng.choice(len(TWO_DECKS), 12, replace=False)],
                             minlength=10)
        jp = checked % 4
        price = int(rng.choice([43, 44, 45, 46, 107, 108, 109, 110]))
        if most_payable(counts, jp) < price:
            continue
        value, pay = payment(counts, jp, price)
        assert (value - price, int(pay.sum()), int(pay[JOKERS]), pay[:9].tolist()) == \
            _brute_force(counts.tolist(), jp, price)
        checked += 1


def test_the_search_divides_exactly_by_multiplying():
    from sim.games.aukcio.payment import DIV_MUL, DIV_SHIFT

    x = np.arange(1 << 16, dtype=np.int64)
    for w in range(2, 11):
        assert ((x * DIV_MUL[w]) >> DIV_SHIFT == x // w).all()


def test_k6_k8_a_price_the_seat_cannot_reach_pays_nothing():
    """The search finds no total within a doubled ten of the price, so the price is more
    than the seat can pay (K6); prices past every total two decks hold included."""
    every_card = np.bincount(TWO_DECKS, minlength=10)
    for counts in (np.bincount([8, 8, JOKERS], minlength=10), every_card):
        for jp in range(4):
            most = most_payable(counts, jp)
            assert payment(counts, jp, most)[0] == most
            for price in (most + 1, most + 19, most + 20, 511, 512, 600, 10_000):
                if price > most:
                    value, pay = payment(counts, jp, price)
                    assert value == -1 and not pay.any()
