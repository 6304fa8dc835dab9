from __future__ import annotations

from havoc.language import markup


def _plain(text: str, values: dict[str, object], plural: object = None) -> str:
    index = (lambda n: 0 if n == 1 else 1) if plural is None else plural
    return markup.render_plain(text, values.__getitem__, index)  # type: ignore[arg-type]


def test_parameters_and_plural_words() -> None:
    assert _plain("Draw {n} {n:card|cards}.", {"n": 1}) == "Draw 1 card."
    assert _plain("Draw {n} {n:card|cards}.", {"n": 4}) == "Draw 4 cards."


def test_polish_three_forms() -> None:
    def pl(n: int) -> int:
        if n == 1:
            return 0
        return 1 if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else 2

    text = "{n} {n:Oddział|Oddziały|Oddziałów}"
    assert [_plain(text, {"n": n}, pl) for n in (1, 2, 5, 22, 12)] == [
        "1 Oddział",
        "2 Oddziały",
        "5 Oddziałów",
        "22 Oddziały",
        "12 Oddziałów",
    ]


def test_links_and_lists() -> None:
    blocks = markup.parse("See [Units](term:unit) and [leaving](rule:battle-region-leave).\n\n- one\n- *two*")
    refs = [p for p in markup.walk(blocks) if isinstance(p, markup.Ref)]
    assert [(r.kind, r.target, r.label) for r in refs] == [
        ("term", "unit", "Units"),
        ("rule", "battle-region-leave", "leaving"),
    ]
    assert isinstance(blocks[1], markup.BulletList)
    assert _plain("a\n\n- one\n- *two*", {}) == "a\n\n- one\n- two"


def test_placeholders_and_links_are_listed_for_translation_checks() -> None:
    text = "Keep {hand-limit} {hand-limit:card|cards}; see [x](rule:a)."
    assert markup.placeholders(text) == ["{hand-limit:card|cards}", "{hand-limit}"]
    assert markup.link_targets(text) == ["](rule:a)"]
    assert markup.stray_brace("a } b")
    assert not markup.stray_brace("{a} b")
