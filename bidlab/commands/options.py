"""What several commands share: the options of a game's matches (game, seed, rules,
strategies, progress, where matches run), the help's per-game defaults, and the rules
given on the command line."""

from __future__ import annotations

import argparse

STRATEGY_HELP = """SEAT=NAME[:param=value,...]; SEAT is a seat number, a list of
seats (0,2) or 'all'; a strategy of several policies is NAME+NAME, each policy's
parameters after it (strength:aggression=1.4+pimc:samples=8) or all of them at the
end (strength+pimc:aggression=1.4,samples=8); later items override earlier ones;
unnamed seats get the game's default strategy (see `bidlab policies GAME`).
Repeatable."""

def game_options(p: argparse.ArgumentParser, strategy: bool = True) -> None:
    p.add_argument("game", help="game name (see `bidlab games`)")
    seed_and_rules(p)
    if strategy:
        p.add_argument("--strategy", action="append", metavar="SEAT=SPEC", help=STRATEGY_HELP)


def seed_and_rules(p: argparse.ArgumentParser) -> None:
    """--seed, --rule and --rules, the same in every command that plays matches."""
    p.add_argument("--seed", type=int, default=0, help="random seed (default %(default)s)")
    p.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="a house rule, e.g. --rule players=3 (see `bidlab games GAME`); repeatable")
    p.add_argument("--rules", metavar="FILE.toml", help="house rules from a TOML file of key = value "
                   "lines (--rule items override it)")


def no_progress(p: argparse.ArgumentParser, what: str = "no progress bar") -> None:
    p.add_argument("--no-progress", action="store_true", help=what)


def per_game(attr: str, scale: int = 1) -> str:
    """A :class:`sim.game.Game` default for the help: the usual value, then every game
    that differs (``100000; bridge 1000``); ``bidev_rollouts`` only of games with bid-EV."""
    from sim.game import Game

    usual = getattr(Game, attr)
    odd = [f"{name} {scale * getattr(g, attr)}" for name, g in games().items()
           if getattr(g, attr) != usual
           and (attr != "bidev_rollouts" or g.rollouts is not None)]
    return "; ".join([str(scale * usual), *odd])


def games() -> dict:
    """Every game, for help texts; none where one fails to import (the help must never
    break the parser: that game's own commands report its error)."""
    from sim.games import all_games
    try:
        return all_games()
    except Exception:  # noqa: BLE001 - help text must never break the parser
        return {}


def version() -> str:
    from sim.runner import version
    return version()


def rules(args) -> dict[str, str]:
    """The --rule items (KEY=VALUE)."""
    from sim.rules import parse_assignments
    return parse_assignments(args.rule)


def given_rules(args) -> dict:
    """The rules of --rules FILE.toml, then the --rule items over them."""
    from sim.rules import load_rules_file
    return {**(load_rules_file(args.rules) if args.rules else {}), **rules(args)}


def default_n(game: str) -> int:
    from sim.games import get_game
    return get_game(game).default_n


def execution_options(p) -> None:
    """Where and how matches run: threads, chunks, a Dask cluster (same results)."""
    from sim.runner import BLOCK, DEFAULT_CHUNK

    p.add_argument("--threads", type=int, metavar="T", help="numba threads in this process "
                   "(default: all cores)")
    p.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK, metavar="C",
                   help=f"matches per chunk, a multiple of {BLOCK} (default %(default)s)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N",
                       help="run chunks on a local Dask cluster of N worker processes")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run chunks on an existing Dask cluster, e.g. tcp://host:8786 "
                            "(bidlab of the same version must be installed on its workers)")


def execution(args) -> dict:
    """The options of :func:`execution_options` (solve: those it has) as the keywords of
    the API, which checks them in its run specification (``analysis.spec.RunSpec``)."""
    return {key: getattr(args, key) for key in ("threads", "chunk_size", "workers", "scheduler")
            if hasattr(args, key)}
