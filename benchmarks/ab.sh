#!/bin/sh
# Interleaved A/B of one game's one-thread kernel row: git revision REV (checked out in
# a worktree under /tmp) against this tree, one process per tree in turn, each printing
# the best of 5 runs. On a shared host single runs spread by 10-20%; alternate instead.
#   sh benchmarks/ab.sh 4578f46 pitch 4      # GAME: pitch, vybory, aukcio or auktsion
# pitch-pimc and vybory-pimc time the search itself (pimc in every seat, process time:
# pitch games/s, vybory one-deal tours/s).
set -e
rev=$1; game=$2; rounds=${3:-4}
here=$(cd "$(dirname "$0")/.." && pwd)
base=/tmp/bidlab-ab-$rev
[ -d "$base" ] || git -C "$here" worktree add -f "$base" "$rev" >/dev/null
rate='import sys, time; sys.path.insert(0, "benchmarks"); g = sys.argv[1]
import importlib; b = importlib.import_module("bench_" + g.split("-")[0]) if g != "auktsion" else None
def process_rate(game, r, pol, labels, warm, n, reps):   # one thread, process time
    import numba
    numba.set_num_threads(1)
    game.run_chunk(r, pol, labels, 1, 0, warm)
    best = float("inf")
    for _ in range(reps):
        t = time.process_time()
        game.run_chunk(r, pol, labels, 1, 0, n)
        best = min(best, time.process_time() - t)
    return n / best
def auktsion_rate(n, reps):   # four-deal matches, budget in every seat
    from analysis.runs import make_rules, policy_arrays, seat_strategies
    from sim.games import get_game
    r = make_rules("auktsion", {})
    seats = seat_strategies("auktsion", r, ["all=budget"])
    return process_rate(get_game("auktsion"), r, policy_arrays("auktsion", seats), seats.labels,
                        1024, n, reps)
def pimc_rate(n, reps):   # pimc in every seat
    game, r, seats, pol = b._setup(b.PIMC) if g == "pitch-pimc" else b._setup(b.ONE_DEAL, b.PIMC)
    return process_rate(game, r, pol, seats.labels, 4, n, reps)
print(round({"pitch": lambda: b.kernel_rate(b.GREEDY, 40_000, 5)[0],
             "vybory": lambda: b.kernel_rate({}, b.GREEDY, 4_000, 5),
             "aukcio": lambda: b.kernel_rate({}, b.SETVALUE, 100_000, 5),
             "auktsion": lambda: auktsion_rate(16_384, 5),
             "pitch-pimc": lambda: pimc_rate(300, 5),
             "vybory-pimc": lambda: pimc_rate(300, 5)}[g]()))'
for _ in $(seq "$rounds"); do
  a=$(cd "$base" && PYTHONPATH="$base" "$here/.venv/bin/python" -c "$rate" "$game" 2>/dev/null)
  b=$(cd "$here" && "$here/.venv/bin/python" -c "$rate" "$game" 2>/dev/null)
  echo "$game  $rev: $a  this tree: $b"
done
