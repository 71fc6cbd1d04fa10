"""``bidlab trace GAME --text``: every game's hand history for people (``trace.text``)
names every seat, shows every call and card in order and the final scores, works on a
trace loaded back from JSON, and keeps its lines short."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from bidlab import api
from bidlab.cli import main
from sim import handtext as HT
from sim.games import all_games, get_game

GAMES = sorted(all_games())
SEED, INDEX = 1, 3
"""Bridge: board 3 of seed 1 is among the boards ``solved_boards`` holds (0..47)."""

_TRACES: dict[str, dict] = {}


@pytest.fixture
def traced(request):
    """``traced(game)``: the trace of match INDEX of seed SEED, made once per game (bridge
    with the fixture's solved boards: no solver runs)."""
    def make(game: str) -> dict:
        if game == "bridge":
            request.getfixturevalue("solved_boards")
        if game not in _TRACES:
            _TRACES[game] = api.trace(game, seed=SEED, index=INDEX)
        return _TRACES[game]
    return make


def flat(text: str) -> str:
    """The text with every run of spaces and line breaks as one space (a wrapped list
    of calls reads as one line)."""
    return " ".join(text.split())


def seat_names(game: str, t: dict) -> list[str]:
    if game == "bridge":
        return list("NESW")
    return [HT.seat(s) for s in range(len(t["strategies"]))]


def expected_sequences(game: str, t: dict) -> list[str]:
    """What the text must show, in order, as runs of words: every call and every card
    played (or paid, drawn, held where nothing is played)."""
    seat = HT.seat
    out = []
    if game in ("pitch", "vybory"):
        for d in t["deals"]:
            if game == "pitch":
                out.append(", ".join(f"{seat(b['seat'])} holds {b['bid']}" if b.get("hold")
                                     else f"{seat(b['seat'])} {HT.bid(b['bid'])}"
                                     for b in d["bids"]))
            else:
                out.append(", ".join(f"{seat(s)} {name}" for s, name in d["announcements"]))
            for tr in d["tricks"]:
                (s0, c0), *rest = tr["cards"]
                out.append(" ".join([f"{seat(s0)} leads {c0}"]
                                    + [f"{seat(s)} {c}" for s, c in rest]
                                    + ["won by", seat(tr["winner"])]))
    elif game == "auktsion":
        for d in t["deals"]:
            for lot in d["lots"]:
                out.append(f"lot {lot['rank']} (starter {seat(lot['starter'])}): "
                           + ", ".join(f"{seat(c['seat'])} {HT.bid(c['bid'])}"
                                       for c in lot["calls"]))
    elif game == "aukcio":
        for lot in t["lots"]:
            out.append(f"{lot['card']}, turned by {seat(lot['turner'])}")
            out.append(", ".join(f"{seat(c['seat'])} {HT.bid(c['bid'])}" for c in lot["calls"]))
            if lot["buyer"] is not None:
                out.append(f"pays {' '.join(lot['payment'])}")
                if lot["buyer_draws"]:
                    out.append(f"draws {' '.join(lot['buyer_draws'])}")
    elif game == "bridge":
        n, e, s, w = ([f"{suit}: {' '.join(ranks) or '-'}"
                       for suit, ranks in zip("SHDC", hand.split("."))] for hand in t["hands"])
        out += ["North", *n, "West", "East"]  # the diagram: W and E side by side
        out += [line for pair in zip(w, e) for line in pair]
        out += ["South", *s]
        calls = ["Pass" if c == "P" else c.replace("N", "NT") for c in t["auction"]]
        out.append(" ".join(calls))
    elif game == "fpsb":
        out += [f"value {' '.join(HT.num(v) for v in t['values'])}",
                f"bid {' '.join(HT.num(b) for b in t['bids'])}"]
    return out


def final_scores(game: str, t: dict) -> list[str]:
    if game == "bridge":
        return [f"NS {HT.signed(t['score_ns'])}", f"par: NS {HT.signed(t['par_ns'])}"]
    scores = t.get("totals", t.get("scores"))
    won = t.get("winners", [] if t.get("winner") is None else [t.get("winner")])
    return [", ".join(f"{HT.seat(s)} {HT.num(x)}" for s, x in enumerate(scores)),
            HT.winners(won)]


def test_every_game_has_a_text_hand_history():
    assert GAMES == ["aukcio", "auktsion", "bridge", "fpsb", "pitch", "vybory"]
    for name in GAMES:
        assert callable(get_game(name).trace_text), name


@pytest.mark.parametrize("game", GAMES)
def test_text_shows_seats_calls_cards_and_scores(game, traced):
    t = traced(game)
    text = get_game(game).trace_text(t)
    lines = text.splitlines()
    assert lines[0] == f"{game}: seed {SEED}, " + {"pitch": "game", "vybory": "tour",
                                                   "fpsb": "auction", "bridge": "index"}.get(
        game, "match") + f" {INDEX}"
    assert "rules: the defaults" in text
    assert all(len(line) <= HT.WIDTH for line in lines), max(lines, key=len)
    assert "\xa0" not in text
    body = flat(text)
    for name, label in zip(seat_names(game, t), t["strategies"]):
        assert f"{name} {label}" in body  # the strategies line
        assert len(re.findall(rf"\b{name}\b", text)) > 1, name
    cursor = 0
    for run in expected_sequences(game, t):  # every call and card, in order
        found = body.find(run, cursor)
        assert found >= 0, f"{run!r} missing (or out of order) in\n{text}"
        cursor = found + len(run)
    for line in final_scores(game, t):
        assert line in body, f"{line!r} missing in\n{text}"


@pytest.mark.parametrize("game", GAMES)
def test_text_of_a_trace_loaded_back_from_json(game, traced):
    t = traced(game)
    again = json.loads(json.dumps(t))
    assert get_game(game).trace_text(again) == get_game(game).trace_text(t)


def test_bridge_text_has_the_diagram_and_the_double_dummy_table(traced):
    t = traced("bridge")
    lines = get_game("bridge").trace_text(t).splitlines()
    north = next(i for i, x in enumerate(lines) if x.strip().startswith("North"))
    west = next(i for i, x in enumerate(lines) if x.strip().startswith("West"))
    south = next(i for i, x in enumerate(lines) if x.strip().startswith("South"))
    assert north < west < south
    assert "East" in lines[west] and lines[west].index("West") < lines[west].index("East")
    assert lines[north].index("North") == lines[south].index("South") > lines[west].index("West")
    head = next(i for i, x in enumerate(lines) if x.split() == ["C", "D", "H", "S", "NT"])
    for s, row in enumerate(t["dd_table"]):
        assert lines[head + 1 + s].split() == ["NESW"[s], *map(str, row)]
    auction = next(i for i, x in enumerate(lines) if x.split() == ["N", "E", "S", "W"])
    assert lines[auction - 1] == "auction:"
    bare = {k: v for k, v in t.items() if k != "dd_table"}
    assert "double-dummy" not in get_game("bridge").trace_text(bare)


def test_house_rules_in_the_header_and_the_joker():
    t = api.trace("pitch", seed=2, index=1, rules={"joker": "true"})
    text = get_game("pitch").trace_text(t)
    # target follows the joker (10): not a rule of its own
    assert text.splitlines()[1] == "rules: joker=true"
    assert ("joker " in text) and any("JK" in d["hands"][s] for d in t["deals"]
                                      for s in range(4)) == ("JK" in text)


def test_changed_rules_against_defaults_that_follow_earlier_keys():
    keys = get_game("auktsion").rule_keys
    rules = get_game("auktsion").make_rules({"players": 3, "suit_points": "4,3,2,1"}).to_json()
    assert HT.changed_rules(rules, keys) == ["players=3"]
    rules = get_game("auktsion").make_rules({"deals_per_match": 2, "carry_money": False,
                                             "suit_points": "1,2,3,4"}).to_json()
    assert HT.changed_rules(rules, keys) == ["deals_per_match=2", "carry_money=false",
                                             "suit_points=1,2,3,4"]


def test_cards_by_suit():
    assert HT.by_suit(["2C", "AS", "TH", "7S", "JK", "KS"]) == "S: A K 7  H: T  D: -  C: 2  JK"
    assert HT.by_rank(["2C", "TD", "JK", "TS", "9H"]) == ["TS", "TD", "9H", "2C", "JK"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", ["pitch", "bridge"])
def test_cli_prints_the_text(capsys, game, traced):
    t = traced(game)
    code, out, err = run(capsys, "trace", game, "--seed", str(SEED), "--index", str(INDEX),
                         "--text", "--check")
    assert code == 0, err
    assert out == get_game(game).trace_text(t)
    assert "referee" in err


def test_cli_text_and_pbn_together_is_an_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["trace", "bridge", "--text", "--pbn"])
    assert info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_cli_text_of_a_game_without_one_says_so(capsys, monkeypatch):
    import sim.games
    plain = dataclasses.replace(get_game("fpsb"), trace_text=None)
    monkeypatch.setattr(sim.games, "get_game", lambda name: plain)
    code, out, err = run(capsys, "trace", "fpsb", "--text")
    assert code == 2 and out == ""
    assert "--text: fpsb has no text hand history" in err


def test_vybory_seat_lists_are_never_split_across_lines():
    """A long contract line (an alt type, the lowest card wins) wraps between the seat
    lists, never inside one ("defenders P0 and" / "P2")."""
    seen = 0
    for index in range(6):
        t = api.trace("vybory", seed=SEED, index=index, rules={"type_set": "alt"})
        for line in get_game("vybory").trace_text(t).splitlines():
            if line.strip().startswith("contract "):
                seen += 1
                assert len(line) <= HT.WIDTH
                assert "defenders" in line or line.rstrip().endswith(",")
            assert not re.search(r"\b(and|attackers|defenders)$", line.rstrip())
    assert seen
