"""House-variant comparison: the same strategies on the same deals (match ``i`` of the
same seed) under several rule sets; every metric side by side with the paired
difference against the first variant, its interval and a paired t-test."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from analysis.runs import StrategySpec, check_seed, make_rules, simulate
from analysis.stats import paired_difference, per_match
from sim.errors import BidlabError
from sim.games import get_game
from sim.rules import parse_assignments


@dataclass
class Comparison:
    """``frame``: one row per metric, group and variant: ``metric, by, name, variant,
    value, diff, ci_low, ci_high, p_value`` (diff = variant - baseline, paired by match)."""

    game: str
    variants: dict[str, dict[str, Any]]
    frame: pd.DataFrame
    provenance: dict[str, Any]
    left_out: dict[str, str] = field(default_factory=dict)
    """Per variant that changes the number of seats: which rows were not paired, and why."""

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "variants": self.variants, "provenance": self.provenance,
                "metrics": self.frame.to_dict(orient="records")}


def parse_variant(text: str) -> dict[str, str]:
    """``"players=3,carry_money=false"`` -> dict (``""`` or ``default``: the defaults)."""
    text = text.strip()
    if text in ("", "default"):
        return {}
    return parse_assignments([t for t in text.split(",") if t.strip()], what="--variant")


def compare(game: str, variants: list[str | Mapping[str, Any]], n: int, *, seed: int = 0,
            strategies: StrategySpec = None, rules: Mapping[str, Any] | None = None,
            metrics: tuple[str, ...] | None = None, progress: bool | None = False) -> Comparison:
    """Run each variant (``rules`` overridden by it) on matches ``0..n-1`` of ``seed``.

    The first variant is the baseline; with a single variant, the default rules (plus
    ``rules``) are the baseline.
    """
    if not variants:
        raise BidlabError("give at least one --variant KEY=VALUE[,KEY=VALUE...]")
    named = {(v if isinstance(v, str) else ",".join(f"{k}={x}" for k, x in v.items())) or "default":
             parse_variant(v) if isinstance(v, str) else dict(v) for v in variants}
    if len(named) == 1 and "default" not in named:
        named = {"default": {}, **named}
    if len(named) < 2:
        raise BidlabError("give at least two different variants to compare")
    g = get_game(game)
    if n < 1:
        raise BidlabError(f"-n {n}: give at least 1 match per variant")
    check_seed(seed)
    for overrides in named.values():  # every variant's rules are checked before any is played
        make_rules(game, {**(rules or {}), **overrides})
    metrics = metrics or g.summary_metrics
    runs = {}
    for label, overrides in named.items():
        runs[label] = simulate(game, n, seed=seed, rules={**(rules or {}), **overrides},
                               strategies=strategies, progress=progress)
    base_label = next(iter(runs))
    seats = {label: g.n_seats(make_rules(game, {**(rules or {}), **o}))
             for label, o in named.items()}
    left_out = {label: (f"{seats[label]} seats against the baseline's {seats[base_label]}: "
                        f"its seat rows are other seats, so only the per-strategy rows are "
                        f"paired (a win share's fair share differs too: 1/{seats[label]} "
                        f"against 1/{seats[base_label]})")
                for label in named if seats[label] != seats[base_label]}
    rows = []
    for metric in metrics:
        base = per_match(runs[base_label].seats, metric)
        for label, run in runs.items():
            for group, series in per_match(run.seats, metric).items():
                if group not in base or (label in left_out and group[0] == "seat"):
                    continue
                d = paired_difference(base[group], series)
                rows.append({"metric": metric, "by": group[0], "name": group[1],
                             "variant": label, "value": float(series.mean()), **d})
    provenance = {"game": game, "n": n, "seed": seed,
                  "rules": {k: r.provenance["rules"] for k, r in runs.items()},
                  "strategies": runs[base_label].provenance["strategies"],
                  "version": runs[base_label].provenance["version"], "left_out": left_out}
    return Comparison(game, named, pd.DataFrame(rows), provenance, left_out)
