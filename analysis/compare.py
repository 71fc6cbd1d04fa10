"""Variant comparison: the same deals (match ``i`` of the same seed) under several rule
sets, or with other strategies in some seats, or both; every metric side by side with
the paired difference against the first variant, its interval and a paired t-test.

A variant is written ``default``, ``KEY=VALUE[,KEY=VALUE...]`` (house rules on top of
the command's), ``strategy SEAT=SPEC [SEAT=SPEC ...]`` (strategies on top of the
command's ``--strategy``, ``SEAT=SPEC`` as there), or parts of both joined by ``;``:
``strategy 0=value; carry_money=false``. Seat rows are paired seat by seat (seat 0
of one variant with seat 0 of the baseline, whatever each plays), a strategy's row
where the baseline has that strategy too.

``solved=True`` (``bidlab compare --solved``) compares the variants with players who
adapt: every seat of each variant plays that variant's own solution (the game's
``solved`` strategy, solved for the variant's rules), on the same matches. A fixed
strategy answers "what does the rule do if nobody changes his play"; this answers "what
does it do once everyone plays well under it". Each variant's solution is loaded where
``solved`` finds it (the user's folder, then the shipped ones); where one is missing the
comparison stops before playing anything and lists the ``bidlab solve`` command of
every missing one, unless ``solve_missing=True`` (``--solve-missing``), which solves
them first (at the solver's default iterations, written where ``solved`` finds them)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from analysis.runs import play
from analysis.spec import MATCHES_PER_VARIANT, RunSpec, StrategySpec, seats_text
from analysis.stats import mean_ci, paired_difference, per_match
from sim.errors import BidlabError
from sim.games import get_game
from sim.rules import parse_assignments


@dataclass
class Comparison:
    """``frame``: one row per metric, group and variant: ``metric, by, name, variant,
    value, value_ci_low, value_ci_high, diff, ci_low, ci_high, p_value`` (the value's
    95% interval over matches; diff = variant - baseline, paired by match, with its 95%
    interval and paired t-test)."""

    game: str
    variants: dict[str, dict[str, Any]]
    frame: pd.DataFrame
    provenance: dict[str, Any]
    left_out: dict[str, str] = field(default_factory=dict)
    """Per variant that changes the number of seats: which rows were not paired, and why."""
    strategies: dict[str, list[str]] = field(default_factory=dict)
    """Per variant: the ``SEAT=SPEC`` items it adds to the command's strategies (empty
    for a rules-only variant)."""
    solutions: dict[str, dict[str, Any]] = field(default_factory=dict)
    """``solved=True``: per variant, the solution every seat played
    (:func:`analysis.solved.provenance`: path, source, iterations, exploitability)."""

    def __repr__(self) -> str:
        return (f"Comparison({self.game}: {len(self.variants)} variants "
                f"({', '.join(self.variants)}), {self.provenance.get('n', 0):,} matches each)")

    def to_json(self) -> dict[str, Any]:
        out = {"game": self.game, "variants": self.variants,
               "variant_strategies": self.strategies, "provenance": self.provenance,
               "metrics": self.frame.to_dict(orient="records")}
        if self.solutions:
            out["solutions"] = self.solutions
        return out


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


class MissingSolutions(BidlabError):
    """``compare(..., solved=True)``: some variants have no solution yet; ``commands``
    maps each such variant to the ``bidlab solve`` command that makes its solution."""

    def __init__(self, message: str, commands: dict[str, str]):
        super().__init__(message)
        self.commands = commands


def _solve_variant(game: str, rules: Mapping[str, Any], progress: bool | None) -> None:
    """Solve ``game`` under ``rules`` at the solver's default iterations, into the file
    ``solved`` finds (tests swap in a shorter solve)."""
    from analysis.solve import solve
    solve(game, rules, progress=progress)


def _solutions(game: str, named: dict[str, dict[str, Any]], rules: Mapping[str, Any] | None,
               solve_missing: bool, log: Callable[[str], None], progress: bool | None
               ) -> dict[str, dict[str, Any]]:
    """Per variant, the provenance of the solution its seats will play; the missing ones
    solved first (``solve_missing``) or listed, every one, in the error."""
    from analysis import solved as AS
    from analysis.solvers import typical_time

    full = {label: {**(rules or {}), **overrides} for label, overrides in named.items()}
    found = {label: AS.locate(game, r) for label, r in full.items()}
    missing = {label: AS.command(game, full[label]) for label, f in found.items() if f is None}
    if missing and not solve_missing:
        them = "it" if len(missing) == 1 else "them"
        width = max(map(len, missing.values()))
        lines = "\n".join(f"  {cmd:<{width}}  # variant {label}"
                          for label, cmd in missing.items())
        took = typical_time(game)
        raise MissingSolutions(
            f"--solved: no solution of {game} yet for {len(missing)} of the {len(full)} "
            f"variants; make {them} first with\n{lines}\n"
            + (f"Each takes {took}. " if took else "")
            + f"Or add --solve-missing to solve {them} here (written where `solved` "
              f"finds {them}).", missing)
    done: set[str] = set()
    for label, cmd in missing.items():
        if cmd in done:  # two variants with the same rules: one solve
            continue
        took = typical_time(game)
        log(f"solving {game} for variant {label}: {cmd}"
            + (f"; this takes {took}" if took else ""))
        _solve_variant(game, full[label], progress)
        done.add(cmd)
    for label in missing:
        found[label] = AS.locate(game, full[label])
        if found[label] is None:  # the solve wrote elsewhere: say so rather than guess
            raise BidlabError(f"solved {game} for variant {label}, but `solved` does not "
                              f"find the file; run `{missing[label]}` and try again")
    return {label: AS.provenance(*found[label]) for label in full}


def _check_solved(game: str, strategies: StrategySpec,
                  parsed: list[tuple[str, dict[str, Any], list[str]]]) -> str:
    """The strategy every seat plays with ``solved=True``; an error where strategies are
    given too (a contradiction) or ``game`` has no solver."""
    from analysis import solved as AS
    from analysis.solvers import require
    require(game, "--solved")
    if strategies:
        raise BidlabError("--solved plays every seat by its variant's own solution, so "
                          "--strategy contradicts it: drop --strategy (compare fixed "
                          "strategies without --solved), or drop --solved")
    for label, _, items in parsed:
        if items:
            raise BidlabError(f"--solved plays every seat by its variant's own solution, so "
                              f"variant {label!r} cannot set strategies: give house rules "
                              f"only (KEY=VALUE), or drop --solved")
    return AS.strategy(game)


def compare(game: str, variants: list[str | Mapping[str, Any]], n: int, *, seed: int = 0,
            strategies: StrategySpec = None, rules: Mapping[str, Any] | None = None,
            metrics: tuple[str, ...] | None = None, progress: bool | None = False,
            solved: bool = False, solve_missing: bool = False,
            log: Callable[[str], None] | None = None) -> Comparison:
    """Run each variant (``rules`` overridden by it) on matches ``0..n-1`` of ``seed``.

    The first variant is the baseline; with a single variant, the default rules (plus
    ``rules``) are the baseline.

    ``solved``: every seat of each variant plays that variant's own solution (players
    who adapt to the rule); ``strategies`` and strategy variants are refused. A variant
    without a solution stops the comparison with the ``bidlab solve`` command of every
    missing one (:class:`MissingSolutions`), or, with ``solve_missing``, is solved first
    (``log`` says so; default: stderr unless ``progress`` is False).
    """
    if not variants:
        raise BidlabError("give at least one --variant KEY=VALUE[,KEY=VALUE...] or "
                          "--variant 'strategy SEAT=NAME'")
    parsed = [_variant(v) for v in variants]
    if solve_missing and not solved:
        raise BidlabError("--solve-missing solves the variants' missing solutions for "
                          "--solved; add --solved")
    if solved:
        strategies = "all=" + _check_solved(game, strategies, parsed)
    named = {label: rules_ for label, rules_, _ in parsed}
    extra = {label: items for label, _, items in parsed}
    if len(named) == 1 and "default" not in named:
        named, extra = {"default": {}, **named}, {"default": [], **extra}
    if len(named) < 2:
        raise BidlabError("give at least two different variants to compare")
    base_items = _strategy_items(strategies)
    g = get_game(game)
    # Every variant's spec is checked before any variant is solved or played; with
    # ``solved`` its seats get their strategy once every solution exists.
    specs = {label: RunSpec.make(game, n, seed=seed, rules={**(rules or {}), **overrides},
                                 strategies=None if solved else base_items + extra[label],
                                 progress=progress, count=MATCHES_PER_VARIANT)
             for label, overrides in named.items()}
    solutions: dict[str, dict[str, Any]] = {}
    if solved:
        if log is None:
            log = (lambda line: None) if progress is False else (
                lambda line: print(line, file=sys.stderr))
        solutions = _solutions(game, named, rules, solve_missing, log, progress)
        specs = {label: spec.with_strategies(base_items + extra[label])
                 for label, spec in specs.items()}
    metrics = metrics or g.summary_metrics
    runs = {label: play(spec) for label, spec in specs.items()}
    base_label = next(iter(runs))
    seats = {label: g.n_seats(spec.rules) for label, spec in specs.items()}
    left_out = {label: (f"{seats[label]} seats against the baseline's {seats[base_label]}: "
                        f"its seat rows are other seats, so only the per-strategy rows are "
                        f"paired (a win share's fair share differs too: 1/{seats[label]} "
                        f"against 1/{seats[base_label]})")
                for label in named if seats[label] != seats[base_label]}
    rows = []
    for metric in metrics:
        base = _paired_groups(per_match(runs[base_label].seats, metric))
        for label, run in runs.items():
            held = _seats_held(run.seats)
            for key, (name, series) in _paired_groups(per_match(run.seats, metric)).items():
                if key not in base or (label in left_out and key[0] == "seat"):
                    continue
                d = paired_difference(base[key][1], series)
                share = (1 if key[0] == "seat" else held.get(name, 0)) if metric == "win" else 0
                value, low, high = mean_ci(series, share_of=share)
                rows.append({"metric": metric, "by": key[0], "name": name,
                             "variant": label, "value": value, "value_ci_low": low,
                             "value_ci_high": high, **d})
    provenance = {"game": game, "n": n, "seed": seed,
                  "rules": {k: r.provenance["rules"] for k, r in runs.items()},
                  "strategies": runs[base_label].provenance["strategies"],
                  "version": runs[base_label].provenance["version"], "left_out": left_out}
    if any(extra.values()):
        provenance["variant_strategies"] = {k: r.provenance["strategies"]
                                            for k, r in runs.items()}
    if solved:
        provenance["solved"] = True
        provenance["solutions"] = solutions
    return Comparison(game, named, pd.DataFrame(rows), provenance, left_out, extra, solutions)


def _seats_held(seats: pd.DataFrame) -> dict[str, int]:
    """How many seats each strategy label holds (the same in every match)."""
    first = seats[seats["match"] == seats["match"].iloc[0]]
    return first["strategy"].astype(str).value_counts().to_dict()
