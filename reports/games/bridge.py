"""bridge's report: a small field of boards, because every new board costs a
double-dummy solve (about 0.15 s of CPU); solved boards are cached on disk, so the
variants, played on the same boards, cost no further solving."""

from __future__ import annotations

from reports.spec import GameSpec, Variant

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
)
