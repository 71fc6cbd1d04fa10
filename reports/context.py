"""One game's report in the making (:class:`Context`): its spec and sizes, the
simulations its sections share (each run once, on demand), and what every figure and
table was made from (Parquet) with every run's provenance."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from analysis.runs import Simulation, lone_player, simulate
from analysis.spec import MATCHES, make_rules, seat_strategies
from analysis.tournament import Tournament
from reports.document import Figure, png_bytes
from reports.spec import GameSpec
from reports.style import new_axes
from sim.games import get_game

DETAIL_CAP = 100_000
"""Most matches of the run that keeps per-deal and per-lot tables in memory (auktsion's
lot table has 52 rows per match): memory stays bounded however large ``-n`` is."""


class Context:
    """One game's report in the making: its spec, sizes, runs, data and figures."""

    def __init__(self, spec: GameSpec, n: int | None = None, seed: int = 0,
                 progress: Callable[[str], None] | None = None):
        self.spec = spec
        self.game = spec.game
        self.g = get_game(spec.game)
        self.n = MATCHES.check(int(n if n is not None else spec.n))
        self.seed = seed
        self.rules = make_rules(self.game, spec.rules)
        self.n_seats = self.g.n_seats(self.rules)
        self.default_label = seat_strategies(self.game, self.rules, None).labels[0]
        self.runs: dict[str, Simulation] = {}
        self._tournament: Tournament | None = None
        self._deviations: dict[tuple[str, int], dict[str, np.ndarray]] = {}
        self.provenance: dict[str, Any] = {"game": self.game, "n": self.n, "seed": seed,
                                           "rules": self.rules.to_json(), "runs": {}}
        self.data: dict[str, pd.DataFrame] = {}
        self.figures: dict[str, bytes] = {}
        self._progress = progress

    # sizes and runs -------------------------------------------------------------------
    def size(self, share: float, minimum: int = 256) -> int:
        """A run size as a share of ``n`` (at least ``minimum``)."""
        return max(minimum, int(round(self.n * share)))

    @property
    def field(self) -> list[str] | None:
        return list(self.spec.field) if self.spec.field else None

    @property
    def entries(self) -> list[str]:
        """The field's distinct strategies, in seat order: the tournament's entries."""
        labels = seat_strategies(self.game, self.rules, self.field).labels
        return list(dict.fromkeys(labels))

    @property
    def multi(self) -> bool:
        """The field holds more than one strategy."""
        return len(self.entries) > 1

    def tournament(self) -> Tournament:
        """The field's strategies in a duplicate tournament (every strategy in every seat
        equally often, on the same matches), with every lineup's seat rows kept."""
        if self._tournament is None:
            from analysis.design import design, positions
            from analysis.tournament import tournament
            entries = self.entries
            lineups = len(design(len(entries), len(positions(self.game, self.n_seats))).lineups)
            share = self.spec.tournament_share
            m = self.size(share if share is not None else 1 / lineups, 64)
            self.status(f"tournament of {len(entries)} strategies ({m:,} matches x "
                        f"{lineups} lineups)")
            self._tournament = tournament(self.game, entries, m, seed=self.seed,
                                          rules=dict(self.spec.rules), keep_seats=True)
            self.provenance["tournament"] = self._tournament.provenance
        return self._tournament

    def status(self, text: str) -> None:
        if self._progress:
            self._progress(f"{self.game}: {text}")

    def run(self, key: str) -> Simulation:
        """``field``: the strategy field at ``n``; ``default``: the default strategy in
        every seat at ``n`` (the field itself when the field is that); ``table``: the
        default strategy in every seat with detail tables at ``detail_share`` of ``n``
        (at most ``DETAIL_CAP``)."""
        if key == "default" and not self.field:
            key = "field"
        if key not in self.runs:
            if key == "field":
                n, strategies, detail = self.n, self.field, False
            elif key == "default":
                n, strategies, detail = self.n, None, False
            elif key == "table":
                n = min(self.size(self.spec.detail_share), DETAIL_CAP)
                strategies, detail = None, True
            else:
                raise KeyError(key)
            self.status(f"simulating {n:,} matches ({key})")
            run = simulate(self.game, n, seed=self.seed, rules=dict(self.spec.rules),
                           strategies=strategies, detail=detail, progress=False)
            self.runs[key] = run
            self.provenance["runs"][key] = run.provenance
        return self.runs[key]

    def deviation(self, strategy: str, m: int) -> dict[str, np.ndarray]:
        """:func:`analysis.runs.lone_player` of ``strategy`` among the spec's rules and
        the default strategy on matches ``0..m-1``, once per strategy and size."""
        key = (strategy, m)
        if key not in self._deviations:
            self._deviations[key] = lone_player(self.game, strategy, m, seed=self.seed,
                                                rules=dict(self.spec.rules))
        return self._deviations[key]

    def table(self, name: str) -> pd.DataFrame:
        """A detail table of the ``table`` run (a game's own sections read them)."""
        return self.run("table").table(name)

    # outputs --------------------------------------------------------------------------
    def keep(self, name: str, frame: pd.DataFrame) -> str:
        """Keep ``frame`` as ``data/<game>_<name>.parquet``; returns the file stem."""
        stem = f"{self.game}_{name}"
        self.data[stem] = frame.reset_index(drop=True)
        return stem

    def figure(self, name: str, draw: Callable[[Any], Any], caption: str,
               data: str | None = None, figsize: tuple[float, float] | None = None) -> Figure:
        ax = new_axes(figsize)
        draw(ax)
        stem = f"{self.game}_{name}"
        png = png_bytes(ax)
        self.figures[stem] = png
        return Figure(stem, png, caption, alt=caption, data=data)

    def digest(self) -> str:
        """A hash of every number kept (12 significant digits): equal digests, equal results."""
        h = hashlib.sha256()
        for stem in sorted(self.data):
            h.update(stem.encode())
            h.update(self.data[stem].to_csv(index=False, float_format="%.12g").encode())
        return h.hexdigest()[:16]
