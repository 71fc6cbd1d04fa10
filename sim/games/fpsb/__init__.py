"""fpsb -- a single-lot first-price sealed-bid auction with independent uniform values.

The validation game for the optimisers: F1 each of ``players`` bidders draws a private
value uniform on [0, 1); F2 each submits one sealed bid >= 0; F3 the highest bid wins
the lot and pays its bid (score = value - bid; a tie is split). The symmetric
equilibrium bids (n - 1) / n times the value.
"""

from sim.game import game_package
from sim.games.fpsb.engine import hidden_deals

GAME = game_package(
    __name__,
    title="first-price sealed-bid auction of one lot, uniform values (validation game)",
    tables={"seats": "one row per match and bidder: score (value - price if won), win, value, bid"},
    summary_metrics=("score", "win", "bid"),
    hidden_deals=hidden_deals,
    blind="linear:a=0",
)
