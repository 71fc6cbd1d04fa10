"""bridge benchmarks: dealing against endplay's dealer, double-dummy throughput through
bidlab against the solver called directly, and ``natural`` auctions.

    .venv/bin/python benchmarks/bench_bridge.py            # full counts
    .venv/bin/python benchmarks/bench_bridge.py --quick    # smoke run

``rows(quick)`` is what ``benchmarks/run.py`` imports: one dict per row with the keys
``name, value, unit, baseline, ratio, target, passed`` (``baseline`` is the peer's rate
measured in the same run; ``ratio`` value / baseline). Benchmarks report; they assert
nothing.

Rows (all in one run, same machine):
- unconstrained dealing, boards/s, against ``endplay.dealer.generate_deals``: target
  ratio >= 100x (bidlab on all cores, as a user runs it);
- dealing with North >= 20 HCP against endplay with the same constraint: >= 1000x;
- dealing with a fixed North hand, South 10-12 HCP and East short in spades (no
  endplay baseline: reported);
- double-dummy tables/s through bidlab with a cold cache against
  ``endplay.dds.calc_all_tables`` on the same deals: ratio >= 0.95;
- the same boards again through bidlab (cached) against the solver: ratio >= 1000x;
- the heavy tail of solving: the time of each DDS call of that cold-cache run (a batch
  of 40 boards: median, p90, p99, max), then the same deals solved one board per call
  (fresh solver calls, no cache) for the time of each table: median, p90, p99, max and
  the slowest board (reported, no target);
- ``natural`` auctions/s on one thread: target >= 1,000,000.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def log(msg: str) -> None:
    print(f"[bench bridge] {msg}", file=sys.stderr, flush=True)


def _row(name, value, unit, baseline=None, target=None, on_ratio=True, note=""):
    ratio = value / baseline if baseline else None
    measured = ratio if on_ratio else value
    passed = None if target is None or measured is None else bool(measured >= target)
    return {"name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "target": target, "passed": passed, "note": note}


def tail(seconds) -> dict:
    """Median, p90, p99 and max of a list of times (linear interpolation between
    order statistics, ``numpy.percentile``'s default)."""
    import numpy as np
    x = np.asarray(seconds, dtype=float)
    q = np.percentile(x, [50, 90, 99])
    return {"median": float(q[0]), "p90": float(q[1]), "p99": float(q[2]),
            "max": float(x.max()), "n": int(x.size)}


def _tail_note(t: dict, per: str) -> str:
    return (f"{per}: median {t['median']:.3g} s, p90 {t['p90']:.3g} s, p99 {t['p99']:.3g} s, "
            f"max {t['max']:.3g} s (n = {t['n']}; max/median {t['max'] / t['median']:.1f}x)")


def _best(fn, reps=3):
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def rows(quick: bool) -> list[dict]:
    import numba
    from endplay.dds import calc_all_tables
    from endplay.dealer import generate_deals
    from endplay.types import Deal

    from sim.games.bridge import dd as DD
    from sim.games.bridge import engine as E
    from sim.games.bridge.deal import Constraints, deal
    from sim.games.bridge.pbn import format_deal
    from sim.games.bridge.rules import make

    out = []
    n_deal = 200_000 if quick else 2_000_000
    E.deal(1, 0, 1000)
    t = _best(lambda: E.deal(1, 0, n_deal))
    n_peer = 2_000 if quick else 20_000
    tp = _best(lambda: list(generate_deals(produce=n_peer, seed=1)), 1)
    out.append(_row("deal unconstrained (bidlab all cores vs endplay generate_deals)",
                    n_deal / t, "boards/s", n_peer / tp, 100))
    log(out[-1])

    c20 = Constraints.parse(hcp=["N=20-"])
    n20 = 20_000 if quick else 200_000
    deal(c20, 1, 0, 100)
    t = _best(lambda: deal(c20, 1, 0, n20))
    n_peer20 = 20 if quick else 100
    tp = _best(lambda: list(generate_deals("hcp(north) >= 20", produce=n_peer20, seed=1)), 1)
    out.append(_row("deal North >= 20 HCP (bidlab vs endplay, same constraint)", n20 / t,
                    "boards/s", n_peer20 / tp, 1000))
    log(out[-1])

    cfix = Constraints.parse(hands=["N=AKQ52.K3.742.Q87"], hcp=["S=10-12"], shape=["E=S0-1"])
    deal(cfix, 1, 0, 100)
    t = _best(lambda: deal(cfix, 1, 0, n20))
    out.append(_row("deal fixed North + South 10-12 HCP + East S0-1", n20 / t, "boards/s"))
    log(out[-1])

    # double-dummy: the same deals, solver direct vs bidlab with a cold then warm cache
    n_dd = 40 if quick else 200
    hands = E.deal(12345, 0, n_dd)
    deals = [Deal.from_pbn(format_deal(h)) for h in hands]
    calc_all_tables([Deal.from_pbn(format_deal(h)) for h in E.deal(999, 0, 8)])  # DDS warm-up
    # Batch by batch, the solver's call and bidlab's (cold: these deals are not in the
    # fresh cache yet) alternate, so that both see the same load on a busy machine.
    calls: list[tuple[int, float]] = []
    t_direct = t_cold = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        store = DD.Cache(os.path.join(tmp, "dd.sqlite"))
        for i in range(0, n_dd, 40):
            t0 = time.perf_counter()
            calc_all_tables(deals[i:i + 40])
            t_direct += time.perf_counter() - t0
            t0 = time.perf_counter()
            DD.solve(hands[i:i + 40], store=store, times=calls)
            t_cold += time.perf_counter() - t0
        direct, cold = n_dd / t_direct, n_dd / t_cold
        t0 = time.perf_counter()
        DD.solve(hands, store=store)
        warm = n_dd / (time.perf_counter() - t0)
    out.append(_row("double-dummy tables, bidlab cold cache vs endplay calc_all_tables",
                    cold, "tables/s", direct, 0.95))
    log(out[-1])
    out.append(_row("double-dummy tables, bidlab cached rerun vs the solver", warm,
                    "tables/s", direct, 1000))
    log(out[-1])
    out += dd_tail(hands, calls)

    # natural auctions on one thread (auctions only: no scoring)
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    seats = seat_strategies("bridge", make(), ["all=natural"])
    pol = policy_arrays("bridge", seats)
    n_auc = 200_000 if quick else 1_000_000
    hands = E.deal(1, 0, n_auc)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        E.auctions(make(), pol, seats.labels, 1, 0, hands[:1000])
        t = _best(lambda: E.auctions(make(), pol, seats.labels, 1, 0, hands))
    finally:
        numba.set_num_threads(before)
    out.append(_row("natural auctions, one thread", n_auc / t, "auctions/s", None, 1_000_000,
                    on_ratio=False))
    log(out[-1])
    return out


def dd_tail(hands, calls: list[tuple[int, float]]) -> list[dict]:
    """The heavy tail of double-dummy solving. DDS's CalcAllTables times a whole batch,
    not its boards; so the cold-cache run's calls are reported per batch, and the same
    deals are solved again one board per call for the time of each table."""
    import numpy as np

    from sim.games.bridge import dd as DD
    from sim.games.bridge.pbn import format_deal

    batches = tail([s for _, s in calls])
    per_batch = max(b for b, _ in calls)
    rows = [_row(f"double-dummy time per DDS call, bidlab cold cache ({per_batch} boards "
                 f"per call)", batches["median"], "s", note=_tail_note(batches, "per call"))]
    log(rows[-1])
    single: list[tuple[int, float]] = []
    DD.solve_direct(hands, batch=1, times=single)
    seconds = np.array([s for _, s in single])
    boards = tail(seconds)
    slow = int(seconds.argmax())
    k = max(1, round(len(seconds) / 100))
    share = float(np.sort(seconds)[-k:].sum() / seconds.sum())
    rows.append(_row("double-dummy time per table, one board per call (same deals, cold)",
                     boards["median"], "s",
                     note=_tail_note(boards, "per table") + f"; the slowest {k} of "
                     f"{len(seconds)} boards take {share:.0%} of the time; slowest: "
                     f"{format_deal(hands[slow])}"))
    log(rows[-1])
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    for r in rows(args.quick):
        ratio = f"{r['ratio']:.3g}x" if r["ratio"] else "-"
        value = f"{r['value']:,.0f}" if r["value"] >= 100 else f"{r['value']:.3g}"
        print(f"{r['name']}: {value} {r['unit']} (baseline "
              f"{r['baseline'] or 0:,.0f}, ratio {ratio}, target {r['target']}, "
              f"passed {r['passed']})" + (f"\n    {r['note']}" if r.get("note") else ""))


if __name__ == "__main__":
    main()
