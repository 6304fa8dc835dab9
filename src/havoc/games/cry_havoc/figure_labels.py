"""The labels of the figures several question kinds give, in one list.

Apart from :mod:`havoc.games.cry_havoc.ui` (which looks figures up here first) so that the
kinds' manifest (:mod:`havoc.games.cry_havoc.kind`) can read every label's msgid without an
import cycle. Each is a literal ``ui("…")`` call: the catalogs' extractor finds it, and
``havoc check`` says when one has no Polish.
"""

from __future__ import annotations

from havoc.i18n import ui


def shared(lang: str) -> dict[str, str]:
    """The labels of the figures several kinds give (in ``lang``); a figure only one kind gives
    may be labelled in its declaration instead (``figure_words``)."""
    return {
        "may-leave": ui("may leave", lang),
        "must-discard": ui("must discard", lang),
        "may-recruit": ui("may recruit", lang),
        "points-left": ui("points left", lang),
        "points-missing": ui("points missing", lang),
        "events-moved": ui("Event tokens passed", lang),
        "buy-back-turn": ui("place in the buy-back order (Initiative order)", lang),
        "points-needed": ui("Move points needed", lang),
        "upcoming-position": ui("new Upcoming Initiative spot", lang),
        "position": ui("Upcoming Initiative spot", lang),
        "gains-control": ui("gains Control", lang),
        "region-vp": ui("VP for Regions", lang),
        "crystal-vp": ui("VP for Crystals", lang),
        "prisoners-vp": ui("VP for prisoners", lang),
        "vp": ui("VP", lang),
        "vp-gained": ui("VP gained", lang),
        "total-vp": ui("VP after scoring", lang),
        "buy-back-cost": ui("VP to pay", lang),
        "crystals-added": ui("Crystals added", lang),
        "wins-control": ui("wins Region Control", lang),
        "places-control-token": ui("puts its Control token", lang),
        "places-nest": ui("a Trog Nest token instead", lang),
        "survivors-to-hq": ui("survivors go to the HQ", lang),
        "to": ui("destination", lang),
        "placement": ui("Units on the objectives", lang),
        "wins": ui("objectives won", lang),
        "battle": ui("a Battle follows", lang),
        "to-hq": ui("Units sent to the HQ", lang),
        "control-vp": ui("VP for Region Control", lang),
        "takes-prisoners": ui("takes prisoners", lang),
        "prisoners-taken": ui("prisoners taken", lang),
        "kills": ui("Units killed", lang),
        "kill-vp": ui("VP for kills", lang),
        "control-winner": ui("Region Control won by", lang),
        "prisoners-by": ui("prisoners taken by", lang),
        "kills-by": ui("Units killed by", lang),
        "survivors": ui("Units left", lang),
        "retreat-to": ui("may retreat to", lang),
        "to-reserve": ui("to the Reserve", lang),
        "control-token": ui("Control token", lang),
        "nest": ui("Trog Nest token", lang),
        "nest-options": ui("Trog Nest may go on", lang),
        "final-vp": ui("VP", lang),
        "tiebreak-prisoners": ui("prisoners held", lang),
        "tiebreak-initiative": ui("Initiative spot", lang),
        "tiebreak-trogs": ui("the Trogs win ties", lang),
        "winner": ui("winner", lang),
        "ranking": ui("ranking", lang),
        "tie-broken-by": ui("tie broken by", lang),
        "destinations": ui("may retreat to", lang),
        "actions": ui("actions", lang),
        "order": ui("Battle order", lang),
        "not-fought": ui("no Battle", lang),
        "may-buy-back": ui("may buy back", lang),
        "upcoming-order": ui("Upcoming Initiative track after the card", lang),
        "vp-to-spend": ui("VP to pay from (after scoring Prisoners)", lang),
        "units-lost": ui("Units sent back to the Reserve", lang),
        "units-in-region": ui("Units in the Region", lang),
        "returned": ui("Units back in the Region", lang),
        "retreated": ui("Units that retreat", lang),
        "reveals-exploration": ui("reveals an Exploration token", lang),
        "reveals-trog-token": ui("reveals a Trog token", lang),
        "trogs-join-army": ui("the Trog Units join the Trog player", lang),
        "trogs-from-hq": ui("the Trog Units come from the Trog HQ", lang),
        "places-battle-token": ui("places a Battle token", lang),
        "battle-token": ui("Battle token", lang),
        "two-player-board-side": ui("board side for two players", lang),
        "hq-units": ui("Units with each HQ", lang),
        "hq-control-tokens": ui("Control tokens with each HQ", lang),
        "skills": ui("Skills per player", lang),
        "trog-hq-units": ui("Trog Units in World Caverns", lang),
        "tunnels": ui("Tunnel tokens", lang),
        "tokens-as-printed": ui("tokens and Crystals as printed on the map", lang),
    }
