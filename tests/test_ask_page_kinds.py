"""The Ask page's form comes from the question kinds the game declares: none is left out.

A kind added to the game (a module under ``kinds/`` and a name in the vocabulary) appears on
the page with its fields, without editing the page's script; a field type the page has no widget
for fails here rather than leaving the kind unaskable.
"""

from __future__ import annotations

from havoc.games.cry_havoc import kind as registry
from havoc.games.cry_havoc.ask_page import VALUES, WORDS, form_kinds, kind_form, kind_helps
from havoc.games.cry_havoc.contract import QUESTION_KINDS

WIDGETS = {"faction", "region", "regions", "int", "bool", "enum", "objectives"}


def test_every_declared_kind_is_offered_once() -> None:
    offered = form_kinds()
    assert sorted(offered) == sorted(QUESTION_KINDS)
    assert len(offered) == len(set(offered))


def test_every_needed_field_has_a_widget_and_every_choice_a_label() -> None:
    for kind in registry.all_kinds():
        form = kind_form(kind.name, lambda s: s)
        names = [f["name"] for f in form]
        for need in kind.needs:
            assert need in names, (kind.name, need)
        if not kind.no_actor:
            assert "faction" in names, kind.name
        for f in form:
            assert f["type"] in WIDGETS, (kind.name, f)
            assert f["name"] in WORDS or f["name"] in {"moved-this-action", "structure"}, f["name"]
            for value, label in f.get("choices", []):
                assert value in VALUES and label, (kind.name, f["name"], value)


def test_every_kind_has_help_in_both_languages() -> None:
    for lang in ("en", "pl"):
        helps = kind_helps(lang)
        assert set(helps) == set(QUESTION_KINDS)
    assert kind_helps("pl")["setup"] != kind_helps("en")["setup"]
