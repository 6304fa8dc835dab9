"""The OpenAPI description of the JSON API, generated from havoc's own field tables.

The position and question schemas are the ones the validators read (``havoc.games.cry_havoc.position.FIELDS``,
``havoc.games.cry_havoc.query.QFIELDS``), so the description cannot drift from what is accepted.
OpenAPI 3.1 takes JSON Schema 2020-12 as it is.
"""

from __future__ import annotations

from typing import Any

from havoc import __version__
from havoc.assistant.webapi import POSITION_TEXT_MAX, QUESTION_TEXT_MAX, QUESTION_WORDS_MAX
from havoc.engine import game
from havoc.engine.interpreter.answer import VERDICT_NO_UNLESS
from havoc.engine.rulebook.model import Ruleset
from havoc.formats.spec import API_CONTEXT, plain
from havoc.language.i18n import LANGUAGES, SOURCE_LANGUAGE, translator, ui

DOCS_PAGE = "docs.html"


def _strip(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in ("$schema", "$id")}


def openapi(rs: Ruleset, lang: str = SOURCE_LANGUAGE) -> dict[str, Any]:
    """The description in ``lang``: every summary and description through the catalogs (the
    operations' under context ``ui``, the position's and question's fields under ``api``)."""
    question = _translated(game.of(rs).question_schema(), lang)
    lang_schema = {
        "type": "string",
        "enum": list(LANGUAGES),
        "description": ui("The language of the answer and the errors.", lang),
    }
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
                        "in": {"type": "string", "description": ui("position, question or request", lang)},
                        "field": {"type": "string", "description": ui("The field path, e.g. regions.a.units", lang)},
                        "where": {
                            "type": "string",
                            "description": ui(
                                "The field in the reader's words: names and labels instead of IDs (when it names one).",
                                lang,
                            ),
                        },
                        "line": {"type": "integer"},
                        "message": {"type": "string", "description": ui("What was expected.", lang)},
                        "code": {
                            "type": "string",
                            "description": ui(
                                "Which problem it is: a stable code (e.g. field.missing), listed on the site's "
                                "page of problem codes; match it, not the message.",
                                lang,
                            ),
                        },
                    },
                },
            },
        },
        "required": ["error", "message"],
    }
    position_ref = {
        "description": ui("The position as a mapping, or as YAML/JSON text (then errors carry line numbers).", lang),
        "anyOf": [
            {"$ref": "#/components/schemas/Position"},
            {"type": "string", "minLength": 1, "maxLength": POSITION_TEXT_MAX},
        ],
    }
    answer = {
        "type": "object",
        "description": ui("The same JSON as `havoc ask --json`.", lang),
        "properties": {
            "kind": {"type": "string"},
            "question": {"type": "string"},
            "verdict": {
                "enum": [True, False, None, VERDICT_NO_UNLESS],
                "description": ui(
                    "Yes, no, neither (see the answer), or no unless a card, Skill or Structure allows it.", lang
                ),
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
        "400": _resp(ui("Malformed JSON or YAML.", lang), "Problem"),
        "413": _resp(ui("The body is larger than 256 KiB.", lang), "Problem"),
        "415": _resp(ui("A body that is neither JSON nor YAML.", lang), "Problem"),
        "422": _resp(ui("The position or question is invalid: located problems.", lang), "Problem"),
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
                                "properties": {"position": position_ref, **props, "lang": lang_schema},
                                "required": ["position", *required],
                                "additionalProperties": False,
                            },
                            "examples": {k: {"value": v} for k, v in fitting.items()},
                        },
                        "application/yaml": {"schema": {"type": "object"}},
                    },
                },
                "responses": {"200": _resp(ui("The answer.", lang), "Answer"), **errors},
            }
        }

    lang_param = {"name": "lang", "in": "query", "required": False, "schema": lang_schema}
    examples = _examples(rs)
    spec: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "havoc rules assistant",
            "version": __version__,
            "description": ui(
                "Answers about {title} positions from the rules of `{id}`, in English or Polish.", lang
            ).format(title=rs.title, id=rs.id),
        },
        "paths": {
            "/api/health": {
                "get": {
                    "summary": ui("Is the server up?", lang),
                    "responses": {
                        "200": {
                            "description": ui("Up.", lang),
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
                ui("Ask a question about a position (like `havoc ask --json`).", lang),
                {
                    "question": {
                        "description": ui(
                            "The question as a mapping, or the compact words of the game (`havoc ask --help`).", lang
                        ),
                        "anyOf": [
                            {"$ref": "#/components/schemas/Question"},
                            {"type": "string", "minLength": 1, "maxLength": QUESTION_TEXT_MAX},
                            {
                                "type": "array",
                                "minItems": 1,
                                "maxItems": QUESTION_WORDS_MAX,
                                "items": {"type": "string", "minLength": 1},
                            },
                        ],
                    },
                    "as-of": {
                        "description": ui(
                            "Answer by the rules in force then: a layer of the rules (the printed rulebook, "
                            "an errata source) or a date; the answer's `ruleset` says which.",
                            lang,
                        ),
                        "anyOf": [
                            {"enum": rs.layer_names()},
                            {"type": "string", "pattern": r"^\d{4}(?:-\d{2}(?:-\d{2})?)?$"},
                        ],
                    },
                },
                ["question"],
            ),
            **{  # the question kinds the game declares as shortcuts (SHORTCUTS), fields as in Question
                f"/api/{s.kind}": post(
                    ui(s.summary, lang), {f: question["properties"][f] for f in s.fields}, [], s.kind
                )
                for s in game.shortcuts(game.of(rs)).values()
            },
            "/api/rules/{id}": {
                "get": {
                    "summary": ui("One rule in the asked language; a retired ID redirects to its successor.", lang),
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                        lang_param,
                    ],
                    "responses": {
                        "200": {
                            "description": ui("The rule (like `havoc rule --json`).", lang),
                            "content": _json_any(),
                        },
                        "308": {"description": ui("A retired ID: its successor.", lang)},
                        "404": _resp(ui("No rule has this ID.", lang), "Problem"),
                        "422": _resp(ui("An unknown language.", lang), "Problem"),
                    },
                }
            },
            "/api/search": {
                "get": {
                    "summary": ui("Search the rules (the same core as `havoc lookup`).", lang),
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
                        "200": {"description": ui("The hits, best first.", lang), "content": _json_any()},
                        "422": _resp(ui("A bad limit or language.", lang), "Problem"),
                        "503": _resp(ui("Search is not installed.", lang), "Problem"),
                    },
                }
            },
            "/api/labels": {
                "get": {
                    "summary": ui("The words an answer leaves as IDs (figure names, factions) in one language.", lang),
                    "parameters": [lang_param],
                    "responses": {
                        "200": {"description": ui("figures and factions, ID → label.", lang), "content": _json_any()},
                        "422": _resp(ui("An unknown language.", lang), "Problem"),
                    },
                }
            },
            "/api/schema/position": {
                "get": {
                    "summary": ui("The JSON Schema of positions (like `havoc schema`).", lang),
                    "responses": {"200": {"description": ui("JSON Schema 2020-12.", lang), "content": _json_any()}},
                }
            },
        },
        "components": {
            "schemas": {
                "Position": _position(rs, lang),
                "Question": question,
                "Answer": answer,
                "Problem": problem,
            }
        },
    }
    deciders = game.extra_answers(game.of(rs)) if rs.game else {}
    for name in deciders:
        summary = game.of(rs).labels().kind(name, lang)
        spec["paths"][f"/api/{name}"] = {
            "post": {
                "summary": ui("{summary} (like `havoc {name} --json`)", lang).format(summary=summary, name=name),
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "position": position_ref,
                                    "question": {
                                        "type": "object",
                                        "description": ui("What to decide and its fields.", lang),
                                    },
                                    "lang": lang_schema,
                                },
                                "required": ["position", "question"],
                                "additionalProperties": False,
                            }
                        }
                    },
                },
                "responses": {
                    "200": {
                        "description": ui("The decision, its rule, what was set aside.", lang),
                        "content": _json_any(),
                    },
                    **errors,
                },
            }
        }
    reader = game.text_reader(game.of(rs)) if rs.game else None
    if reader is not None:
        spec["paths"][f"/api/{reader[0]}"] = {
            "post": {
                "summary": ui("Read a question typed in words, as the game reads it.", lang),
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "text": {"type": "string", "maxLength": 500},
                                    "position": {"type": "object"},
                                    "lang": lang_schema,
                                },
                                "required": ["text"],
                                "additionalProperties": False,
                            }
                        }
                    },
                },
                "responses": {
                    "200": {
                        "description": ui("The question read: its pieces, what is missing, any refusal.", lang),
                        "content": _json_any(),
                    },
                    **errors,
                },
            }
        }
    # the game's other lookups (its LOOKUPS besides the text reader): a JSON object of their own fields
    for name in game.lookups(game.of(rs)) if rs.game else {}:
        if f"/api/{name}" in spec["paths"]:
            continue
        spec["paths"][f"/api/{name}"] = {
            "post": {
                "summary": ui("One of the game's lookups: its fields as a JSON object.", lang),
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"type": "object", "properties": {"lang": lang_schema}}}
                    },
                },
                "responses": {
                    "200": {"description": ui("The lookup's result.", lang), "content": _json_any()},
                    **errors,
                },
            }
        }
    # ``havoc serve`` answers only for the hosts it was told of (DNS rebinding): any operation
    misdirected = _resp(ui("The Host header names a host this server does not answer for.", lang), "Problem")
    for operations in spec["paths"].values():
        for operation in operations.values():
            operation["responses"].setdefault("421", misdirected)
    return spec


def _position(rs: Ruleset, lang: str = SOURCE_LANGUAGE) -> dict[str, Any]:
    """The position schema, with what the validator also checks about the list of players."""
    return _strip(_translated(game.of(rs).position_schema(rs), lang))


def _translated(schema: Any, lang: str) -> Any:
    """The schema with its descriptions in ``lang`` (a copy; the source language as it is)."""
    if lang == SOURCE_LANGUAGE:
        return schema
    tr = translator(lang)
    if isinstance(schema, dict):
        return {
            k: tr.text(API_CONTEXT, v) if k == "description" and isinstance(v, str) else _translated(v, lang)
            for k, v in schema.items()
        }
    if isinstance(schema, list):
        return [_translated(v, lang) for v in schema]
    return schema


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
