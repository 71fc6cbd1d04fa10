"""bidlab: Monte Carlo strategy analysis for auction card games.

>>> import bidlab
>>> run = bidlab.simulate("auktsion", 10_000, seed=1, strategies=["0=value:multiple=1.5"])
>>> run.summary          # per strategy and seat: mean score, win share, 95% intervals
>>> run.seats            # one row per match and seat
>>> bidlab.trace("auktsion", seed=1, index=7)   # the hand history of match 7
"""

from bidlab.api import Simulation, games, policies, rule_keys, simulate, trace
from sim.errors import BidlabError, IllegalActionError, RuleError, StrategyError
from sim.runner import version

__version__ = version()
__all__ = ["simulate", "trace", "games", "policies", "rule_keys", "Simulation",
           "BidlabError", "RuleError", "StrategyError", "IllegalActionError"]
