"""scripts/ensure-system-deps names every Debian package a bare machine lacks.

Debian's ``nodejs`` only *suggests* ``npm``, and the script installs with
``--no-install-recommends``: a machine with Node.js but no npm must get ``npm`` named on its own,
or ``npm ci`` (the site's pinned Pyodide) fails later with a far less helpful message. The script
is run against a PATH of stand-ins, as a non-root user, so it reports instead of installing.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "ensure-system-deps"
FONTS = "/usr/share/fonts/DejaVuSans.ttf: DejaVu Sans\n/usr/share/fonts/DejaVuSansCondensed.ttf: DejaVu Sans\n"


def run_with(tmp_path: Path, present: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    """The script on a PATH holding only bash, grep, the stand-ins named and a non-root ``id``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "grep"):
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    stand_ins = {name: "#!/bin/sh\nexit 0\n" for name in present}
    stand_ins["id"] = "#!/bin/sh\necho 1000\n"
    stand_ins["fc-list"] = f"#!/bin/sh\nprintf '{FONTS}'\n"
    for name, body in stand_ins.items():
        (bin_dir / name).write_text(body)
        (bin_dir / name).chmod(0o755)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "LANG": "C"}
    return subprocess.run(
        [str(bin_dir / "bash"), str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=30
    )


@pytest.mark.parametrize("args", [(), ("site",)])
def test_node_without_npm_names_npm(tmp_path: Path, args: tuple[str, ...]) -> None:
    r = run_with(tmp_path, ["node", "chromium", "pdftoppm"], *args)
    assert r.returncode == 1, r
    missing = r.stderr.split("missing Debian packages:")[1].split("(")[0].split()
    assert missing == ["npm"], r.stderr


def test_a_bare_machine_gets_nodejs_and_npm_both(tmp_path: Path) -> None:
    r = run_with(tmp_path, [])
    missing = r.stderr.split("missing Debian packages:")[1].split("(")[0].split()
    assert {"nodejs", "npm", "chromium", "poppler-utils"} <= set(missing), r.stderr


def test_nothing_missing_installs_nothing(tmp_path: Path) -> None:
    r = run_with(tmp_path, ["node", "npm", "chromium", "pdftoppm"])
    assert (r.returncode, r.stdout, r.stderr) == (0, "", ""), r
