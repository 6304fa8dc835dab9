"""The OpenAPI description of the JSON API, generated from havoc's own field tables.

The position and question schemas are the ones the validators read (``havoc.games.cry_havoc.position.FIELDS``,
``havoc.games.cry_havoc.query.QFIELDS``), so the description cannot drift from what is accepted.
OpenAPI 3.1 takes JSON Schema 2020-12 as it is.
"""

from __future__ import annotations

from typing import Any

from havoc import __version__, game
from havoc.i18n import LANGUAGES
from havoc.interpreter.answer import VERDICT_NO_UNLESS
from havoc.rulebook.model import Ruleset
from havoc.spec import plain
from havoc.webapi import POSITION_TEXT_MAX, QUESTION_TEXT_MAX

DOCS_PAGE = "docs.html"


def _strip(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in ("$schema", "$id")}


def openapi(rs: Ruleset) -> dict[str, Any]:
    question = game.of(rs).question_schema()
    lang = {"type": "string", "enum": list(LANGUAGES), "description": "The language of the answer and the errors."}
    faction = question["properties"]["faction"]
    problem = {
        "type": "object",
        "properties": {
            "error": {"type": "string"},
            "message": {"type": "string"},
            "problems": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "in": {"type": "string", "description": "position, question or request"},
                        "field": {"type": "string", "description": "The field path, e.g. regions.a.units"},
                        "line": {"type": "integer"},
                        "message": {"type": "string", "description": "What was expected."},
                    },
                },
            },
        },
        "required": ["error", "message"],
    }
    position_ref = {
        "description": "The position as a mapping, or as YAML/JSON text (then errors carry line numbers).",
        "anyOf": [
            {"$ref": "#/components/schemas/Position"},
            {"type": "string", "minLength": 1, "maxLength": POSITION_TEXT_MAX},
        ],
    }
    answer = {
        "type": "object",
        "description": "The same JSON as `havoc ask --json`.",
        "properties": {
            "kind": {"type": "string"},
            "question": {"type": "string"},
            "verdict": {
                "enum": [True, False, None, VERDICT_NO_UNLESS],
                "description": "Yes, no, neither (see the answer), or no unless a card, Skill or Structure allows it.",
            },
            "answer": {"type": "string"},
            "figures": {"type": "object"},
            "rules": {"type": "array", "items": {"type": "object"}},
            "overlay": {"type": "string"},
            "lang": {"type": "string"},
            "hint": {"type": "string"},
        },
        "required": ["kind", "verdict", "answer", "figures", "rules", "lang"],
    }
    errors = {
        "400": _resp("Malformed JSON or YAML.", "Problem"),
        "413": _resp("The body is larger than 256 KiB.", "Problem"),
        "415": _resp("A body that is neither JSON nor YAML.", "Problem"),
        "422": _resp("The position or question is invalid: located problems.", "Problem"),
    }

    def post(summary: str, props: dict[str, Any], required: list[str], kind: str | None = None) -> dict[str, Any]:
        """One POST operation; its examples are the rulebook's worked examples that fit it."""
        fitting = {k: v for k, v in examples.items() if kind is None or v["question"].get("ask") == kind}
        if kind is not None:
            fitting = {
                k: {"position": v["position"], **{f: v["question"][f] for f in props if f in v["question"]}}
                for k, v in fitting.items()
            }
        return {
            "post": {
                "summary": summary,
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {"position": position_ref, **props, "lang": lang},
                                "required": ["position", *required],
                                "additionalProperties": False,
                            },
                            "examples": {k: {"value": v} for k, v in fitting.items()},
                        },
                        "application/yaml": {"schema": {"type": "object"}},
                    },
                },
                "responses": {"200": _resp("The answer.", "Answer"), **errors},
            }
        }

    lang_param = {"name": "lang", "in": "query", "required": False, "schema": lang}
    examples = _examples(rs)
    spec: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "havoc rules assistant",
            "version": __version__,
            "description": f"Answers about {rs.title} positions from the rules of `{rs.id}`, in English or Polish.",
        },
        "paths": {
            "/api/health": {
                "get": {
                    "summary": "Is the server up?",
                    "responses": {
                        "200": {
                            "description": "Up.",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "type": "object",
                                        "properties": {"status": {"const": "ok"}},
                                        "required": ["status"],
                                    }
                                }
                            },
                        }
                    },
                }
            },
            "/api/ask": post(
                "Ask a question about a position (like `havoc ask --json`).",
                {
                    "question": {
                        "description": "The question as a mapping, or the compact words of the game (`havoc ask --help`).",
                        "anyOf": [
                            {"$ref": "#/components/schemas/Question"},
                            {"type": "string", "minLength": 1, "maxLength": QUESTION_TEXT_MAX},
                            {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}},
                        ],
                    }
                },
                ["question"],
            ),
            "/api/legal": post(
                "What a faction may do now (like `havoc legal --json`).", {"faction": faction}, [], "legal"
            ),
            "/api/battle": post(
                "Resolve a Battle, or list the battle order (like `havoc battle --json`).",
                {
                    "region": question["properties"]["region"],
                    "objectives": question["properties"]["objectives"],
                    "faction": faction,
                },
                [],
                "battle",
            ),
            "/api/score": post(
                "What each faction scores (like `havoc score --json`).", {"faction": faction}, [], "score"
            ),
            "/api/rules/{id}": {
                "get": {
                    "summary": "One rule in the asked language; a retired ID redirects to its successor.",
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                        lang_param,
                    ],
                    "responses": {
                        "200": {"description": "The rule (like `havoc rule --json`).", "content": _json_any()},
                        "308": {"description": "A retired ID: its successor."},
                        "404": _resp("No rule has this ID.", "Problem"),
                        "422": _resp("An unknown language.", "Problem"),
                    },
                }
            },
            "/api/search": {
                "get": {
                    "summary": "Search the rules (the same core as `havoc lookup`).",
                    "parameters": [
                        {"name": "q", "in": "query", "required": False, "schema": {"type": "string"}},
                        lang_param,
                        {
                            "name": "limit",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 100},
                        },
                    ],
                    "responses": {
                        "200": {"description": "The hits, best first.", "content": _json_any()},
                        "422": _resp("A bad limit or language.", "Problem"),
                        "503": _resp("Search is not installed.", "Problem"),
                    },
                }
            },
            "/api/labels": {
                "get": {
                    "summary": "The words an answer leaves as IDs (figure names, factions) in one language.",
                    "parameters": [lang_param],
                    "responses": {
                        "200": {"description": "figures and factions, ID → label.", "content": _json_any()},
                        "422": _resp("An unknown language.", "Problem"),
                    },
                }
            },
            "/api/schema/position": {
                "get": {
                    "summary": "The JSON Schema of positions (like `havoc schema`).",
                    "responses": {"200": {"description": "JSON Schema 2020-12.", "content": _json_any()}},
                }
            },
        },
        "components": {
            "schemas": {
                "Position": _position(rs),
                "Question": question,
                "Answer": answer,
                "Problem": problem,
            }
        },
    }
    deciders = game.extra_answers(game.of(rs)) if rs.game else {}
    for name, decide in deciders.items():
        summary = (decide.__doc__ or name).strip().splitlines()[0]
        spec["paths"][f"/api/{name}"] = {
            "post": {
                "summary": f"{summary} (like `havoc {name} --json`).",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "position": position_ref,
                                    "question": {"type": "object", "description": "What to decide and its fields."},
                                    "lang": lang,
                                },
                                "required": ["position", "question"],
                                "additionalProperties": False,
                            }
                        }
                    },
                },
                "responses": {
                    "200": {"description": "The decision, its rule, what was set aside.", "content": _json_any()},
                    **errors,
                },
            }
        }
    return spec


def _position(rs: Ruleset) -> dict[str, Any]:
    """The position schema, with what the validator also checks about the list of players."""
    return _strip(game.of(rs).position_schema(rs))


def _examples(rs: Ruleset) -> dict[str, dict[str, Any]]:
    """The rulebook's worked examples as API requests (position + question), by example ID."""
    out: dict[str, dict[str, Any]] = {}
    extras = game.extra_answers(game.of(rs)) if rs.game else {}
    for rule in rs.rules.values():
        for ex in rule.examples:
            if ex.query.get("ask") in extras:  # another decider of the game: not a request to /api/ask
                continue
            out[ex.id] = {"position": plain(ex.position), "question": plain(ex.query)}
    return out


def _json_any() -> dict[str, Any]:
    return {"application/json": {"schema": {"type": "object"}}}


def _resp(description: str, schema: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }
