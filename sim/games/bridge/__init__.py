"""bridge -- the contract bridge auction on double-dummy results (``rules/bridge.md``):
one board per match, dealer and vulnerability by board number, an auction by four
bidding policies, the declarer's double-dummy tricks from an exact solver (DDS through
``endplay``; solved boards are cached on disk, see ``dd.py``) and the duplicate score.
"""

from sim.game import Game
from sim.games.bridge import rules as _rules
from sim.games.bridge.engine import run_chunk
from sim.games.bridge.pbn import PbnWriter, read_deals
from sim.games.bridge.referee import replay
from sim.games.bridge.rollout import run_rollouts
from sim.games.bridge.situation import HELP as _SITUATION_HELP
from sim.games.bridge.situation import METRIC as _BIDEV_METRIC
from sim.games.bridge.situation import OUTCOMES as _BIDEV_OUTCOMES
from sim.games.bridge.situation import ROLLOUTS as _BIDEV_ROLLOUTS
from sim.games.bridge.trace import trace, trace_pbn

GAME = Game(
    name="bridge",
    title="contract bridge auction on double-dummy results, duplicate score and IMPs",
    rule_keys=_rules.KEYS,
    make_rules=_rules.make,
    n_seats=lambda rules: 4,
    run_chunk=run_chunk,
    trace=trace,
    replay=replay,
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
    rollouts=run_rollouts,
    situation_help=_SITUATION_HELP,
    bidev_metric=_BIDEV_METRIC,
    bidev_outcomes=_BIDEV_OUTCOMES,
    bidev_rollouts=_BIDEV_ROLLOUTS,
    match_metrics=(("score_ns", "mean score_ns per board"),
                   ("imps_ns_vs_par", "mean IMPs per board, NS against par"),
                   ("par_ns", "mean par_ns per board")),
    ratio_metrics=tuple((f"contract level mix: {k}", k, "one")
                        for k in ("passed_out", "partscore", "game", "slam", "grand"))
    + (("doubled contracts: all", "doubled_any", "one"),),
    read_deals=read_deals,
    board_writer=PbnWriter,
    trace_text=trace_pbn,
)
