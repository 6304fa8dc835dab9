"""What the service worker keeps and what the first visit downloads (issue 40), without a browser:
a page that only sends the reader on is answered from a map instead of kept, files with the same
bytes count once, and the engine's package lock lists no package."""

from __future__ import annotations

import json
from pathlib import Path

from havoc.web.offline import first_visit, moved_to, no_packages, precached, write_service_worker

STUB = (
    '<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=../rules/move.html#move-points">'
    "</head><body>here</body></html>"
)


def site(top: Path) -> Path:
    for rel, text in {
        "en/rules/move.html": '<html><head><link rel="stylesheet" href="../_static/theme.css?v=1a2b3c"></head><body>'
        + "Move points. " * 50
        + "</body></html>",
        "en/rule/move-points.html": STUB,
        "en/rule/elsewhere.html": STUB.replace("../rules/move.html", "https://example.org/x.html"),
        "en/rule/gone.html": STUB.replace("../rules/move.html", "../rules/gone.html"),
        "en/rule/up.html": STUB.replace("../rules/move.html", "../../../outside.html"),
        "en/_static/theme.css": "body { color: red }\n" * 40,
        "pl/_static/theme.css": "body { color: red }\n" * 40,
        "_engine/engine.json": "{}",
    }.items():
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text(text, encoding="utf-8")
    return top


def test_a_page_that_only_redirects_is_mapped_not_kept(tmp_path: Path) -> None:
    top = site(tmp_path)
    kept, moved = precached(top)
    assert moved == {"en/rule/move-points.html": "en/rules/move.html#move-points"}
    # a target outside the site, missing, or above it: the page is kept as it is
    assert {"en/rule/elsewhere.html", "en/rule/gone.html", "en/rule/up.html"} <= set(kept)
    assert "en/rule/move-points.html" not in kept


def test_a_big_page_with_a_refresh_is_content(tmp_path: Path) -> None:
    top = site(tmp_path)
    big = top / "en" / "rule" / "big.html"
    big.write_text(STUB.replace("here", "words " * 2000), encoding="utf-8")
    assert moved_to(top, "en/rule/big.html") is None


def test_the_service_worker_lists_the_map_and_not_the_stubs(tmp_path: Path) -> None:
    top = site(tmp_path)
    text = write_service_worker(top).read_text(encoding="utf-8")
    files = json.loads(text[text.index("var FILES = ") + len("var FILES = ") : text.index(";\nvar CACHE")])
    assert "en/rule/move-points.html" not in {entry[0] for entry in files}
    # fetched with the query the pages load it with: the open page's copy in the HTTP cache serves
    assert {entry[0]: entry[2:] for entry in files}["en/_static/theme.css"] == ["?v=1a2b3c"]
    assert {entry[0]: entry[2:] for entry in files}["pl/_static/theme.css"] == []
    moved = json.loads(
        text[text.index("var MOVED = ") + len("var MOVED = ") : text.index(";", text.index("var MOVED"))]
    )
    assert moved == {"en/rule/move-points.html": "en/rules/move.html#move-points"}
    # a changed target is a new version of the worker (a new cache), not the old one in place
    first = text.split('var VERSION = "')[1][:16]
    (top / "en/rule/move-points.html").write_text(STUB.replace("#move-points", "#move-adjacent"), encoding="utf-8")
    again = write_service_worker(top).read_text(encoding="utf-8")
    assert again.split('var VERSION = "')[1][:16] != first


def test_twins_count_once_in_the_first_visit(tmp_path: Path) -> None:
    top = site(tmp_path)
    write_service_worker(top)
    before = first_visit(top)
    (top / "pl/_static/theme.css").write_text("body { color: blue }\n" * 40, encoding="utf-8")
    after = first_visit(top)
    assert after["files"] == before["files"] + 1
    assert after["total"] > before["total"]
    assert before["engine"] > 0 and before["engine"] < before["total"]


def test_the_engine_lock_keeps_its_info_and_no_package() -> None:
    lock = json.dumps({"info": {"python": "3.14.2", "arch": "wasm32"}, "packages": {"numpy": {"name": "numpy"}}})
    data = json.loads(no_packages(lock.encode()))
    assert data == {"info": {"python": "3.14.2", "arch": "wasm32"}, "packages": {}}
