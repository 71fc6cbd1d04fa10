"""Card encoding and text form (rules/README.md, "Cards")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.cards import JOKER, format_card, parse_card, parse_cards
from sim.errors import BidlabError


@given(st.integers(0, 52))
def test_format_parse_round_trip(code):
    assert parse_card(format_card(code)) == code


@pytest.mark.parametrize("text,expected", [("TH", "TH"), ("10h", "TH"), ("as", "AS"),
                                           ("A♠", "AS"), ("2♣", "2C"), ("Q♦", "QD"),
                                           ("JK", "JK"), ("joker", "JK")])
def test_parser_accepts_variants(text, expected):
    assert format_card(parse_card(text)) == expected


def test_suit_order_is_bridge_order():
    assert [format_card(c) for c in (0, 13, 26, 39)] == ["2C", "2D", "2H", "2S"]
    assert format_card(12) == "AC" and JOKER == 52


def test_parse_many():
    assert [format_card(c) for c in parse_cards("TH, AS 2c")] == ["TH", "AS", "2C"]


@pytest.mark.parametrize("bad", ["", "1H", "TX", "ZZ", "AHH"])
def test_bad_card_names_the_text(bad):
    with pytest.raises(BidlabError, match="cannot read card"):
        parse_card(bad)
