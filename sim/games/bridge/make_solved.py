"""Make ``solved_seed0.npz``: the double-dummy tables of boards 0..1023 of seed 0 (the
default seed), solved once by DDS and shipped, so that the default runs, the report and
the README's examples need no solving (:func:`sim.games.bridge.dd.solve` reads them
before it solves; ``tests/test_bridge_solved.py`` re-solves a sample of them).

Run once (about 5 minutes of one core): ``.venv/bin/python -m sim.games.bridge.make_solved``.
"""

from __future__ import annotations

import numpy as np

SEED, BOARDS = 0, 1024

if __name__ == "__main__":
    from sim.games.bridge import dd as DD
    from sim.games.bridge import engine as E

    hands = E.deal(SEED, 0, BOARDS)
    tables = DD.solve_direct(hands, progress=True)
    keys = np.frombuffer(b"".join(DD.deal_keys(hands)), dtype=np.uint8).reshape(BOARDS, -1)
    np.savez_compressed(DD.SOLVED, seed=SEED, keys=keys, tables=tables)
    print(f"wrote {DD.SOLVED}: {BOARDS} boards of seed {SEED}")
