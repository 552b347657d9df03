"""The package as users get it (a wheel pip-installed into a fresh virtualenv): calibrating in a project never
writes into site-packages, so no one else's normalized scores change and a read-only install works.

Slow (a wheel build and two calibration sessions, about two minutes here), and it needs the build backend
(hatchling) from pip's cache or the package index; without one it is skipped, saying so.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def tree_hash(root: Path) -> tuple[int, str]:
    """(files, sha256 over every file's path and bytes) of a folder."""
    digest, files = hashlib.sha256(), sorted(p for p in root.rglob("*") if p.is_file())
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return len(files), digest.hexdigest()


def installed(tmp_path: Path) -> tuple[Path, Path]:
    """A fresh virtualenv with the wheel installed; the dependencies come from this environment's site-packages
    (a .pth line, so nothing is downloaded). Returns (its bin folder, its site-packages)."""
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                            str(REPO)], capture_output=True, text=True, timeout=600)
    wheels = list((tmp_path / "dist").glob("pytest_gameworld-*.whl"))
    if build.returncode != 0 or not wheels:
        pytest.skip(f"no wheel could be built here (build backend unavailable?): {build.stderr.strip()[-300:]}")
    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env)  # this environment's pip installs into it (--python): no ensurepip
    python = env / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "gw-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheels[0])],
                   check=True, capture_output=True, timeout=300)
    where = subprocess.run([str(python), "-c", "import pytest_gameworld; print(pytest_gameworld.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout.strip()
    assert Path(where).is_relative_to(site), f"the wheel's copy must be the one imported, not {where}"
    return env / "bin", site


def test_calibrate_from_an_installed_package_leaves_site_packages_unchanged(tmp_path):
    bin_dir, site = installed(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    before = tree_hash(site)
    r = subprocess.run([str(bin_dir / "gameworld"), "calibrate", "-k", "19_01", "--repeat", "1",
                        "--agents", "random,oracle"], cwd=project,
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert tree_hash(site) == before, "site-packages changed"
    target = project / "gameworld-baselines.json"
    assert sorted(p.name for p in project.iterdir()) == [target.name]
    made = json.loads(target.read_text())
    assert made["tasks"]["19_01"]["random"]["runs"] == 1 and made["made"]["select"] == "19_01"
    assert f"sessions use it with --gw-baselines {target}" in r.stdout
    print(f"site-packages before and after: {before[0]} files, sha256 {before[1][:16]}")
