"""bridge boards in and out: PBN export of every board played, import of PBN boards
(simulate, trace, team, pairs), the errors of a bad file, matchpoints across a field of
strategies, and a Dask cluster that solves and plays like a local run.

Double-dummy results come from ``tests/data/bridge_dd.json`` (boards 0..47 of seed 1)
loaded into a temporary cache; no test solves more than two new boards.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from sim.errors import BidlabError, PbnError
from sim.games.bridge import dd as DD
from sim.games.bridge import engine as E
from sim.games.bridge.pbn import HEADER, board_text, format_deal, parse_deal, read_deals, read_pbn
from sim.games.bridge.rules import SEAT_NAMES

FIXTURE = Path(__file__).parent / "data" / "bridge_dd.json"
BOARDS = json.loads(FIXTURE.read_text())["boards"]
SEED, N = 1, len(BOARDS)
MIXED = ["0=natural", "1=random", "2=par", "3=natural:nt_min=14,nt_max=16"]


@pytest.fixture(autouse=True)
def dd_cache(tmp_path, monkeypatch):
    """A fresh on-disk cache holding the fixture's boards; solving more than two boards
    in a test is an error."""
    monkeypatch.setenv("BIDLAB_DD_CACHE", str(tmp_path / "dd.sqlite"))
    DD.import_json(FIXTURE)
    DD.set_solve_limit(2)
    yield
    DD.set_solve_limit(None)


def _games(path) -> str:
    """A PBN file without its header comments (which name the source)."""
    return "\n".join(line for line in Path(path).read_text().splitlines()
                     if not line.startswith("%"))


def _write(path, games: list[str]) -> Path:
    Path(path).write_text(HEADER + "\n" + "\n".join(games))
    return Path(path)


# --------------------------------------------------------------------------- export

def test_simulate_writes_every_board_as_pbn_b1_b11(tmp_path):
    from bidlab import api
    path = tmp_path / "run.pbn"
    run = api.simulate("bridge", N, seed=SEED, strategies=MIXED, detail=True, pbn=path)
    table = run.table("boards")
    back = read_pbn(path)
    assert len(back) == N
    for b, row in zip(back, table.itertuples()):
        assert b["board"] == row.board == row.match + 1            # one number a board
        assert b["dealer"] == row.dealer == row.match % 4
        assert b["vulnerability"] == row.vulnerability
        assert format_deal(b["hands"]) == row.deal == BOARDS[row.match]["deal"]
        assert " ".join(b["auction"]) == row.auction
        assert (b["contract"] or "") == row.contract
        if row.contract:
            assert (b["declarer"], b["tricks"]) == (row.declarer, row.tricks)
        assert b["score_ns"] == row.score_ns and b["par_ns"] == row.par_ns        # B11, B12
    header = path.read_text().splitlines()[:4]
    assert header[:2] == ["% PBN 2.1", "% EXPORT"] and "seed 1" in header[2]


def test_exported_pbn_reads_in_endplay(tmp_path):
    """An independent PBN reader (endplay's) sees the same deals, vulnerability,
    contracts and auctions."""
    from endplay.parsers import pbn as endplay_pbn
    from endplay.types import Vul

    from bidlab import api
    path = tmp_path / "run.pbn"
    table = api.simulate("bridge", N, seed=SEED, strategies=MIXED, detail=True,
                         pbn=path).table("boards")
    with open(path) as f:
        boards = endplay_pbn.load(f)
    vul = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "Both": Vul.both}
    assert len(boards) == N
    for b, row in zip(boards, table.itertuples()):
        assert b.board_num == row.board and b.deal.to_pbn() == row.deal
        assert b.vul == vul[row.vulnerability] and int(b.dealer) == row.dealer
        assert len(b.auction) == len(row.auction.split())
        if row.contract:
            assert int(b.contract.level) == int(row.contract[0])
            assert int(b.contract.declarer) == row.declarer


def _endplay_games(path) -> list[list[str]]:
    """Per game of a PBN file, its tag names in file order (endplay's parser reads
    the file too, and must find every game)."""
    from endplay.parsers import pbn as endplay_pbn
    with open(path) as f:
        boards = endplay_pbn.load(f)
    games = [[line.split()[0][1:] for line in g.splitlines() if line.startswith("[")]
             for g in Path(path).read_text().split("\n\n") if "[Deal " in g]
    assert len(boards) == len(games)
    return games


def test_bridge_deal_pbn_is_export_format_b1(tmp_path, capsys):
    """Issue 35: `bridge deal --pbn` writes every mandatory tag of export format, in
    order, with boards numbered 1..N and the dealer and vulnerability of B1 (board 17
    dealt like board 1); endplay reads it, with the contract unknown (not passed out)."""
    from endplay.parsers import pbn as endplay_pbn

    from bidlab.cli import main
    from sim.games.bridge.pbn import MANDATORY
    path = tmp_path / "strong.pbn"
    assert main(["bridge", "deal", "--hcp", "N=20-", "-n", "20", "--seed", "3",
                 "--pbn", str(path)]) == 0
    capsys.readouterr()
    games = _endplay_games(path)
    assert all(tuple(tags[:len(MANDATORY)]) == MANDATORY for tags in games)
    with open(path) as f:
        boards = endplay_pbn.load(f)
    assert [b.board_num for b in boards] == list(range(1, 21))
    dealers = "NESW"
    vul = ["None", "NS", "EW", "Both", "NS", "EW", "Both", "None",
           "EW", "Both", "None", "NS", "Both", "None", "NS", "EW"]
    for i, b in enumerate(read_pbn(path)):
        assert (b["board"], SEAT_NAMES[b["dealer"]], b["vulnerability"]) == (
            i + 1, dealers[i % 4], vul[i % 16])                                   # B1
        assert b["contract"] is None and b["auction"] is None
    assert all(b.contract is None for b in boards)
    from sim.games.bridge import core as C
    from sim.games.bridge.pbn import parse_hand
    assert all(C.hcp(int(parse_hand(format_deal(b["hands"])[2:].split()[0]))) >= 20
               for b in read_pbn(path))


def test_team_scorecard_numbers_boards_1_to_n_b1(capsys):
    """Issue 35: `bridge team` scorecards number the boards 1..N, dealer and
    vulnerability by B1 (seed 0's boards ship solved: nothing to solve)."""
    from bidlab.cli import main
    assert main(["bridge", "team", "--a", "natural", "--b", "random", "-n", "20", "--seed",
                 "0", "--json", "--no-progress"]) == 0
    card = json.loads(capsys.readouterr().out)["scorecard"]
    assert [row["board"] for row in card] == list(range(1, 21))
    assert [row["dealer"] for row in card] == ["NESW"[i % 4] for i in range(20)]
    assert card[16]["vulnerability"] == card[0]["vulnerability"] == "None"


def test_simulate_pbn_has_every_export_tag_and_unique_boards(tmp_path):
    """Issue 35: `simulate --pbn` over more than 16 boards: every mandatory tag in
    order, board numbers 1..N, read by endplay."""
    from bidlab import api
    from sim.games.bridge.pbn import MANDATORY
    path = tmp_path / "run.pbn"
    api.simulate("bridge", N, seed=SEED, strategies=MIXED, pbn=path)
    games = _endplay_games(path)
    assert len(games) == N > 16
    assert all(tuple(tags[:len(MANDATORY)]) == MANDATORY for tags in games)
    assert [b["board"] for b in read_pbn(path)] == list(range(1, N + 1))


def test_round_trip_export_import_same_boards_same_results(tmp_path):
    """Export, then import: the same boards, the same auctions and scores, and the
    export of the imported run is the same file (but for its header)."""
    from bidlab import api
    a, b = tmp_path / "a.pbn", tmp_path / "b.pbn"
    first = api.simulate("bridge", N, seed=SEED, strategies=MIXED, detail=True, pbn=a)
    again = api.simulate("bridge", seed=SEED, strategies=MIXED, detail=True, boards=a, pbn=b)
    assert again.provenance["n"] == N and again.provenance["boards"]["count"] == N
    assert first.seats.equals(again.seats)
    assert first.table("boards").equals(again.table("boards"))
    assert _games(a) == _games(b)
    deals = read_deals(a)
    assert (deals[:, :4] == E.deal(SEED, 0, N)).all()


def test_trace_pbn_is_the_board_simulate_wrote(tmp_path, capsys):
    from bidlab import api
    from bidlab.cli import main
    path = tmp_path / "run.pbn"
    api.simulate("bridge", 8, seed=SEED, strategies=MIXED, pbn=path)
    spec = [x for item in MIXED for x in ("--strategy", item)]
    assert main(["trace", "bridge", "--seed", str(SEED), "--index", "5", "--pbn", *spec]) == 0
    printed = capsys.readouterr().out
    one = tmp_path / "one.pbn"
    one.write_text(printed)
    assert printed.startswith(HEADER)
    game = _games(one).strip()
    assert game in _games(path)
    assert read_pbn(one)[0]["board"] == 6


# --------------------------------------------------------------------------- import

def test_imported_tags_set_board_dealer_and_vulnerability_b1(tmp_path):
    """Tags present win; tags absent fall back on B1 (by the Board tag, else by the
    board's place in the file); a fixed vulnerability rule wins over the file. The
    referee agrees with every trace."""
    from bidlab import api
    d = [BOARDS[i]["deal"] for i in range(4)]
    path = _write(tmp_path / "tags.pbn", [
        f'[Board "7"]\n[Dealer "W"]\n[Vulnerable "All"]\n[Deal "{d[0]}"]\n',
        f'[Deal "{d[1]}"]\n',                                 # no tags: B1 of index 1
        f'[Board "18"]\n[Deal "{d[2]}"]\n',                   # board 18 is dealt like 2
        f'[Board "5"]\n[Vulnerable "-"]\n[Deal "{d[3]}"]\n'])
    expected = [(7, 3, "Both"), (2, 1, "NS"), (18, 1, "NS"), (5, 0, "None")]
    for i, (board, dealer, vul) in enumerate(expected):
        t = api.trace("bridge", seed=SEED, index=i, strategies=["all=natural"], boards=path,
                      check=True)
        assert (t["board"], t["dealer"], t["vulnerability"]) == (board, dealer, vul)
        assert t["deal"] == d[i] and t["imported"]["board"] == (None if i == 1 else board)
    t = api.trace("bridge", seed=SEED, index=0, boards=path, rules={"vulnerability": "ns"},
                  check=True)
    assert (t["dealer"], t["vulnerability"]) == (3, "NS")
    run = api.simulate("bridge", seed=SEED, boards=path, detail=True, strategies=["all=natural"])
    boards = run.table("boards")
    assert boards["board"].tolist() == [7, 2, 18, 5]
    assert boards["dealer"].tolist() == [3, 1, 1, 0]


def test_pbn_reader_takes_comments_inheritance_and_auction_notation(tmp_path):
    d = BOARDS[0]["deal"]
    path = tmp_path / "x.pbn"
    path.write_text(
        "% PBN 2.1\n% a comment line\n\n"
        '[Event "club"]\n[Site "?"]\n[Board "3"] ; a comment\n[Dealer "S"]\n'
        '[Vulnerable "EW"]\n{ a block\ncomment } \n'
        f'[Deal "{d}"]\n[Declarer "S"]\n[Contract "3NT"]\n[Result "9"]\n'
        '[Score "NS 400"]\n[Auction "S"]\n1NT =1= Pass 3NT! AP\n[Note "1:15-17"]\n\n'
        '[Event "#"]\n[Board "4"]\n[Dealer "W"]\n[Vulnerable "#"]\n'
        f'[Deal "{BOARDS[1]["deal"]}"]\n[Contract "Pass"]\n[Auction "W"]\nPass Pass Pass Pass\n'
        '\n[Event "scores only"]\n[TotalScoreTable "Rank\\\\1R"]\n1\n')
    a, b = read_pbn(path)
    assert (a["board"], a["dealer"], a["vulnerability"]) == (3, 2, "EW")
    assert format_deal(a["hands"]) == d
    assert a["auction"] == ["1N", "P", "3N", "P", "P", "P"]
    assert (a["contract"], a["declarer"], a["tricks"], a["score_ns"]) == ("3N", 2, 9, 400)
    assert (b["board"], b["dealer"], b["vulnerability"]) == (4, 3, "EW")   # '#' inherits
    assert b["contract"] is None and b["auction"] == ["P"] * 4


@pytest.mark.parametrize("deal, message", [
    ("N:AKQ52.K3.742.Q87 AKQ52.K3.742.Q87 - -", r"board 3 \(game 1, line 5\).*South hand is not given"),
    (BOARDS[0]["deal"][:-1], r"board 3 .*incomplete deal.*West holds 12 cards, not 13; "
                             r"nobody holds C4"),
    (BOARDS[0]["deal"][:-1] + "K", r"board 3 .*CK is dealt twice \(East and West\)"),
    ("N:AKJ4.KQ2.K98.Q96 T93.AJT.A763.K72 865.87654.JT5.T3", r"incomplete deal.*3 hands"),
    ("AKJ4.KQ2.K98.Q96", r"cannot read deal"),
    (BOARDS[0]["deal"].replace("AKJ4", "AKJZ"), r"'Z' is not a rank"),
])
def test_bad_deal_names_the_board_and_what_is_wrong(tmp_path, deal, message):
    path = _write(tmp_path / "bad.pbn", [f'[Board "3"]\n[Deal "{deal}"]\n'])
    with pytest.raises(PbnError, match=message):
        read_deals(path)


def test_bad_files_and_tags_are_clear_errors(tmp_path, capsys):
    from bidlab.cli import main
    d = BOARDS[0]["deal"]
    cases = [
        (tmp_path / "missing.pbn", r"cannot read .*missing.pbn: no such file"),
        (_write(tmp_path / "empty.pbn", ['[Event "x"]\n']), r"no deal in this file"),
        (_write(tmp_path / "d.pbn", [f'[Board "2"]\n[Dealer "Q"]\n[Deal "{d}"]\n']),
         r"board 2 .*Dealer tag 'Q' is not a seat"),
        (_write(tmp_path / "v.pbn", [f'[Vulnerable "Red"]\n[Deal "{d}"]\n']),
         r"the file's board 1 .*Vulnerable tag 'Red' is not allowed: None, NS, EW, All"),
        (_write(tmp_path / "b.pbn", [f'[Board "0"]\n[Deal "{d}"]\n']),
         r"Board tag '0' is not a board number"),
    ]
    for path, message in cases:
        with pytest.raises(PbnError, match=message):
            read_deals(path)
        assert main(["simulate", "bridge", "--boards", str(path), "--no-progress"]) == 2
        assert "error:" in capsys.readouterr().err
    good = _write(tmp_path / "good.pbn", [f'[Deal "{d}"]\n'])
    with pytest.raises(BidlabError, match=r"-n 5: .*holds only 1 boards"):
        from bidlab import api
        api.simulate("bridge", 5, boards=good)
    with pytest.raises(BidlabError, match=r"--index 1: .*holds 1 boards \(indices 0..0\)"):
        api.trace("bridge", index=1, boards=good)
    assert main(["simulate", "auktsion", "--boards", str(good), "-n", "1"]) == 2
    assert "games that import boards from a file: bridge" in capsys.readouterr().err
    assert main(["trace", "auktsion", "--pbn"]) == 2
    assert main(["bridge", "best", "--boards", str(good)]) == 2


def test_board_text_writes_notrump_doubles_and_passed_out():
    b = {"board": 9, "dealer": 0, "vulnerability": "EW", "deal": BOARDS[0]["deal"],
         "auction": ["1N", "X", "XX", "P", "P", "P"], "contract": "1NXX", "declarer": 0,
         "tricks": 8, "score_ns": 560, "par_ns": -100}
    text = board_text(b, players=("n", "e", "s", "w"))
    assert '[Contract "1NTXX"]' in text and "1NT X XX Pass" in text
    assert '[Result "8"]' in text and '[Score "NS 560"]' in text
    assert '[OptimumScore "NS -100"]' in text and '[Vulnerable "EW"]' in text
    assert text.index('[West "w"]') < text.index('[North "n"]') < text.index('[South "s"]')
    out = board_text(dict(b, auction=["P"] * 4, contract=None, score_ns=0))
    assert '[Contract "Pass"]' in out and '[Declarer ""]' in out and '[Result ""]' in out


# --------------------------------------------------------------------------- team, pairs

def test_team_match_on_imported_boards_equals_dealt(tmp_path):
    """The same boards from a file (tags as B1) give the team match the same IMPs."""
    from analysis.bridge import team_match
    from bidlab import api
    path = tmp_path / "run.pbn"
    api.simulate("bridge", N, seed=SEED, pbn=path)
    dealt = team_match("natural", "random", N, seed=SEED)
    imported = team_match("natural", "random", N, seed=SEED, deals=read_deals(path))
    assert (dealt.imps == imported.imps).all() and dealt.ci_low == imported.ci_low


def test_cli_team_with_boards(tmp_path, capsys):
    from bidlab import api
    from bidlab.cli import main
    path = tmp_path / "run.pbn"
    api.simulate("bridge", 16, seed=SEED, pbn=path)
    assert main(["bridge", "team", "--a", "natural", "--b", "pass", "--boards", str(path),
                 "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["boards"] == 16 and r["boards_file"] == str(path)


def test_a_strategy_against_itself_scores_exactly_50_percent_b11():
    from analysis.bridge import pairs
    r = pairs(["natural", "natural"], N, seed=SEED)
    assert r.fields == ["natural", "natural #2"]
    assert (r.scores["pct"] == 50).all()
    assert r.frame["pct"].tolist() == [50.0, 50.0]
    d = r.differences.iloc[0]
    assert d["diff"] == 0 and d["p_value"] == 1.0
    rnd = pairs(["random", "random"], N, seed=SEED)          # same random streams, too
    assert (rnd.scores["pct"] == 50).all()


def test_pairs_matchpoints_by_hand_on_the_fixture_b11():
    """Two fields: 100 for the higher NS score, 50 a tie, 0 the lower. Three fields:
    2 per result beaten, 1 per tie, over a top of 4. Each board's percentages average
    50 (matchpoints are zero-sum); the paired difference is the mean difference."""
    from analysis.bridge import pairs, strategy_policies
    from sim.games.bridge.rules import make
    from sim.games.bridge.tools import play_tables, seating
    specs = ["natural", "random", "par"]
    r = pairs(specs, N, seed=SEED, opponents="natural")
    rules = make()
    _, po = strategy_policies("natural")
    seatings = [(seating(strategy_policies(s)[1], po), (s, "natural") * 2) for s in specs]
    ns = play_tables(seatings, N, SEED, rules).score_ns
    mp = np.zeros((3, N))
    for a in range(3):
        for b in range(3):
            if a != b:
                mp[a] += 2 * (ns[a] > ns[b]) + (ns[a] == ns[b])
    pct = 100 * mp / 4
    got = r.scores.pivot(index="match", columns="field", values="pct")[specs].to_numpy().T
    assert np.allclose(got, pct)
    assert np.allclose(r.frame["pct"], pct.mean(axis=1))
    assert np.allclose(got.mean(axis=0), 50)
    first = r.differences.iloc[0]
    assert (first["first"], first["second"]) == ("natural", "random")
    assert np.isclose(first["diff"], (pct[0] - pct[1]).mean())  # first minus second
    assert first["ci_low"] <= first["diff"] <= first["ci_high"]
    two = pairs(["natural", "random"], N, seed=SEED)
    a, b = ns[0], ns[1]
    expected = np.where(a > b, 100.0, np.where(a == b, 50.0, 0.0))
    assert np.isclose(two.frame["pct"].iloc[0], expected.mean())


def test_cli_pairs_json_and_errors(tmp_path, capsys):
    from bidlab.cli import main
    assert main(["bridge", "pairs", "natural", "random", "-n", "16", "--seed", str(SEED),
                 "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert [f["field"] for f in r["fields"]] == ["natural", "random"]
    assert all(f["ci_low"] <= f["pct"] <= f["ci_high"] for f in r["fields"])
    assert r["differences"][0]["first"] == "natural" and r["provenance"]["boards"] == 16
    assert main(["bridge", "pairs", "natural", "-n", "4"]) == 2
    assert "at least two strategies" in capsys.readouterr().err
    assert main(["bridge", "team", "natural", "random"]) == 2
    assert main(["bridge", "pairs", "natural", "nonsense", "-n", "4"]) == 2
    assert main(["bridge", "pairs", "natural", "pass", "-n", "16", "--seed", str(SEED)]) == 0
    out = capsys.readouterr().out
    assert "matchpoints % [95% CI]" in out and "paired differences" in out


# --------------------------------------------------------------------------- Dask

@pytest.mark.slow
def test_dask_cluster_solves_and_plays_like_a_local_run(tmp_path):
    """Two worker processes each play one chunk of 1,024 imported boards, solving the one
    board of their chunk that is not cached yet into the shared temporary cache; the local
    run that follows finds both solved and gives the same tables and the same PBN."""
    from bidlab import api
    new = E.deal(SEED, N, 2)                                   # boards 48, 49: not cached
    keys = DD.deal_keys(new)
    assert not DD.cache().get(keys)
    games = []
    for i in range(2048):
        if i in (700, 1500):
            hands, board = new[i // 1024], N + i // 1024
        else:
            j = i % N
            hands, board = parse_deal(BOARDS[j]["deal"]), j
        b = board % 16 + 1
        games.append(f'[Board "{b}"]\n[Deal "{format_deal(hands)}"]\n')
    path = _write(tmp_path / "many.pbn", games)
    spec = ["all=natural", "1=random"]
    dist = api.simulate("bridge", seed=SEED, strategies=spec, boards=path, detail=True,
                        chunk_size=1024, workers=2, pbn=tmp_path / "dist.pbn")
    assert set(DD.cache().get(keys)) == set(keys)           # the workers wrote them
    DD.set_solve_limit(0)
    local = api.simulate("bridge", seed=SEED, strategies=spec, boards=path, detail=True,
                         chunk_size=1024, pbn=tmp_path / "local.pbn")
    assert dist.completed == local.completed == 2048
    assert dist.seats.equals(local.seats)
    assert dist.table("boards").equals(local.table("boards"))
    assert dist.summary.equals(local.summary)
    assert _games(tmp_path / "dist.pbn") == _games(tmp_path / "local.pbn")
