"""The chart lookups of the site's in-browser engine (``POST /api/charts?ruleset=…`` of
:mod:`havoc.assistant.webapi`) answer exactly as ``havoc charts … --json``: every lookup of the charts'
CLI tests, in English and Polish, the answers and the located errors alike."""

from __future__ import annotations

import json
from typing import Any

import pytest

from havoc.assistant import webapi
from havoc.cli import build_parser, main
from havoc.games.advanced_cry_havoc.cli import request

RULESET = "advanced-cry-havoc"

# Every lookup the charts' CLI tests make (tests/test_acharts_cli.py), answers and refusals.
LOOKUPS = [
    ["range", "english longbow", "45"],
    ["range", "angielski łuk", "45"],
    ["range", "sling", "1"],
    ["range", "sling", "3"],
    ["range", "throwing axe", "5"],
    ["range", "throwing axe", "1"],
    ["range", "foot lance", "10"],
    ["range", "musket", "3"],
    ["range", "longbow", "3"],
    ["range", "sling", "0"],
    ["range", "proca", "dwa"],
    ["courage", "12", "--foot"],
    ["courage", "12", "--mounted"],
    ["courage", "20", "--mounted"],
    ["courage", "0", "--foot"],
    ["impairment", "7", "--mod=+1"],
    ["impairment", "7", "--mod=+1", "--if", "armored"],
    ["impairment", "-2"],
    ["waking", "5"],
    ["waking", "7"],
    ["waking", "8", "--if", "aid", "--if", "enemy exerting:2"],
    ["waking", "5", "--if", "aid", "--if", "enemy exerting:2"],
    ["morale", "morale", "--if", "banner", "--if", "leader"],
    ["morale", "morale", "--if", "enemy zoi"],
    ["morale", "recovery", "--if", "enemy zoi", "--roll", "6", "--courage", "5"],
    ["morale", "odzyskanie", "--if", "wrogiej"],
    ["morale", "both"],
    ["status", "scared"],
    ["status", "przestraszony"],
    ["status", "engaged"],
    ["status", "d"],
    ["combat", "--target", "prone", "--target", "side hex", "--attacker", "zoi of an enemy:2"],
    ["combat", "--target", "leżący"],
    ["combat", "--target", "heavy cover"],
    ["combat", "--ranged", "--animal", "--target", "rear hex"],
    ["combat", "--ranged", "--animal", "--target", "armored"],
    ["combat", "--ranged", "--attacker", "move"],
    ["combat", "--target", "dragon"],
    ["combat", "--target", "prone:2"],
]


def by_cli(capsys: pytest.CaptureFixture[str], argv: list[str], lang: str) -> tuple[int, Any]:
    code = main(["charts", *argv, "--json", "--lang", lang])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else err


def by_engine(argv: list[str], lang: str) -> tuple[int, Any]:
    args = build_parser().parse_args(["charts", *argv])
    body = json.dumps({**request(args), "lang": lang})
    out = json.loads(webapi.handle("POST", "/api/charts", body, {"ruleset": RULESET}))
    return out["status"], out["body"]


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("argv", LOOKUPS, ids=" ".join)
def test_the_engine_answers_every_lookup_as_the_cli(
    capsys: pytest.CaptureFixture[str], argv: list[str], lang: str
) -> None:
    code, cli = by_cli(capsys, argv, lang)
    status, body = by_engine(argv, lang)
    if code == 0:
        assert status == 200
        assert body == cli
    else:  # the same located problems (with --json: as JSON), in the same language, with the same codes
        assert (code, status) == (2, 422)
        said = [(p["file"], p["field"], p["message"], p["code"]) for p in json.loads(cli)["problems"]]
        assert said == [(p["in"], p["field"], p["message"], p["code"]) for p in body["problems"]]


def test_the_lookups_cover_every_chart() -> None:
    from havoc.games.advanced_cry_havoc.charts import CHARTS

    assert {argv[0] for argv in LOOKUPS} == set(CHARTS)


def post(body: Any, query: dict[str, str] | None = None) -> tuple[int, Any]:
    text = body if isinstance(body, str) else json.dumps(body)
    out = json.loads(webapi.handle("POST", "/api/charts", text, {"ruleset": RULESET} if query is None else query))
    return out["status"], out["body"]


