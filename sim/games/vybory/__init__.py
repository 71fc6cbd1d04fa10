"""vybory -- "Elections" (``rules/vybory.md``): four players name contract types until
two name the same one; those two attack the other two over 13 tricks. A tour of
``deals_per_match`` deals (8) is the match."""

from sim.game import game_package
from sim.games.vybory.engine import hidden_deals
from sim.games.vybory.rules import PLAYERS

GAME = game_package(
    __name__,
    n_seats=lambda rules: PLAYERS,
    title='"Elections": partners by matching contract types, then 13 tricks',
    tables={
        "seats": "one row per tour and seat: tour score, win share, pair points, tricks, "
                 "deals attacked and won as attacker, deals first announced, deals won and "
                 "drawn, announcements of each type (named_1..named_8, type codes)",
        "deals": "one row per tour and deal: dealer, contract type, first announcer and his "
                 "partner, election length (calls), attackers' tricks, points per pair, "
                 "result (1 win, 0 draw, -1 loss for the attackers)",
        "deal_seats": "one row per tour, deal and seat: the type named in each round "
                      "(null: none), attacker or not, tricks, pair points, deal score, score "
                      "after, the hand dealt (a card mask)",
    },
    summary_metrics=("score", "win", "attack_wins", "tricks"),
    hidden_deals=hidden_deals,
    blind="random+random",
    objective="win",
    view_columns=tuple(f"named_{t}" for t in range(1, 9)),
)
