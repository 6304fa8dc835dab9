"""The rulebook examples the Ask and Trogs pages offer are tables a player would write: YAML with
the names of the page's language, no machine ID, and each one, pasted as it is offered, answers
exactly as the stored table in IDs (named_table, made at build time)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import stored_examples
import yaml

from havoc.assistant import webapi
from havoc.engine import rulebook
from havoc.formats.spec import Spec, plain
from havoc.games.cry_havoc import words
from havoc.games.cry_havoc.ask_page import offered
from havoc.games.cry_havoc.named_table import lettered_ids
from havoc.games.cry_havoc.position import TOP


def _format_keys(spec: Spec, out: set[str]) -> set[str]:
    """The position format's own keys (``units``, ``adjacent`` …): the file format, not names."""
    for key, sub in (spec.fields or {}).items():
        out.add(key)
        _format_keys(sub, out)
    if spec.item is not None:
        _format_keys(spec.item, out)
    return out


FORMAT_KEYS = _format_keys(TOP, set()) | {"solo"}  # (the variant's value has no name in the format)


def _ids(lang: str) -> set[str]:
    """The IDs a table may name instead (words.NAMED); in English "ready" is both."""
    return {k for what, (known, _) in words.NAMED.items() for k in known if lang != "en" or what != "skill-states"}


def _strings(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [*_strings(k), *_strings(v)]]
    if isinstance(data, list):
        return [s for x in data for s in _strings(x)]
    return [data] if isinstance(data, str) else []


def _post(path: str, body: dict[str, Any]) -> tuple[int, Any]:
    out = json.loads(webapi.handle("POST", path, json.dumps(body, ensure_ascii=False), {"lang": body["lang"]}))
    return out["status"], out["body"]


def _cases() -> list[tuple[str, str, Any]]:
    rs = rulebook.load()
    ask = [("/api/ask", ex.id, ex) for ex in stored_examples.examples(rs)]
    trogs = [("/api/trogs", ex.id, ex) for ex in stored_examples.examples(rs, extra=True) if ex.query["ask"] == "trogs"]
    return ask + trogs


CASES = _cases()


def test_both_pages_offer_examples() -> None:
    paths = [c[0] for c in CASES]
    assert paths.count("/api/ask") >= 60 and paths.count("/api/trogs") >= 4


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize(("path", "name", "ex"), CASES, ids=[c[1] for c in CASES])
def test_an_offered_example_names_things_and_answers_as_the_table_in_ids(
    lang: str, path: str, name: str, ex: Any
) -> None:
    shown = offered(ex.title, ex, lang)
    text = shown["position"]
    assert isinstance(text, str)
    said = [s for s in _strings(yaml.safe_load(text)) if s not in FORMAT_KEYS]
    machine = [s for s in said if s in _ids(lang) or s.startswith("example-")]
    assert not machine, f"{name} ({lang}) offers machine IDs: {machine}\n{text}"

    data = plain(ex.position)
    by_ids = _post(path, {"position": data, "question": plain(ex.query), "lang": lang})
    pasted = _post(path, {"position": text, "question": shown["question"], "lang": lang})
    assert by_ids[0] == 200, by_ids
    assert shown["players"] == data["players"]
    # the same answer; a longer invented ID (example-battle) is asked by its letter (example-a),
    # as the answers already call it ("Region A"): its ID is the only difference
    back = {new: old for old, new in lettered_ids(data).items()}
    got = json.dumps(pasted, ensure_ascii=False, sort_keys=True)
    got = re.sub(r"\bexample-[a-z]\b", lambda m: back.get(m.group(0), m.group(0)), got)
    assert got == json.dumps(by_ids, ensure_ascii=False, sort_keys=True)
