"""The loader's model: overlays, retired IDs, the cache and the CLI's views of one rule."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from havoc.cli import main
from havoc.engine import rulebook


def test_overlays_and_views(mini_copy: Path) -> None:
    rs = rulebook.load("mini")
    base = rs.view()
    assert "battle-region-leave" in base.rules
    assert [a.id for a in base.amendments["battle-region-leave"]] == ["faq-leave-wording"]
    solo = rs.view("solo")
    assert "battle-region-leave" not in solo.rules
    assert solo.replaced_by["battle-region-leave"].id == "solo-no-leave"
    assert "solo-hand" in solo.rules and "solo-hand" not in base.rules
    assert rs.overlays["solo"].fan_made


def test_retired_ids_resolve_to_their_successor(mini_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rs = rulebook.load("mini")
    assert rs.resolve("old-leave") == "battle-region-leave"
    assert rs.resolve("never-was") is None
    assert main(["rule", "old-leave", "--ruleset", "mini"]) == 0
    assert "retired" in capsys.readouterr().out


def test_cache_is_used_and_invalidated(mini_copy: Path) -> None:
    cache = Path(os.environ["HAVOC_CACHE_DIR"])
    rs1 = rulebook.load("mini")
    files = sorted(cache.glob("rules-mini-*.bin"))
    assert files, "the validated ruleset is cached on disk"
    rulebook._memo.clear()
    rs2 = rulebook.load("mini")
    assert rs2.fingerprint == rs1.fingerprint and rs2 is not rs1
    draw = mini_copy / "mini/sections/01-draw.yaml"
    draw.write_text(draw.read_text().replace("value: 7", "value: 8"))
    rs3 = rulebook.load("mini")
    assert rs3.param("hand-limit") == 8
    assert rs3.fingerprint != rs1.fingerprint


def test_unknown_rule_suggests(mini_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "draw-hand-limt", "--ruleset", "mini"]) == 1
    assert "did you mean draw-hand-limit" in capsys.readouterr().err


def test_rule_json_carries_everything(mini_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "battle-region-leave", "--json", "--ruleset", "mini"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["parameters"]["leave-block-factor"]["value"] == 2
    assert data["text"].startswith("Only the defender may leave. Each attacking Unit holds 2 defending Units.")
    assert data["examples"][0]["id"] == "ex-leave"
    assert data["amended-by"][0]["id"] == "faq-leave-wording"
    assert data["check"]["queries"] == ["move"]
    assert data["terms"] == ["unit"]


def test_rules_tree_json(mini_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json", "--ruleset", "mini"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["id"] for s in data["parts"][0]["sections"]] == ["draw", "battle-regions"]
    assert {o["id"] for o in data["overlays"]} == {"errata", "solo"}


def test_help_on_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    from havoc.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in sub.choices:  # type: ignore[union-attr]
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0
        assert "usage: havoc" in capsys.readouterr().out


def test_the_command_map_matches_what_modules_register() -> None:
    import argparse
    import importlib

    from havoc.cli import all_commands

    commands = all_commands()
    assert {"ask", "check", "docs"} <= set(commands)
    for module in set(commands.values()):
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(module).register(sub)
        registered = set(sub.choices)
        assert registered == {name for name, mod in commands.items() if mod == module}


def test_rule_parameters_read_in_the_readers_language() -> None:
    """``havoc rule --lang pl`` gives a parameter's value with its counted unit and its description in Polish."""
    from havoc.engine.ruledata import rule_data
    from havoc.language.i18n import Translator

    rs = rulebook.load()
    pl = rule_data(rs, Translator("pl", scope=rs.id), rs.rules["actions-count"])["parameters"]["actions-per-round"]
    en = rule_data(rs, Translator("en", scope=rs.id), rs.rules["actions-count"])["parameters"]["actions-per-round"]
    assert pl["value"] == en["value"] == 3
    assert pl["text"] == "3 Akcje" and en["text"] == "3 actions"
    assert pl["description"] and pl["description"] != en["description"]
