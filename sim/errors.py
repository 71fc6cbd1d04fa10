"""Exceptions with messages that say what was wrong and what is allowed."""


class BidlabError(ValueError):
    """Base of every user-facing error; the CLI prints it and exits with status 2."""


class RuleError(BidlabError):
    """An unknown rule key or a value outside its allowed range."""


class StrategyError(BidlabError):
    """An unknown strategy or policy, a bad seat, or a bad policy parameter."""


class IllegalActionError(BidlabError):
    """A policy returned an action that the rules do not allow."""


class RefereeError(BidlabError):
    """A hand history (trace) that breaks the rules or does not add up."""


class PbnError(BidlabError):
    """A PBN file or PBN text that cannot be read: names the file, the board and what is
    wrong (a missing or unreadable file, a bad tag value, an incomplete deal, a card dealt
    twice)."""
