"""Play does not change by accident: the digests of every output table and trace of a
fixed set of runs (every game, several rule sets and strategy mixes, 1 and 2 threads)
equal the recorded ones (``tests/golden/play_hash.py`` says how to re-record them when
play changes on purpose, and the commit that does so says why)."""

import importlib.util
import json
from pathlib import Path

SCRIPT = Path(__file__).parent / "golden" / "play_hash.py"


def test_every_recorded_run_plays_exactly_as_recorded(solved_boards):
    spec = importlib.util.spec_from_file_location("play_hash", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    recorded = json.loads(module.GOLDEN.read_text())
    found = module.digests()
    assert sorted(found) == sorted(recorded)
    changed = sorted(k for k in found if found[k] != recorded[k])
    assert not changed, f"play changed in {len(changed)} of {len(found)} digests: {changed[:5]}"