def test_a_page_may_send_numbers_as_numbers() -> None:
    status, body = post({"chart": "range", "weapon": "sling", "distance": 3, "lang": "pl"})
    assert status == 200 and body["text"].startswith("Proca na 3 heksy:")


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"chart": "range", "weapon": "sling"}, "distance"),
        ({"chart": "courage", "def": "5", "mounted": "yes"}, "mounted"),
        ({"chart": "combat", "target": "prone"}, "target"),
        ({"chart": "status", "name": "scared", "colour": "red"}, "colour"),
        ({"chart": "dice"}, "chart"),
    ],
)
def test_a_bad_request_is_a_located_refusal(body: dict[str, Any], where: str) -> None:
    for lang in ("en", "pl"):
        status, out = post({**body, "lang": lang})
        assert status == 422 and out["error"] == "invalid-input"
        assert [p["in"] for p in out["problems"]] == [where]
    status, out = post({**body, "lang": "pl"})
    assert "expected" not in json.dumps(out, ensure_ascii=False)


def test_charts_are_not_on_the_ask_pages_ruleset_and_no_other_ruleset_exists() -> None:
    assert post({"chart": "status", "name": "scared"}, {})[0] == 404
    assert post({"chart": "status", "name": "scared"}, {"ruleset": "no-such-rules"})[0] == 404


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_choice_of_the_lookup_page_names_its_own_line(lang: str) -> None:
    """The page offers lines by their names in its language; each must find that line alone
    (statuses printed twice in the chart, the two ENGAGED lines, are one choice: the lookup's refusal)."""
    from types import SimpleNamespace

    from havoc.engine import rulebook
    from havoc.games.advanced_cry_havoc import tables as T
    from havoc.games.advanced_cry_havoc.lookup_page import LINES, choices
    from havoc.games.advanced_cry_havoc.lookups import name_rows
    from havoc.language.i18n import set_message_language, translator

    rs = rulebook.load(RULESET)
    offered = choices(SimpleNamespace(ruleset=rs, lang=lang, translator=translator(lang, rs.id)))
    set_message_language(lang)
    try:
        for field, rule_id in LINES.items():
            assert len(offered["lines"][field]) == len(T.table(rs, rule_id).rows)
            for i, line in enumerate(offered["lines"][field]):
                assert name_rows(rs, rule_id, line["name"], "line") == (i,), (field, line["name"])
        assert len(offered["weapons"]) == len(T.table(rs, T.WEAPONS).rows)
        for i, name in enumerate(offered["weapons"]):
            assert name_rows(rs, T.WEAPONS, name, "weapon") == (i,), name
        statuses = [row[0] for row in T.table(rs, T.STATUS).rows]
        assert len(offered["statuses"]) == len(set(statuses))
        for name in offered["statuses"]:
            status, _ = by_engine(["status", name], lang)
            assert status == 200, name
    finally:
        set_message_language("en")


@pytest.mark.slow
def test_the_real_bundle_under_pyodide_answers_every_lookup_as_the_cli(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same lookups through the site's engine bundle in WebAssembly Python (Node), as the
    lookup page's worker runs them: every answer and every refusal equal to the CLI's."""
    from test_engine_browser import run_engine, shared_engine

    engine = shared_engine(tmp_path_factory)  # the bundle the site ships, built once per run
    cases = [(argv, lang) for argv in LOOKUPS for lang in ("en", "pl")]
    sent = []
    for argv, lang in cases:
        args = build_parser().parse_args(["charts", *argv])
        body = json.dumps({**request(args), "lang": lang})
        sent.append({"method": "POST", "path": "/api/charts", "body": body, "query": {"ruleset": RULESET}})
    result = run_engine(engine, sent, RULESET)  # as the lookup page starts its worker
    assert not [m for m in result["imported"] if m.startswith("babel")]
    for (argv, lang), got in zip(cases, result["answers"], strict=True):
        assert (got["status"], got["body"]) == by_engine(argv, lang), (argv, lang)
        code, cli = by_cli(capsys, argv, lang)
        assert (got["status"] == 200) == (code == 0), (argv, lang)
        if code == 0:
            assert got["body"] == cli
    figures = {k: result[k] for k in ("startMs", "startCpuMs", "preloadMs", "firstMs", "laterMs")}
    with capsys.disabled():  # figures for the record (-s), never asserted
        print(" ".join(f"{k}: {v:.0f}" for k, v in figures.items()))
