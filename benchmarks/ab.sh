#!/bin/sh
# Interleaved A/B of one game's one-thread kernel row: git revision REV (checked out in
# a worktree under /tmp) against this tree, one process per tree in turn, each printing
# the best of 5 runs. On a shared host single runs spread by 10-20%; alternate instead.
#   sh benchmarks/ab.sh 4578f46 pitch 4      # GAME: pitch, vybory, aukcio or auktsion
set -e
rev=$1; game=$2; rounds=${3:-4}
here=$(cd "$(dirname "$0")/.." && pwd)
base=/tmp/bidlab-ab-$rev
[ -d "$base" ] || git -C "$here" worktree add -f "$base" "$rev" >/dev/null
rate='import sys, time; sys.path.insert(0, "benchmarks"); g = sys.argv[1]
import importlib; b = importlib.import_module("bench_" + g) if g != "auktsion" else None
def auktsion_rate(n, reps):   # four-deal matches, budget in every seat, process time
    import numba
    from analysis.runs import make_rules, policy_arrays, seat_strategies
    from sim.games import get_game
    game, r = get_game("auktsion"), make_rules("auktsion", {})
    seats = seat_strategies("auktsion", r, ["all=budget"])
    pol = policy_arrays("auktsion", seats)
    numba.set_num_threads(1)
    game.run_chunk(r, pol, seats.labels, 1, 0, 1024)
    best = float("inf")
    for _ in range(reps):
        t = time.process_time()
        game.run_chunk(r, pol, seats.labels, 1, 0, n)
        best = min(best, time.process_time() - t)
    return n / best
print(round({"pitch": lambda: b.kernel_rate(b.GREEDY, 40_000, 5)[0],
             "vybory": lambda: b.kernel_rate({}, b.GREEDY, 4_000, 5),
             "aukcio": lambda: b.kernel_rate({}, b.SETVALUE, 100_000, 5),
             "auktsion": lambda: auktsion_rate(16_384, 5)}[g]()))'
for _ in $(seq "$rounds"); do
  a=$(cd "$base" && PYTHONPATH="$base" "$here/.venv/bin/python" -c "$rate" "$game" 2>/dev/null)
  b=$(cd "$here" && "$here/.venv/bin/python" -c "$rate" "$game" 2>/dev/null)
  echo "$game  $rev: $a  this tree: $b"
done
