"""aukcio -- the Hungarian face-card auction paid with number cards (``rules/aukcio.md``)."""

from sim.game import game_package
from sim.games.aukcio.engine import hidden_deals

GAME = game_package(
    __name__,
    title="face-card auction paid with number cards: race to a set of three",
    tables={
        "seats": "one row per match and seat: win, set made, face cards bought, money spent, "
                 "overpaid, cards paid and drawn, money left",
        "matches": "one row per match: lots played, sales, reshuffles, draw or winner",
        "lots": "one row per lot: card, turner, sitting out, buyer, price, overpayment, cards "
                "and jokers paid, calls, whether it completed or blocked a set, money held",
    },
    summary_metrics=("score", "win", "money_spent", "face_cards"),
    share_metrics=("score", "win"),          # the score is the win: 1 for the winner
    hidden_deals=hidden_deals,
)
