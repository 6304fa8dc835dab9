"""requirements.lock and pyproject.toml agree: every dependency pyproject.toml names (the
package's, every extra's and the build backend's) is pinned in the lock at a version its range
admits, every pin carries hashes, and the lock is refreshed only by ``make lock``.

Without a lock a fresh machine took whatever PyPI had that day: Babel 2.19.0, out a day after a
green build, failed ``make site``. Checked offline, from the two files alone.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parents[1]
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def _pins(text: str) -> dict[str, list[Version]]:
    pins: dict[str, list[Version]] = {}
    for line in text.splitlines():
        found = _PIN.match(line)
        if found:
            pins.setdefault(canonicalize_name(found[1]), []).append(Version(found[2]))
    return pins


def _declared(pyproject: dict[str, object]) -> list[Requirement]:
    project = pyproject["project"]
    assert isinstance(project, dict)
    names = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        names += extra
    build = pyproject["build-system"]
    assert isinstance(build, dict)
    return [Requirement(r) for r in names + list(build["requires"])]


def disagreements(pyproject_text: str, lock_text: str) -> list[str]:
    """What a reader of both files would call out: a dependency the lock lacks or pins outside
    its range, and a pin without a hash."""
    pins = _pins(lock_text)
    problems = []
    for req in _declared(tomllib.loads(pyproject_text)):
        versions = pins.get(canonicalize_name(req.name))
        if not versions:
            problems.append(f"{req.name}: in pyproject.toml, not in requirements.lock (run `make lock`)")
        elif not any(req.specifier.contains(v, prereleases=True) for v in versions):
            problems.append(f"{req}: requirements.lock pins {', '.join(map(str, versions))} (run `make lock`)")
    blocks = re.split(r"\n(?=[A-Za-z0-9])", lock_text)
    problems += [
        f"{b.split()[0]}: pinned without a hash" for b in blocks if _PIN.match(b) and "--hash=sha256:" not in b
    ]
    return problems


def test_the_lock_pins_every_dependency_within_its_range_with_hashes() -> None:
    assert (
        disagreements((REPO / "pyproject.toml").read_text("utf-8"), (REPO / "requirements.lock").read_text("utf-8"))
        == []
    )


def test_a_new_dependency_or_a_narrowed_range_is_caught() -> None:
    pyproject = (REPO / "pyproject.toml").read_text("utf-8")
    lock = (REPO / "requirements.lock").read_text("utf-8")
    added = pyproject.replace('"pyyaml>=6.0",', '"pyyaml>=6.0", "left-pad>=1",')
    assert disagreements(added, lock) == ["left-pad: in pyproject.toml, not in requirements.lock (run `make lock`)"]
    narrowed = pyproject.replace('"babel>=2.14"', '"babel>=99"')
    assert len(disagreements(narrowed, lock)) == 1
    lines = lock.split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("babel=="))
    end = next(i for i in range(at + 1, len(lines)) if "--hash=" not in lines[i])
    pin = lines[at].rstrip(" \\")
    unhashed = "\n".join([*lines[:at], pin, *lines[end:]])
    assert disagreements(pyproject, unhashed) == [f"{pin}: pinned without a hash"]


def test_every_install_goes_through_the_lock_with_hashes() -> None:
    makefile = (REPO / "Makefile").read_text("utf-8")
    installs = [ln.strip() for ln in makefile.splitlines() if "pip install" in ln]
    assert installs, "the Makefile installs nothing"
    for line in installs:
        locked = "--require-hashes" in line and "-r requirements.lock" in line
        assert locked or ("--no-deps" in line and "--no-index" in line), line
    assert "--upgrade pip" not in makefile
    assert "make lock" in (REPO / "requirements.lock").read_text("utf-8").splitlines()[1]
