"""The shipped systemd units (deploy/systemd/): valid for systemd's own checker, one a
Procfile line running the very same command, and every variable they read in the
example environment file."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import servers

pytestmark = pytest.mark.backend_free  # reads the project's files

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"
VENV_BIN = "/srv/baccarat/.venv/bin"


def procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line and not line.startswith("#"))


def exec_start(unit: str) -> str:
    [line] = [line for line in (UNITS / unit).read_text().splitlines() if line.startswith("ExecStart=")]
    return line.removeprefix("ExecStart=")


def test_systemd_finds_nothing_wrong_with_the_units(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        servers.unavailable("systemd-analyze is not installed (Debian's systemd package)")
    for unit in UNITS.glob("baccarat*"):  # with this machine's virtualenv for /srv/baccarat's
        (tmp_path / unit.name).write_text(unit.read_text().replace(VENV_BIN, str(Path(sys.executable).parent)))
    names = sorted(path.name for path in tmp_path.iterdir())
    checked = subprocess.run(
        [analyze, "verify", "--man=no", *names],
        cwd=tmp_path, env={"SYSTEMD_UNIT_PATH": f"{tmp_path}:", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True,
    )  # fmt: skip
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, "")


@pytest.mark.parametrize("process", ["web", "api", "ws", "worker", "webhooks", "beat"])
def test_each_unit_runs_its_procfile_line(process: str) -> None:
    shipped = exec_start(f"baccarat-{process}.service").removeprefix(VENV_BIN + "/").replace("%%", "%")
    expected = re.sub(r"\$\{(\w+):-[^}]*\}", r"${\1}", procfile()[process])  # the defaults live in the env file
    assert shipped == expected


def test_every_procfile_process_has_a_unit_the_target_starts() -> None:
    target = (UNITS / "baccarat.target").read_text()
    [wants] = re.findall(r"^Wants=(.*)$", target, re.MULTILINE)
    assert set(wants.split()) == {f"baccarat-{process}.service" for process in procfile()}


def test_the_example_environment_sets_every_variable_the_units_read() -> None:
    read = {name for unit in UNITS.glob("*.service") for name in re.findall(r"\$\{?(\w+)\}?", unit.read_text())}
    read -= {"MAINPID"}  # systemd's own
    example = (UNITS / "env.example").read_text()
    assert read <= set(re.findall(r"^(\w+)=", example, re.MULTILINE))
