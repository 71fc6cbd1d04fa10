"""Digests of everything a fixed set of runs plays: every output table (detail tables
included), on 1 and 2 threads, plus the JSON traces of a few matches.

A refactor that changes no match leaves every digest as it was. ``play_hashes.json``
beside this file holds the digests of the last commit that changed play on purpose;
``tests/test_golden_play.py`` compares against it.

    .venv/bin/python tests/golden/play_hash.py            # print the digests
    .venv/bin/python tests/golden/play_hash.py --write    # record them (play changed on purpose)

Bridge runs the 48 boards of ``tests/data/bridge_dd.json`` from a temporary
double-dummy cache, so the script never solves a board.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "play_hashes.json"
DD_FIXTURE = HERE.parent / "data" / "bridge_dd.json"

# (game, rules, strategies per seat, matches): every game, several rule sets, mixes.
RUNS = [
    ("auktsion", {}, ["all=budget"], 3000),
    ("auktsion", {}, ["0=value:multiple=1.5", "1=random", "2=passive"], 3000),
    ("auktsion", {"players": 3, "auction_form": "sealed", "deals_per_match": 1},
     ["0=budget:shade=0.6", "1=value:multiple=3"], 3000),
    ("auktsion", {"carry_money": "false", "leftover_value": 1, "min_raise": 2},
     ["0=random:p_bid=0.7", "2=value"], 3000),
    ("pitch", {}, ["all=strength+greedy"], 1500),
    ("pitch", {"players": 3, "joker": "true", "low_to": "captured"},
     ["0=random+random", "1=strength+pimc:samples=4"], 200),
    ("pitch", {"players": 6, "all_pass": "stuck_dealer", "smudge": "true", "game_tie": "pitcher",
               "dealer_hold": "false", "target": 11},
     ["0=passive+greedy", "3=random+greedy"], 1000),
    ("pitch", {"players": 2, "min_bid": 2, "max_deals": 5}, [], 1000),
    ("bridge", {}, ["all=natural"], 48),
    ("bridge", {"vulnerability": "both"}, ["0=random", "1=natural:nt_min=14,nt_max=16"], 48),
    ("bridge", {}, ["all=random:p_bid=0.5,p_double=0.2"], 48),
    ("aukcio", {}, ["all=setvalue"], 3000),
    ("aukcio", {"players": 4, "unsold": "bottom", "bidding": "single"},
     ["0=random:p_bid=0.5", "1=passive", "3=setvalue:block=0"], 2000),
    ("aukcio", {"players": 6, "decks": 1, "hand_size": 6, "jokers_per_payment": 3, "ace_draw": 3},
     ["0=random"], 1000),
    ("vybory", {}, ["all=expected+greedy"], 1000),
    ("vybory", {"type_set": "alt", "scoring": "result", "first_dealer": 2, "deals_per_match": 3},
     ["0=matcher+greedy", "1=random+random", "2=expected+pimc:samples=4,belief=0.7"], 100),
    # The solved policies, on the shipped solutions of their rules.
    ("auktsion", {}, ["all=solved"], 2000),
    ("auktsion", {"players": 3, "auction_form": "sealed"}, ["0=solved", "1=budget"], 2000),
    ("aukcio", {}, ["all=solved"], 2000),
    ("pitch", {}, ["all=solved+greedy"], 500),
    ("vybory", {}, ["0=solved+greedy", "2=matcher+greedy"], 200),
    ("fpsb", {}, [], 3000),
    ("fpsb", {"players": 5}, ["0=linear:a=0.8", "1=random"], 3000),
]
TRACED = (0, 1, 7)
THREADS = (1, 2)
SEED = 1
"""The seed of the fixture's bridge boards."""


def _digest_columns(columns: dict) -> str:
    import numpy as np
    h = hashlib.sha256()
    for name in sorted(columns):
        col = columns[name]
        h.update(name.encode())
        if isinstance(col, np.ma.MaskedArray):
            h.update(np.ma.getmaskarray(col).tobytes())
            col = col.filled()
        col = np.asarray(col)
        h.update(str(col.dtype).encode())
        if col.dtype == object:
            h.update(json.dumps([str(x) for x in col]).encode())
        else:
            h.update(np.ascontiguousarray(col).tobytes())
    return h.hexdigest()


def digests() -> dict[str, str]:
    import numba

    from analysis.runs import policy_arrays
    from analysis.runs import trace as run_trace
    from analysis.spec import make_rules, seat_strategies
    from sim.games import get_game
    from sim.games.bridge import dd as DD

    DD.import_json(DD_FIXTURE)
    out = {}
    before = numba.get_num_threads()
    try:
        for game_name, rules_in, specs, n in RUNS:
            game = get_game(game_name)
            rules = make_rules(game_name, rules_in)
            seats = seat_strategies(game_name, rules, specs)
            policies = policy_arrays(game_name, seats)
            key = f"{game_name} {json.dumps(rules_in, sort_keys=True)} {' '.join(specs)}"
            for t in THREADS:
                numba.set_num_threads(min(t, numba.config.NUMBA_NUM_THREADS))
                tables = game.run_chunk(rules, policies, seats.labels, SEED, 0, n, True)
                for name, cols in sorted(tables.items()):
                    out[f"{key} | {name} | threads={t}"] = _digest_columns(cols)
            for i in TRACED:
                tr = run_trace(game_name, seed=SEED, index=i, rules=rules_in, strategies=specs)
                blob = json.dumps(tr, sort_keys=True, default=str).encode()
                out[f"{key} | trace {i}"] = hashlib.sha256(blob).hexdigest()
    finally:
        numba.set_num_threads(before)
    return out


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE.parents[1]))
    os.environ.setdefault("BIDLAB_DD_CACHE", os.path.join(tempfile.mkdtemp(), "dd.sqlite"))
    found = digests()
    if "--write" in argv:
        GOLDEN.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(found)} digests to {GOLDEN}")
        return 0
    recorded = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    changed = [k for k in found if recorded.get(k) != found[k]]
    for k in sorted(found):
        print(("  " if k not in changed else "! ") + f"{found[k][:16]}  {k}")
    whole = hashlib.sha256(json.dumps(found, sort_keys=True).encode()).hexdigest()
    print(f"{len(found)} digests, {len(changed)} differ from {GOLDEN.name}; all: {whole[:16]}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
