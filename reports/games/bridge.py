"""bridge's report: a small field of boards, because every new board costs a
double-dummy solve (about 0.15 s of CPU); solved boards are cached on disk, so the
variants, played on the same boards, cost no further solving."""

from __future__ import annotations

from reports.spec import GameSpec, Situation, Variant

SEARCH = 400
"""Boards of the report's seed searched for the bid-EV situations."""


def situations(ctx) -> list[Situation]:
    """Two moments of boards of the report's seed, bid by natural in every seat: the
    responder after partner's one of a major and a pass, and a first speaker with 11 or
    12 HCP (open or pass?). The hidden hands are dealt to fit the calls made."""
    from analysis.runs import policy_arrays, seat_strategies
    from sim.games.bridge import core as C
    from sim.games.bridge import engine as E
    from sim.games.bridge import kernel as K
    from sim.games.bridge.pbn import format_hand
    from sim.games.bridge.rules import SEAT_NAMES, make

    rules = make(dict(ctx.spec.rules))
    seats = seat_strategies("bridge", rules, ["all=natural"])
    hands = E.deal(ctx.seed, 0, SEARCH)
    out, calls = E.auctions(rules, policy_arrays("bridge", seats), seats.labels, ctx.seed, 0,
                            hands, log=True)
    majors = {C.parse_call("1H"): "heart", C.parse_call("1S"): "spade"}
    found: dict[str, Situation] = {}
    for i in range(SEARCH):
        dealer, board = int(out[i, K.B_DEALER]), i % 16 + 1
        first = [int(c) for c in calls[i, :2]]
        if "respond" not in found and first[0] in majors and first[1] == C.PASS:
            seat = (dealer + 2) % 4
            hand = format_hand(int(hands[i, seat]))
            found["respond"] = Situation(
                f"Partner opened {C.call_text(first[0])}: the response",
                {"hand": f"{SEAT_NAMES[seat]}={hand}", "board": str(board),
                 "calls": f"{C.call_text(first[0])},P"},
                f"Board {board}: {SEAT_NAMES[seat]} holds {hand} "
                f"({int(C.hcp(int(hands[i, seat])))} HCP); partner opened one "
                f"{majors[first[0]]} and the next hand passed.")
        if "open" not in found and C.hcp(int(hands[i, dealer])) in (11, 12):
            hand = format_hand(int(hands[i, dealer]))
            found["open"] = Situation(
                "First to speak with 11-12 HCP: open or pass?",
                {"hand": f"{SEAT_NAMES[dealer]}={hand}", "board": str(board)},
                f"Board {board}: the dealer, {SEAT_NAMES[dealer]}, holds {hand} "
                f"({int(C.hcp(int(hands[i, dealer])))} HCP).")
        if len(found) == 2:
            break
    return [found[k] for k in ("respond", "open") if k in found]


SPEC = GameSpec(
    game="bridge",
    n=256,
    intro=("Contract bridge bidding, scored on double-dummy results: four players in two "
           "partnerships (North-South, seats 0 and 2, against East-West) bid for the "
           "contract; the declarer takes the double-dummy number of tricks in its strain, "
           "and the board is scored by duplicate scoring and compared with the par score "
           "in IMPs. Boards are few here because each new one needs an exact double-dummy "
           "solve; `bidlab simulate bridge -n N` scales up (solved boards are cached)."),
    field=("0=natural", "1=random", "2=natural", "3=random"),
    field_note=("North-South bid the natural system; East-West make random legal calls "
                "(doubles rare)."),
    variants=(Variant({"vulnerability": "none"}, "nobody is vulnerable on any board"),
              Variant({"vulnerability": "both"}, "both sides are vulnerable on every board")),
    score_unit="points",
    situations=situations,
)
