"""Variant comparison: the same deals (match ``i`` of the same seed) under several rule
sets, or with other strategies in some seats, or both; every metric side by side with
the paired difference against the first variant, its interval and a paired t-test.

A variant is written ``default``, ``KEY=VALUE[,KEY=VALUE...]`` (house rules on top of
the command's), ``strategy SEAT=SPEC [SEAT=SPEC ...]`` (strategies on top of the
command's ``--strategy``, ``SEAT=SPEC`` as there), or parts of both joined by ``;``:
``strategy 0=value; carry_money=false``. Seat rows are paired seat by seat (seat 0
of one variant with seat 0 of the baseline, whatever each plays), a strategy's row
where the baseline has that strategy too."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from analysis.runs import StrategySpec, check_seed, make_rules, seat_strategies, seats_text, simulate
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
    strategies: dict[str, list[str]] = field(default_factory=dict)
    """Per variant: the ``SEAT=SPEC`` items it adds to the command's strategies (empty
    for a rules-only variant)."""

    def __repr__(self) -> str:
        return (f"Comparison({self.game}: {len(self.variants)} variants "
                f"({', '.join(self.variants)}), {self.provenance.get('n', 0):,} matches each)")

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "variants": self.variants,
                "variant_strategies": self.strategies, "provenance": self.provenance,
                "metrics": self.frame.to_dict(orient="records")}


def parse_variant(text: str) -> dict[str, str]:
    """``"players=3,carry_money=false"`` -> dict (``""`` or ``default``: the defaults);
    the rules of a variant (its ``strategy ...`` parts: :func:`parse_variant_parts`)."""
    return parse_variant_parts(text)[0]


_SEATS = re.compile(r"^\s*(all|\d+(\s*,\s*\d+)*)\s*=")


def parse_variant_parts(text: str) -> tuple[dict[str, str], list[str]]:
    """``"strategy 0=value 2=budget; players=3"`` -> (rules, strategy items): parts
    joined by ``;``, each ``default``, ``KEY=VALUE[,KEY=VALUE...]`` or ``strategy
    SEAT=SPEC ...`` (``SEAT=SPEC`` as in ``--strategy``)."""
    rules: dict[str, str] = {}
    items: list[str] = []
    for part in (p.strip() for p in text.split(";")):
        word, _, rest = part.partition(" ")
        if part in ("", "default"):
            continue
        if word.lower() in ("strategy", "strategies"):
            found = rest.split()
            if not found:
                raise BidlabError(f"--variant {text!r}: 'strategy' names no seat; write "
                                  f"'strategy SEAT=NAME', e.g. 'strategy 0=NAME'")
            items += found
        elif _SEATS.match(part):
            raise BidlabError(f"--variant {text!r}: {part!r} is a strategy, not a rule; "
                              f"write 'strategy {part}' (parts joined by ';', e.g. "
                              f"'strategy {part}; KEY=VALUE')")
        else:
            rules.update(parse_assignments([t for t in part.split(",") if t.strip()],
                                           what="--variant"))
    return rules, items


def _strategy_items(spec: StrategySpec) -> list[str]:
    """A strategy spec (text, list or mapping) as ``SEAT=SPEC`` items, to extend."""
    if spec is None:
        return []
    if isinstance(spec, str):
        return [spec]
    if isinstance(spec, Mapping):
        return [f"{seats_text(seat)}={v}" for seat, v in spec.items()]
    return list(spec)


def _variant(v: str | Mapping[str, Any]) -> tuple[str, dict[str, Any], list[str]]:
    """(label, rules, strategy items) of a variant given as text or as a mapping of
    rules (its ``strategy`` key, if any: strategy items, text or a list)."""
    if isinstance(v, str):
        rules, items = parse_variant_parts(v)
        return v.strip() or "default", rules, items
    rules = {k: x for k, x in v.items() if k not in ("strategy", "strategies")}
    extra = v.get("strategy", v.get("strategies"))
    items = _strategy_items(extra)
    label = ",".join(f"{k}={x}" for k, x in rules.items())
    if items:
        label = "; ".join(filter(None, ["strategy " + " ".join(items), label]))
    return label or "default", rules, items


def _paired_groups(groups: dict[tuple[str, str], Any]) -> dict[tuple[str, str], tuple[str, Any]]:
    """Per-match series keyed for pairing: a strategy by its label, a seat by its number
    (``("seat", "0 value")`` -> key ``("seat", "0")``), each with its shown name."""
    return {(by, name.split(" ", 1)[0] if by == "seat" else name): (name, series)
            for (by, name), series in groups.items()}


def compare(game: str, variants: list[str | Mapping[str, Any]], n: int, *, seed: int = 0,
            strategies: StrategySpec = None, rules: Mapping[str, Any] | None = None,
            metrics: tuple[str, ...] | None = None, progress: bool | None = False) -> Comparison:
    """Run each variant (``rules`` overridden by it) on matches ``0..n-1`` of ``seed``.

    The first variant is the baseline; with a single variant, the default rules (plus
    ``rules``) are the baseline.
    """
    if not variants:
        raise BidlabError("give at least one --variant KEY=VALUE[,KEY=VALUE...] or "
                          "--variant 'strategy SEAT=NAME'")
    parsed = [_variant(v) for v in variants]
    named = {label: rules_ for label, rules_, _ in parsed}
    extra = {label: items for label, _, items in parsed}
    if len(named) == 1 and "default" not in named:
        named, extra = {"default": {}, **named}, {"default": [], **extra}
    if len(named) < 2:
        raise BidlabError("give at least two different variants to compare")
    base_items = _strategy_items(strategies)
    g = get_game(game)
    if n < 1:
        raise BidlabError(f"-n {n}: give at least 1 match per variant")
    check_seed(seed)
    for label, overrides in named.items():  # every variant is checked before any is played
        seat_strategies(game, make_rules(game, {**(rules or {}), **overrides}),
                        base_items + extra[label])
    metrics = metrics or g.summary_metrics
    runs = {}
    for label, overrides in named.items():
        runs[label] = simulate(game, n, seed=seed, rules={**(rules or {}), **overrides},
                               strategies=base_items + extra[label], progress=progress)
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
        base = _paired_groups(per_match(runs[base_label].seats, metric))
        for label, run in runs.items():
            for key, (name, series) in _paired_groups(per_match(run.seats, metric)).items():
                if key not in base or (label in left_out and key[0] == "seat"):
                    continue
                d = paired_difference(base[key][1], series)
                rows.append({"metric": metric, "by": key[0], "name": name,
                             "variant": label, "value": float(series.mean()), **d})
    provenance = {"game": game, "n": n, "seed": seed,
                  "rules": {k: r.provenance["rules"] for k, r in runs.items()},
                  "strategies": runs[base_label].provenance["strategies"],
                  "version": runs[base_label].provenance["version"], "left_out": left_out}
    if any(extra.values()):
        provenance["variant_strategies"] = {k: r.provenance["strategies"]
                                            for k, r in runs.items()}
    return Comparison(game, named, pd.DataFrame(rows), provenance, left_out, extra)
