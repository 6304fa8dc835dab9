"""A fixture site: the real site's configuration, on the toy second game (tests/fixtures/toy)."""

from pathlib import Path

import havoc

REPO = Path(havoc.__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
_real = REPO / "docsbuild" / "conf.py"
exec(compile(_real.read_text(encoding="utf-8"), str(_real), "exec"), {"__file__": str(_real)}, _conf := {})
globals().update({k: v for k, v in _conf.items() if not k.startswith("_") and k not in {"Path", "locales_root", "annotations"}})

havoc_ruleset = "toy"
templates_path = [str(REPO / "docsbuild" / "_templates")]
locale_dirs = [str(REPO / "locales")]
havoc_sheets_dir = str(HERE / "sheets")
