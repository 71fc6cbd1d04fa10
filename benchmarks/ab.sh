#!/bin/sh
# Interleaved A/B of one game's one-thread kernel row: git revision REV (checked out in
# a worktree under /tmp) against this tree, one process per tree in turn, each printing
# the best of 5 runs. On a shared host single runs spread by 10-20%; alternate instead.
#   sh benchmarks/ab.sh 4578f46 pitch 4      # GAME: pitch, vybory or aukcio
set -e
rev=$1; game=$2; rounds=${3:-4}
here=$(cd "$(dirname "$0")/.." && pwd)
base=/tmp/bidlab-ab-$rev
[ -d "$base" ] || git -C "$here" worktree add -f "$base" "$rev" >/dev/null
rate='import sys; sys.path.insert(0, "benchmarks"); g = sys.argv[1]
import importlib; b = importlib.import_module("bench_" + g)
print(round({"pitch": lambda: b.kernel_rate(b.GREEDY, 40_000, 5)[0],
             "vybory": lambda: b.kernel_rate({}, b.GREEDY, 4_000, 5),
             "aukcio": lambda: b.kernel_rate({}, b.SETVALUE, 100_000, 5)}[g]()))'
for _ in $(seq "$rounds"); do
  a=$(cd "$base" && PYTHONPATH="$base" "$here/.venv/bin/python" -c "$rate" "$game" 2>/dev/null)
  b=$(cd "$here" && "$here/.venv/bin/python" -c "$rate" "$game" 2>/dev/null)
  echo "$game  $rev: $a  this tree: $b"
done
