"""The solo variant's automated Trogs: what they do on a position, and why (``havoc trogs``)."""

from havoc.games.cry_havoc.solo.engine import KINDS, SetAside, TrogDecision, decide

__all__ = ["KINDS", "SetAside", "TrogDecision", "decide"]
