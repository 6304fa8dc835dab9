"""The solo variant's automated Trogs: what they do on a position, and why (``havoc trogs``)."""

from havoc.games.cry_havoc.solo.engine import KINDS, SetAside, TrogDecision, decide


def trogs(position: object, query: object, lang: str = "en", ruleset: str | None = None) -> TrogDecision:
    """What the solo variant's Trogs do (``{"decide": "move", "units": 4}`` …), and why: the
    Python API of ``havoc trogs`` (``havoc.assistant.api.decide(position, "trogs", query)`` is the same).

    Raises InputError (bad input, a position that is not a solo one) or RulebookError only.
    """
    from havoc.assistant import api

    found: TrogDecision = api.decide(position, "trogs", query, lang, ruleset)  # type: ignore[arg-type]
    return found


__all__ = ["KINDS", "SetAside", "TrogDecision", "decide", "trogs"]
