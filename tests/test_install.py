"""hardware/pi: the install script's dry run (on this non-Pi machine: it prints every step and
changes nothing), its argument errors, the installed config, and the systemd unit checked
with `systemd-analyze verify` where that exists."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion import config as configmod

PI = Path(__file__).resolve().parent.parent / "hardware" / "pi"
SCRIPT = PI / "install.sh"
WATCHED = [Path("/etc/chroma-companion"), Path("/opt/chroma-companion"),
           Path("/usr/local/bin/companion"), Path("/etc/systemd/system/chroma-companion.service"),
           Path("/etc/polkit-1/rules.d/50-chroma-companion.rules"), Path("/tmp/cc-test-config")]


def sh(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=60)


def snapshot() -> dict:
    users = Path("/etc/passwd").read_text()
    groups = Path("/etc/group").read_text()
    return {"exists": [p.exists() for p in WATCHED], "passwd": users, "group": groups,
            "boot": [Path(p).read_bytes() if Path(p).exists() else None
                     for p in ("/boot/config.txt", "/boot/firmware/config.txt", "/etc/modules")]}


def test_dry_run_prints_every_step_and_changes_nothing():
    before = snapshot()
    done = sh("--dry-run", "--config", "/tmp/cc-test-config/config.toml")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert snapshot() == before
    assert "Dry run: printing the steps, changing nothing." in out
    steps = re.findall(r"^==> (\d)\. ", out, re.M)
    assert steps == list("1234567")
    for expected in ("i2c_arm_baudrate=400000", "python3-lgpio", "python3-rpi-lgpio",
                     "--system-site-packages /opt/chroma-companion/venv",
                     "pip install --quiet " + str(SCRIPT.parents[2]).replace(" ", "\\ ") + "\\[pi\\]",
                     "/tmp/cc-test-config/config.toml",
                     "systemctl enable chroma-companion"):
        assert expected in out, expected
    if "user companion exists" not in out:
        assert "useradd --system" in out and "--user-group companion" in out
    for line in out.splitlines():  # every action is announced, none is done
        assert not line.startswith("    ") or line.startswith(("    would run:", "    ok:"))


def test_the_original_rpi_gpio_makes_way_for_rpi_lgpio_in_one_apt_transaction(tmp_path):
    # A stand-in dpkg-query: an older image with the original RPi.GPIO and nothing else.
    fake = tmp_path / "dpkg-query"
    fake.write_text('#!/bin/sh\nfor a; do p="$a"; done\n'
                    '[ "$p" = python3-rpi.gpio ] && printf "install ok installed"\n'
                    '[ "$p" = python3-rpi.gpio ] || exit 1\n')
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--config",
                           "/tmp/cc-test-config/c.toml"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    apt = [ln for ln in done.stdout.splitlines() if "apt-get install" in ln]
    assert len(apt) == 1
    packages = apt[0].split("install -y ")[1].split()
    assert {"python3-lgpio", "python3-rpi-lgpio", "python3-rpi.gpio-"} <= set(packages)
    assert "makes way for python3-rpi-lgpio" in done.stdout


def test_bad_arguments_are_one_line_errors():
    for args, text in ((["--bogus"], "unknown option --bogus"),
                       (["--config"], "--config needs a path"),
                       (["--dry-run", "--config", "relative.toml"], "must be an absolute path")):
        done = sh(*args)
        assert done.returncode == 2 and text in done.stderr and "Traceback" not in done.stderr
    help_ = sh("--help")
    assert help_.returncode == 0 and "--dry-run" in help_.stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="running as root: the root check cannot trip")
def test_without_root_it_refuses_to_change_anything():
    done = sh()
    assert done.returncode == 1 and "run it as root" in done.stderr


def test_the_script_is_valid_bash():
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0
    assert os.access(SCRIPT, os.X_OK)


def test_the_installed_config_is_valid_and_keeps_the_journal_in_the_state_directory():
    cfg = configmod.load(PI / "config.toml", required=True)
    assert cfg.journal_path() == Path("/var/lib/chroma-companion/journal.db")


def unit() -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in (PI / "companion.service").read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            k, v = line.split("=", 1)
            keys.setdefault(k, []).append(v)
    return keys


def test_the_unit_is_hardened_without_breaking_gpio_i2c_serial():
    u = unit()
    assert u["User"] == ["companion"] and u["NoNewPrivileges"] == ["yes"]
    assert u["ProtectSystem"] == ["strict"] and u["StateDirectory"] == ["chroma-companion"]
    assert u["Restart"] == ["on-failure"]
    assert u["ExecStart"][0].endswith("companion run --config /etc/chroma-companion/config.toml")
    assert u["WorkingDirectory"] == ["/var/lib/chroma-companion"]  # lgpio's .lgd-nfy pipes
    assert {"char-gpiochip rw", "char-i2c rw", "char-ttyACM rw"} <= set(u["DeviceAllow"])
    assert "PrivateDevices" not in u  # it would hide /dev/gpiochip* and /dev/i2c-*
    assert set(u["SupplementaryGroups"][0].split()) == {"gpio", "i2c", "dialout"}


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (apt-get install systemd)")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    # verify checks that ExecStart's program exists: point it at one that does.
    text = (PI / "companion.service").read_text()
    text = re.sub(r"^ExecStart=\S+", f"ExecStart={shutil.which('true')}", text, flags=re.M)
    path = tmp_path / "chroma-companion.service"
    path.write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "chroma-companion.service" not in done.stderr, done.stderr  # no warnings about it
