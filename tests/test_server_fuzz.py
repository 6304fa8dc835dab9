"""Property-based requests generated from the server's own OpenAPI description (Schemathesis).

Every operation gets bodies and parameters that fit the schema and ones that do not, and every
check Schemathesis has runs on each answer: no 5xx, status codes, content types, headers and
bodies as the schema declares them, schema-violating requests refused, schema-valid ones
accepted (or refused with a documented 422 that names what the table contradicts: see
schemathesis.toml), methods the API lacks answered 405 with ``Allow``.
"""

from __future__ import annotations

import copy
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import schemathesis
    from schemathesis.checks import CHECKS, load_all_checks
    from schemathesis.config import SchemathesisConfig

from havoc.web.server import create_app

REPO = Path(__file__).resolve().parents[1]
schema = schemathesis.openapi.from_asgi(
    "/openapi.json", create_app(None), config=SchemathesisConfig.from_path(REPO / "schemathesis.toml")
)
load_all_checks()
ALL_CHECKS = CHECKS.get_all()


def test_every_check_runs() -> None:
    names = {c.__name__ for c in ALL_CHECKS}
    assert {"positive_data_acceptance", "negative_data_rejection", "response_schema_conformance"} <= names
    assert {"unsupported_method", "allow_header_conformance", "not_a_server_error"} <= names


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_does_what_its_schema_says(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=ALL_CHECKS)


@pytest.mark.parametrize("ctype", ["application/json", "application/yaml", "text/plain"])
def test_garbage_bodies_never_fail(ctype: str) -> None:
    """Bytes of any kind: 400/413/422 for JSON and YAML, 415 for a type the API does not read."""
    expected = (415,) if ctype == "text/plain" else (400, 413, 422)
    client = _client()

    @given(st.binary(max_size=2000) | st.text(max_size=2000).map(str.encode))
    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    def run(body: bytes) -> None:
        for path in ("/api/ask", "/api/legal", "/api/battle", "/api/score"):
            r = client.post(path, content=body, headers={"Content-Type": ctype})
            assert r.status_code in expected, (path, body, r.status_code, r.text)

    run()


def _examples() -> list[dict[str, Any]]:
    spec = schema.raw_schema
    body = spec["paths"]["/api/ask"]["post"]["requestBody"]["content"]["application/json"]
    return [e["value"] for e in body["examples"].values()]


EXAMPLES = _examples()
NUMBERS = st.one_of(st.integers(0, 12), st.integers(-3, 200), st.sampled_from(["2", None, 2.5, True]))


@st.composite
def near_examples(draw: st.DrawFn) -> dict[str, Any]:
    """A worked example of the rulebook with its numbers, sides and phase shaken: mostly valid
    positions that reach the interpreter, and some that are just wrong."""
    from havoc.games.cry_havoc.contract import FACTIONS, OBJECTIVES, PHASES

    ex = copy.deepcopy(draw(st.sampled_from(EXAMPLES)))
    pos, q = ex["position"], ex["question"]
    players = pos.get("players") or ["humans", "pilgrims"]
    for region in pos.get("regions", {}).values():
        for f in players:
            if draw(st.booleans()):
                region.setdefault("units", {})[f] = draw(NUMBERS)
        if draw(st.integers(0, 5)) == 0:
            region["battle"] = {"token": draw(NUMBERS), "attacker": draw(st.sampled_from(FACTIONS))}
        if draw(st.integers(0, 5)) == 0:
            region["control"] = draw(st.sampled_from(FACTIONS))
    if draw(st.booleans()):
        pos["phase"] = draw(st.sampled_from(PHASES))
    if draw(st.booleans()):
        pos["turn"] = draw(st.sampled_from(players))
    if draw(st.booleans()):
        q["faction"] = draw(st.sampled_from(FACTIONS))
    for key in ("units", "points", "cost"):
        if key in q or draw(st.integers(0, 4)) == 0:
            q[key] = draw(NUMBERS)
    if q.get("ask") == "battle" and draw(st.booleans()):
        q["objectives"] = {
            f: {o: draw(st.integers(0, 6)) for o in OBJECTIVES} for f in draw(st.lists(st.sampled_from(players)))
        }
    return {"position": pos, "question": q, "lang": draw(st.sampled_from(["en", "pl"]))}


@given(near_examples())
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
def test_shaken_worked_examples_never_fail(body: dict[str, Any]) -> None:
    client = _client()
    r = client.post("/api/ask", json=body)
    assert r.status_code in (200, 422), (body, r.status_code, r.text)
    if r.status_code == 200:
        assert {"verdict", "answer", "rules", "figures"} <= set(r.json())
    else:
        assert r.json()["problems"]
    q = body["question"]
    for path, extra in (
        ("/api/legal", {"faction": q.get("faction")}),
        ("/api/score", {"faction": q.get("faction")}),
        ("/api/battle", {k: q[k] for k in ("region", "objectives") if k in q}),
    ):
        r = client.post(path, json={"position": body["position"], "lang": body["lang"], **extra})
        assert r.status_code in (200, 422), (path, body, r.status_code, r.text)


_CLIENT: list[Any] = []


def _client() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    if not _CLIENT:
        _CLIENT.append(TestClient(create_app(None), raise_server_exceptions=False))
    return _CLIENT[0]


# Each test here takes seconds (a fuzzed server, catalogs updated and read again): in `make test`,
# not in the inner loop (`make test-fast`).
pytestmark = pytest.mark.slow
