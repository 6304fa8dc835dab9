"""The kept pieces an answer's JSON is made of give what making them afresh gives, byte for byte.

The server says the same interface words, rule texts and citations thousands of times; they are
kept per catalog, ruleset and language (:func:`havoc.language.i18n.ui`, :class:`havoc.engine.interpreter.answer.
Texts`). These tests make every answer of the stored examples and of the server benchmark's
questions twice, in English and Polish: once through the kept pieces (a warm process, as the
server runs) and once with every kept piece forgotten first, and compare the JSON bytes; and they
check each kept interface string against the catalog read the long way.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
import stored_examples

from havoc.assistant import api
from havoc.engine.interpreter import answer as answer_module
from havoc.games import cry_havoc
from havoc.games.cry_havoc import ui as ui_module
from havoc.language.i18n import Text, translator, ui

ROOT = Path(__file__).resolve().parents[1]


def _forget() -> None:
    """Every kept word and citation forgotten: the next answer makes them afresh."""
    ui_module.reset()
    answer_module._texts.clear()


def test_every_kept_polish_interface_string_is_the_catalogs() -> None:
    catalog = translator("pl").catalog
    assert catalog is not None
    msgids = sorted({m for (context, m) in catalog.singular if context == "ui"})
    assert len(msgids) > 200  # the check reads the real catalog
    for msgid in msgids:
        first, again = ui(msgid, "pl"), ui(msgid, "pl")
        assert first is again  # kept
        assert type(first) is Text
        assert first == Text(translator("pl").text("ui", msgid)), msgid
    assert ui("a string no catalog has", "pl") == "a string no catalog has"
    assert ui("Yes", "en") == "Yes"


def test_a_reset_catalog_says_its_own_words() -> None:
    """ui's kept strings go with the catalog they came from (a test may change the locales)."""
    before = ui("Yes", "pl")
    tr = translator("pl")
    tr.ui["Yes"] = Text("zmienione")
    assert ui("Yes", "pl") == "zmienione"
    _forget()
    assert ui("Yes", "pl") == before


def _stored_examples() -> list[tuple[Any, Any]]:
    """Every stored example of the rules (the examples the site shows), as a position and a question."""
    return [(item.pos, item.query) for item in stored_examples.asked(api.load_ruleset())]


def _bench_bodies(count: int) -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_serve
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return [json.loads(b) for b in bench_serve._bodies(count)]


def _same_kept_and_afresh(asked: list[tuple[Any, Any]], lang: str) -> set[str]:
    """Each answer's JSON from a warm process equals the JSON made with nothing kept; the kinds asked."""
    rs = api.load_ruleset()
    for pos, q in asked:  # every piece kept
        api.answer_for(rs, pos, q, lang).to_dict()
    warm = [orjson.dumps(api.answer_for(rs, pos, q, lang).to_dict()) for pos, q in asked]
    kinds = set()
    for (pos, q), kept in zip(asked, warm, strict=True):
        _forget()
        fresh = api.answer_for(rs, pos, q, lang).to_dict()
        kinds.add(q.kind)
        assert orjson.dumps(fresh) == kept, (q, lang)
        assert json.loads(kept) == json.loads(json.dumps(fresh))  # plain json reads the same values
    return kinds


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_stored_examples_answer_the_same_from_kept_pieces_and_afresh(lang: str) -> None:
    asked = _stored_examples()
    assert len(asked) > 50
    assert len(_same_kept_and_afresh(asked, lang)) > 10


