"""The natural system's parameters: the indices of ``p`` and their defaults and bounds.

This module imports nothing of ``sim``: ``strategies.bridge`` reads ``NATURAL_PARAMS``
while the bridge kernel is still being imported (see the package's ``__init__``).
"""

from __future__ import annotations

from strategies.base import Param

(OPEN_MIN, NT_MIN, NT_MAX, STRONG_MIN, RESPOND_MIN, INVITE_MIN, GAME_MIN, SLAM_MIN,
 OVERCALL_MIN, PENALTY_MIN, PREEMPT_LEN, GRAND_MIN, NT2_MIN, NT2_MAX, MINOR_GAME_MIN,
 LIMIT_RAISE_MIN, TWO_OVER_ONE_MIN, OVERCALL_TWO_MIN, TAKEOUT_MIN, WEAK_MAX,
 BALANCE_ALLOW, COMPETE_MARGIN) = range(22)

NATURAL_PARAMS = (
    Param("open_min", 12, 8, 16, "points (HCP + length) to open one of a suit", integer=True),
    Param("nt_min", 15, 10, 22, "1NT opening range, low end (balanced, HCP)", integer=True),
    Param("nt_max", 17, 10, 24, "1NT opening range, high end (HCP)", integer=True),
    Param("strong_min", 21, 18, 30, "points for the strong artificial 2C opening",
          integer=True),
    Param("respond_min", 7, 3, 10, "points to answer partner's one-level opening (fewer: "
          "pass)", integer=True),
    Param("invite_min", 25, 22, 28, "invite game when own points + partner's shown "
          "maximum reach this (and own + partner's minimum fall short of game_min)",
          integer=True),
    Param("game_min", 25, 22, 29, "combined points (own + partner's shown minimum) for "
          "3NT or four of a major", integer=True),
    Param("slam_min", 31, 29, 36, "combined points for a small slam (6NT, or six of a "
          "fit after an ace ask)", integer=True),
    Param("overcall_min", 7, 5, 14, "HCP to overcall a five-card suit at the one level",
          integer=True),
    Param("penalty_min", 4.5, 1, 6, "own defensive tricks (quick tricks + trumps beyond "
          "three) needed for a penalty double; with partner's shown points (a trick per "
          "four) the side must expect to beat the contract by a trick"),
    Param("preempt_len", 7, 6, 8, "suit length for a three-level preempt (six cards: a "
          "weak two in D/H/S)", integer=True),
    Param("grand_min", 37, 34, 40, "combined points for a grand slam", integer=True),
    Param("nt2_min", 20, 18, 24, "2NT opening range, low end (balanced, HCP)",
          integer=True),
    Param("nt2_max", 21, 18, 25, "2NT opening range, high end (HCP)", integer=True),
    Param("minor_game_min", 28, 25, 32, "combined points for five of a minor (else 3NT "
          "or a partscore)", integer=True),
    Param("limit_raise_min", 12, 8, 12, "support points for a limit (jump) raise of "
          "partner's suit (a single raise from respond_min, a game-forcing raise from "
          "game_min - open_min)", integer=True),
    Param("two_over_one_min", 10, 8, 13, "HCP for a new suit at the two level in "
          "response (2/1, forcing)", integer=True),
    Param("overcall_two_min", 11, 8, 16, "HCP to overcall at the two level (two more "
          "per level above)", integer=True),
    Param("takeout_min", 12, 9, 16, "HCP for a takeout double (two more per level "
          "above one; any shape with six more)", integer=True),
    Param("weak_max", 10, 7, 12, "most HCP for a weak two, preempt or weak jump "
          "overcall (at least 5)", integer=True),
    Param("balance_allow", 3, 0, 6, "points less needed to act in the passout seat",
          integer=True),
    Param("compete_margin", 0, -1, 1, "compete in a partscore to the fit's length minus "
          "six plus this (law of total tricks)", integer=True),
)
