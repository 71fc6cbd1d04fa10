"""auktsion -- the Russian rank auction (``rules/auktsion.md``)."""

from sim.game import game_package
from sim.games.auktsion.engine import hidden_deals

GAME = game_package(
    __name__,
    title="rank auction: ranks 2..A sold one by one, money carried over",
    tables={
        "seats": "one row per match and seat: score, win share, points, money spent and left",
        "deals": "one row per match, deal and seat: money at the start, hand points, points, spent",
        "lots": "one row per match, deal and lot: rank, starter, buyer, price, buyer's value, calls",
    },
    summary_metrics=("score", "win", "money_spent"),
    hidden_deals=hidden_deals,
)