@pytest.mark.slow  # seconds of work: in `make test`, not the inner loop (`make test-fast`)
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_bench_answers_are_the_same_from_kept_pieces_and_afresh(lang: str) -> None:
    rs = api.load_ruleset()
    asked = []
    for body in _bench_bodies(300):
        pos = api.load_position(body["position"], rs)
        asked.append((pos, api.load_query(body["question"], pos, rs)))
    assert {"move", "battle", "legal"} <= _same_kept_and_afresh(asked, lang)  # the benchmark's mix


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_cited_rule_says_the_facts_it_had_read_when_cited(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A citation keeps its rule's facts dict and how many facts it held, not a copy: explaining a
    "no" afterwards may read more facts into the dict, after them. What the citation says, in its
    JSON and as a Decision, is the words of the facts as a copy taken when it was cited gives."""
    from havoc.games.cry_havoc import answering
    from havoc.games.cry_havoc.kinds import battle

    when_cited: dict[int, tuple[dict[str, Any], tuple[tuple[str, Any], ...]]] = {}

    def keep(facts: dict[str, Any]) -> None:
        when_cited.setdefault(id(facts), (facts, tuple(facts.items())))

    real_decision, real_add = answer_module.decision, answer_module.Cites.add

    def decision(t: Any, amendments: Any, result: Any, note: str | None = None) -> Any:
        keep(result.facts)
        return real_decision(t, amendments, result, note)

    def add(self: Any, result: Any, note: str | None = None, specific: bool = False, who: Any = None) -> None:
        keep(result.facts)
        real_add(self, result, note, specific, who)

    for module in (answer_module, answering, battle):  # wherever a kind cites a rule itself
        if hasattr(module, "decision"):
            monkeypatch.setattr(module, "decision", decision)
    monkeypatch.setattr(answer_module.Cites, "add", add)
    rs = api.load_ruleset()
    asked = _stored_examples()
    for body in _bench_bodies(150):
        pos = api.load_position(body["position"], rs)
        asked.append((pos, api.load_query(body["question"], pos, rs)))
    t = answer_module.texts(rs, lang, cry_havoc.LABELS)  # the texts answers use (the game's words)

    def words_when_cited(facts: dict[str, Any]) -> list[str]:
        kept, items = when_cited[id(facts)]
        assert kept is facts
        return [t.fact(name, value) for name, value in items]

    grown = checked = 0
    for pos, q in asked:
        when_cited.clear()
        a = api.answer_for(rs, pos, q, lang)
        shown = a.to_dict()["rules"]
        decisions = a.rules
        assert [r["id"] for r in shown] == [d.id for d in decisions]
        for r, d in zip(shown, decisions, strict=True):
            if id(d.facts) not in when_cited:  # a kind that says its own facts (how-many) says its own words
                continue
            grown += len(d.facts) > len(when_cited[id(d.facts)][1])
            said = words_when_cited(d.facts)
            assert r.get("said", []) == said == d.said, (q, d.id)
            checked += 1
    assert checked > 1000
    assert grown >= 1  # the case this is about: explaining a "no" read more facts into a cited dict


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_kept_bound_is_the_sentence_filled_afresh(lang: str) -> None:
    """A fix's words ("Units: at most 3") are kept by the sentence, the field and the value: each
    is what filling the sentence gives, for every sentence, field and value a "no" can say."""
    from havoc.engine.interpreter import explain

    sentences = [
        ui(s, lang) for s in ("{field}: at most {value}", "{field}: at least {value}", "{field}: exactly {value}")
    ]
    fields = [ui(f, lang) for f in ("Units", "points", "Initiative spot")] + ["Units"]
    explain._bounds.clear()
    for _ in range(2):  # made, then kept
        for sentence in sentences:
            for field in fields:
                for value in (-1, 0, 1, 2, 7, 12):
                    assert explain._bound(sentence, field, value) == sentence.format(field=field, value=value)
    assert explain._bounds
    out: list[explain.Bound] = []
    explain._say("lt", "query.units", 4, out)
    explain._say("ge", "query.units", 2, out)
    explain._say("le", "query.units", 0, out)  # "at most 0" is no fix
    assert out == [("query.units", "le", 3), ("query.units", "ge", 2)]


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_an_answers_json_straight_from_its_citations_is_its_decisions_json(lang: str) -> None:
    """Serialising an answer makes its citations' JSON straight from the rule results
    (:class:`~havoc.engine.interpreter.answer.Cites`); reading its rules first makes Decisions and
    serialises those. Both give the same bytes, and the same hint and deciding overlay."""
    rs = api.load_ruleset()
    asked = _stored_examples()
    for body in _bench_bodies(300):
        pos = api.load_position(body["position"], rs)
        asked.append((pos, api.load_query(body["question"], pos, rs)))
    straight = 0
    for pos, q in asked:
        first = api.answer_for(rs, pos, q, lang)
        late = getattr(first, "_later", None) is not None  # its citations worked out when read
        straight += late
        as_json = orjson.dumps(first.to_dict())
        second = api.answer_for(rs, pos, q, lang)
        decisions = second.rules  # Decisions made before anything is serialised
        assert orjson.dumps(second.to_dict()) == as_json, q
        assert second.overlay == answer_module.deciding_overlay(rs, decisions)
        if late and second.verdict is False:  # the hint of the first rule that said no and gives one
            assert second.hint == next((d.hint for d in decisions if d.passed is False and d.hint), None)
        assert orjson.dumps(first.to_dict()) == as_json  # again, the same
        assert [d.to_dict() for d in first.rules] == first.to_dict()["rules"]
    assert straight > 200


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_no_explained_by_closures_or_by_functions_says_the_same(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Explaining a "no" evaluates parts of its check again: as closures for their first uses,
    as Python functions once asked for often (:meth:`~havoc.engine.interpreter.engine.Engine.sub`).
    Every answer's JSON (its fixes, and the facts the walk reads into a cited rule) is the same
    either way."""
    from havoc.engine.interpreter import engine as engine_module

    rs = api.load_ruleset()
    asked = _stored_examples()
    for body in _bench_bodies(300):
        pos = api.load_position(body["position"], rs)
        asked.append((pos, api.load_query(body["question"], pos, rs)))
    found: dict[str, list[bytes]] = {}
    for form, uses in (("closures", 10**9), ("functions", 0)):  # 0: a function from a part's second use
        monkeypatch.setattr(engine_module, "_CLOSURE_USES", uses)
        engine_module._engines.clear()
        found[form] = [orjson.dumps(api.answer_for(rs, pos, q, lang).to_dict()) for pos, q in asked]
        made = [
            s[1].__code__.co_filename == "<string>" for e in engine_module._engines.values() for s in e._subs.values()
        ]
        assert made  # some "no" was explained
        assert any(made) if form == "functions" else not any(made)
    engine_module._engines.clear()
    assert found["closures"] == found["functions"]
    assert sum(b'"would-be-legal"' in x for x in found["closures"]) > 10
