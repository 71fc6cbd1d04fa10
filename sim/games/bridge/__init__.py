"""bridge -- the contract bridge auction on double-dummy results (``rules/bridge.md``):
one board per match, dealer and vulnerability by board number, an auction by four
bidding policies, the declarer's double-dummy tricks from an exact solver (DDS through
``endplay``; solved boards are cached on disk, see ``dd.py``) and the duplicate score.
"""

from sim.game import BoardFiles, game_package
from sim.games.bridge.engine import hidden_deals
from sim.games.bridge.pbn import PbnWriter, read_deals
from sim.games.bridge.trace import trace_pbn

GAME = game_package(
    __name__,
    title="contract bridge auction on double-dummy results, duplicate score and IMPs",
    n_seats=lambda rules: 4,
    tables={
        "seats": "one row per board and seat: score (duplicate score of the seat's side), "
                 "win (1 if the side beat the par score, 0.5 equal, 0 below), imps_vs_par "
                 "(the side's IMPs against par), score_ns, par_ns, contract level (0 passed "
                 "out), strain (0..4 = C D H S N), doubled (0/1/2), declarer, tricks, "
                 "partscore/game/slam/grand/passed_out flags",
        "boards": "one row per board: board number, dealer, vulnerability, the deal "
                  "(PBN), the auction (calls joined by spaces), contract, declarer, tricks, "
                  "score_ns, par_ns",
    },
    default_n=1000,
    summary_metrics=("score", "imps_vs_par", "win"),
    match_metrics=(("score_ns", "mean score_ns per board"),
                   ("imps_ns_vs_par", "mean IMPs per board, NS against par"),
                   ("par_ns", "mean par_ns per board")),
    table_ratios=tuple((f"contract level mix: {k}", k, "one")
                        for k in ("passed_out", "partscore", "game", "slam", "grand"))
    + (("doubled contracts: all", "doubled_any", "one"),),
    boards=BoardFiles(read=read_deals, writer=PbnWriter, text=trace_pbn),
    sides=(("NS", (0, 2)), ("EW", (1, 3))),
    hidden_deals=hidden_deals,
    blind="random",
    # What a bidder sees is its hand, the board's dealer and vulnerability and the calls;
    # the contract follows from the calls alone, the tricks and scores from every hand.
    view_columns=("level", "strain", "doubled", "declarer"),
)
