"""bidlab: Monte Carlo strategy analysis for auction card games.

>>> import bidlab
>>> run = bidlab.simulate("auktsion", 10_000, seed=1, strategies=["0=value:multiple=1.5"])
>>> run.summary          # per strategy and seat: mean score, win share, 95% intervals
>>> run.seats            # one row per match and seat
>>> bidlab.trace("auktsion", seed=1, index=7)   # the hand history of match 7
>>> bidlab.compare("auktsion", ["carry_money=false"], 50_000).frame
>>> bidlab.tournament("pitch", ["strength+greedy", "random+random"], 20_000).frame
>>> bidlab.optimize("fpsb", "linear", rules={"players": 4}, self_play=5).params
>>> bidlab.bid_ev("auktsion", {"hand": "AH KH QH JH 7D 7S 5C 4C 3C 2C 9D TS 8H",
...                             "money": "36,38,37,39", "lot": "7", "price": 3,
...                             "high_bidder": 3}).frame
"""

from bidlab.api import (
                        BidEV,
                        Comparison,
                        Optimization,
                        Simulation,
                        Tournament,
                        bid_ev,
                        compare,
                        games,
                        optimize,
                        policies,
                        rule_keys,
                        simulate,
                        tournament,
                        trace,
)
from sim.errors import BidlabError, IllegalActionError, RuleError, StrategyError
from sim.runner import version

__version__ = version()
__all__ = ["simulate", "trace", "bid_ev", "optimize", "compare", "tournament", "games",
           "policies", "rule_keys", "Simulation", "BidEV", "Optimization", "Comparison",
           "Tournament",
           "BidlabError", "RuleError", "StrategyError", "IllegalActionError"]
