"""Which rules an answer read (issue 41): every answer's JSON carries the ruleset's id, version,
content fingerprint and layers; ``--as-of`` (and the API's ``as-of``) answers by the rules in
force at an earlier layer or date: the printed rulebook alone, an errata source, a day."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
import stored_examples

from havoc.assistant import api, webapi
from havoc.core.errors import InputError
from havoc.engine import rulebook

TABLE = "tests/fixtures/assistant/battle-walkthrough.yaml"
RULEBOOK_ONLY = {
    "en": "Official Polish rulebook (Portal Games, 2016)",
    "pl": "Oficjalna polska instrukcja (Portal Games, 2016)",
}


def _havoc(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "havoc", *words], capture_output=True, text=True, check=False)


def test_every_answer_says_which_rules_it_read() -> None:
    rs = rulebook.load()
    item = next(iter(stored_examples.asked(rs)))
    out = api.answer_for(rs, item.pos, item.query, "en").to_dict()["ruleset"]
    assert out["id"] == rs.id == "cry-havoc"
    assert out["version"] == rs.version and out["version"]
    assert out["fingerprint"] == rs.content and len(rs.content) >= 32  # the rule files alone, wherever read
    ids = [layer["id"] for layer in out["layers"]]
    assert ids[0] == "rulebook" and "faq-1-0" in ids
    assert {"id": "faq-1-0", "title": "Official FAQ/Errata v1.0", "date": "2016-08-19"} in out["layers"]


def test_the_layers_are_titled_in_the_askers_language() -> None:
    rs = rulebook.load()
    item = next(iter(stored_examples.asked(rs)))
    layers = api.answer_for(rs, item.pos, item.query, "pl").to_dict()["ruleset"]["layers"]
    assert layers[0]["title"] == RULEBOOK_ONLY["pl"]
    assert {"id": "faq-1-0", "title": "Oficjalne FAQ i errata v1.0", "date": "2016-08-19"} in layers


@pytest.mark.parametrize(
    ("cut", "kept"),
    [
        ("rulebook", []),
        ("2016-05-01", ["rulebook-en"]),  # a year-dated source counts as of its year
        ("faq-1-0", ["rulebook-en", "faq-1-0"]),
        ("rodiek-bgg", ["rulebook-en", "faq-1-0", "rodiek-bgg"]),  # undated: after every dated one
    ],
)
def test_a_view_as_of_a_layer_keeps_only_the_errata_in_force_then(cut: str, kept: list[str]) -> None:
    rs = rulebook.load()
    view = rs.as_of(cut)
    assert [layer["id"] for layer in view.layers()] == ["rulebook", *kept]
    errata = [rid for o in view.overlays.values() if o.kind == "errata" for rid in o.rule_ids]
    assert {rs.rules[r].source.doc for r in errata} == set(kept)
    assert view.fingerprint == f"{rs.fingerprint}@{cut}" != rs.fingerprint
    assert view.content == f"{rs.content}@{cut}"
    assert rs.as_of(cut) is view  # one view per cut: the engines cached by identity stay right
    assert len(rs.view().rules) >= len(view.view().rules)


def test_as_of_rulebook_answers_without_the_errata_and_says_so() -> None:
    run = _havoc("ask", TABLE, "legal", "humans", "--as-of", "rulebook", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["ruleset"]["as-of"] == "rulebook"
    assert [layer["id"] for layer in out["ruleset"]["layers"]] == ["rulebook"]
    assert all(r.get("overlay") != "errata" for r in out["rules"])


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "no layer of these rules is called 'faq-2'; expected one of rulebook, rulebook-en, faq-1-0, rodiek-bgg"),
        ("pl", "żadna warstwa tych zasad nie nazywa się 'faq-2'; oczekiwano jednej z: rulebook, rulebook-en, faq-1-0"),
    ],
)
def test_an_unknown_layer_is_a_located_error(lang: str, said: str) -> None:
    run = _havoc("--lang", lang, "ask", TABLE, "legal", "humans", "--as-of", "faq-2")
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert said in run.stderr
    with pytest.raises(InputError) as caught:
        api.rules_as_of(rulebook.load(), "faq-2", lang)
    assert caught.value.problems[0].file == "as-of"


def test_the_api_answers_as_of_a_layer_and_refuses_an_unknown_one() -> None:
    from havoc.formats.yamlio import load_file

    table: Any = json.loads(json.dumps(load_file(TABLE, TABLE)))
    body = {"position": table, "question": {"ask": "legal", "faction": "humans"}, "as-of": "faq-1-0", "lang": "pl"}
    out = json.loads(webapi.handle("POST", "/api/ask", json.dumps(body), {}))
    assert out["status"] == 200, out
    assert out["body"]["ruleset"]["as-of"] == "faq-1-0"
    bad = json.loads(webapi.handle("POST", "/api/ask", json.dumps({**body, "as-of": "jutro"}), {}))
    assert bad["status"] == 422
    (problem,) = bad["body"]["problems"]
    assert problem["field"] == "as-of" and problem["message"].startswith("żadna warstwa tych zasad")


def test_as_of_rulebook_differs_from_today_only_where_an_erratum_is_cited() -> None:
    """Every stored example, asked by today's rules and by the printed rulebook alone: the latter
    never cites an erratum, and a verdict or figure that differs is one today's answer owes to an
    erratum it cites (today none differ: the errata in force are text only or agree with the checks)."""
    rs = rulebook.load()
    printed = rs.as_of("rulebook")
    errata = {rid for o in rs.overlays.values() if o.kind == "errata" for rid in o.rule_ids}
    items = list(stored_examples.asked(rs))
    assert len(items) > 50
    for item in items:
        today = api.answer_for(rs, item.pos, item.query, "en").to_dict()
        then = api.answer_for(printed, item.pos, item.query, "en").to_dict()
        assert not {r["id"] for r in then["rules"]} & errata, item.ex.id
        if (today["verdict"], today["figures"]) != (then["verdict"], then["figures"]):
            assert {r["id"] for r in today["rules"]} & errata, item.ex.id


@pytest.mark.parametrize(
    ("lang", "cut", "line"),
    [
        ("en", "rulebook", "Rules then in force: Official Polish rulebook (Portal Games, 2016)."),
        (
            "pl",
            "2016-05-01",
            "Zasady według stanu na 1 maja 2016: Oficjalna polska instrukcja (Portal Games, 2016)"
            " + Oficjalna angielska instrukcja.",
        ),
    ],
)
def test_the_text_answer_names_the_rules_it_read_as_of(lang: str, cut: str, line: str) -> None:
    run = _havoc("--lang", lang, "ask", TABLE, "legal", "humans", "--as-of", cut)
    assert run.returncode == 0, run.stderr
    assert run.stdout.rstrip().splitlines()[-1] == line
