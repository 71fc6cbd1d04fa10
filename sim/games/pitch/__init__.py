"""pitch -- Auction Pitch / Setback (``rules/pitch.md``): one bidding round, six
tricks, first to the target score wins. The first trick-taking game: its trick
machinery lives in ``sim/tricks.py`` for the others to reuse."""

from sim.game import game_package
from sim.games.pitch.engine import hidden_deals

GAME = game_package(
    __name__,
    title="Auction Pitch / Setback: one bidding round, six tricks, first to the target",
    tables={
        "seats": "one row per game and seat: final score, win share, points won, deals in "
                 "the game, contracts pitched/made/set (in all and by contract 1..4)",
        "deals": "one row per game, deal and seat: dealer, pitcher, contract, made (null on "
                 "a redeal), hold, stuck, trump (0..3 = C, D, H, S), which of high/low/jack/"
                 "joker/game this seat won, deal score, score after",
    },
    summary_metrics=("score", "win"),
    match_metrics=(("deals", "mean deals per game (redeals included)"),),
    ratio_metrics=tuple((f"bid made rate by contract: {b}", f"made_{b}", f"pitched_{b}")
                        for b in range(1, 5))
    + (("bid made rate by contract: all", "made", "pitched"),),
    hidden_deals=hidden_deals,
    view_rules={"max_deals": 1},
    view_columns=("redeals",) + tuple(f"pitched_{b}" for b in range(1, 5)),
)
