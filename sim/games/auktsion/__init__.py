"""auktsion -- the Russian rank auction (``rules/auktsion.md``)."""

from sim.game import Game
from sim.games.auktsion import rules as _rules
from sim.games.auktsion.engine import run_chunk
from sim.games.auktsion.referee import replay
from sim.games.auktsion.rollout import run_rollouts
from sim.games.auktsion.situation import HELP as _SITUATION_HELP
from sim.games.auktsion.trace import trace

GAME = Game(
    name="auktsion",
    title="rank auction: ranks 2..A sold one by one, money carried over",
    rule_keys=_rules.KEYS,
    make_rules=_rules.make,
    n_seats=lambda rules: rules.players,
    run_chunk=run_chunk,
    trace=trace,
    replay=replay,
    tables={
        "seats": "one row per match and seat: score, win share, points, money spent and left",
        "deals": "one row per match, deal and seat: money at the start, hand points, points, spent",
        "lots": "one row per match, deal and lot: rank, starter, buyer, price, buyer's value, calls",
    },
    summary_metrics=("score", "win", "money_spent"),
    rollouts=run_rollouts,
    situation_help=_SITUATION_HELP,
)
