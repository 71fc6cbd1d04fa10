"""The shared pieces of bid-EV situations (sim.situation): the keys a game accepts and
the candidate calls, read the same way, with the same messages, for every game."""

import pytest

from sim.errors import BidlabError
from sim.situation import check_keys, parse_candidates, span

KEYS = ("seat", "hand", "money", "lot")


def test_known_keys_pass_and_an_unknown_key_is_named_with_the_game_keys():
    check_keys("demo", {"seat": 0, "hand": "AH"}, KEYS)
    with pytest.raises(BidlabError) as e:
        check_keys("demo", {"hand": "AH", "colour": "red"}, KEYS)
    assert str(e.value) == "unknown demo situation key 'colour'; known keys: seat, hand, money, lot"


def test_a_typo_gets_the_nearest_key_and_every_unknown_key_is_named():
    with pytest.raises(BidlabError, match=r"^unknown demo situation keys 'colour', 'mony' "
                                          r"\(did you mean money\?\); known keys: seat,"):
        check_keys("demo", {"mony": 3, "colour": "red"}, KEYS)


def test_keys_that_stand_for_something_are_accepted_and_listed_apart():
    check_keys("demo", {"N": "AKQ"}, KEYS, also=("N", "E"), also_means="HAND")
    with pytest.raises(BidlabError, match=r"known keys: seat, hand, money, lot \(or N/E=HAND\)$"):
        check_keys("demo", {"Q": "AKQ"}, KEYS, also=("N", "E"), also_means="HAND")


def test_every_missing_required_key_is_named():
    check_keys("demo", {"hand": "AH", "lot": 7}, KEYS, required=("hand", "lot"))
    with pytest.raises(BidlabError, match=r"^the demo situation needs money=, lot= \(see "):
        check_keys("demo", {"hand": "AH"}, KEYS, required=("hand", "money", "lot"))


# A game of bids 2..6 over a last bid of 2 (legal now: pass, 3..6) and the word pass (0).
PASS = 0


def _illegal(call):
    if call == PASS or 3 <= call <= 6:
        return None
    return "bids are 2..6 (R1)" if not 2 <= call <= 6 else "a bid must beat 2 (R2)"


def _read(given):
    return parse_candidates(given, [PASS, 3], illegal=_illegal, legal_text="pass, bid 3..6",
                            name=lambda c: "pass" if c == PASS else f"bid {c}",
                            syntax="pass, a bid or a range of bids like 3..5",
                            words={"pass": PASS})


def test_candidates_default_words_numbers_ranges_each_once_in_order():
    assert _read(None) == _read([]) == [PASS, 3]
    assert _read(["5, PASS", "3..5 bid 6", "5"]) == [5, PASS, 3, 4, 6]
    assert _read(iter(["4"])) == [4]  # any iterable


@pytest.mark.parametrize("given,message", [
    (["foo"], r"^candidate 'foo': write pass, a bid or a range of bids like 3\.\.5$"),
    (["3..x"], r"^candidate '3\.\.x': write pass"),
    ([".."], r"^candidate '\.\.': write pass"),
    (["0"], r"^candidate '0': write pass"),       # the code of pass is not a bid
    (["-4"], r"^candidate '-4': write pass"),
    (["pass..5"], r"^candidate 'pass\.\.5': a range joins two bids; write pass"),
    (["6..4"], r"^candidate '6\.\.4' runs downward: a range goes from the lower bid up, 4\.\.6$"),
    (["2"], r"^candidate bid 2 is illegal here: a bid must beat 2 \(R2\); legal calls: "
            r"pass, bid 3\.\.6$"),
    (["5..7"], r"^candidate bid 7 \(of 5\.\.7\) is illegal here: bids are 2\.\.6 \(R1\)"),
    (["bid", " , "], r"^no candidate in \['bid', ' , '\]: write pass"),
])
def test_bad_candidates_name_the_value_and_what_is_allowed(given, message):
    with pytest.raises(BidlabError, match=message):
        _read(given)


def test_a_game_reader_and_its_bids():
    """bridge's way: the game reads its calls (ValueError: not a call), bids are codes 3
    and up, so a range runs over the codes between."""
    calls = {"p": 0, "x": 1, "1c": 3, "1d": 4, "1h": 5}

    def read(text):
        return calls[text.lower()] if text.lower() in calls else int("not a call")

    got = parse_candidates(["1C..1H,X"], [], illegal=lambda c: None, legal_text="all",
                           name=str, syntax="P, X or a bid", read=read, is_bid=lambda c: c >= 3)
    assert got == [3, 4, 5, 1]
    with pytest.raises(BidlabError, match=r"^candidate 'P\.\.1H': a range joins two bids"):
        parse_candidates(["P..1H"], [], illegal=lambda c: None, legal_text="all", name=str,
                         syntax="P, X or a bid", read=read, is_bid=lambda c: c >= 3)


def test_span():
    assert (span([]), span(["4"]), span(["3", "4", "5"])) == ("", "4", "3..5")
