"""hardware/pi: the install script's dry run (on this non-Pi machine: it prints every step and
changes nothing), its argument errors, the installed config, and the systemd unit checked
with `systemd-analyze verify` where that exists."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import config as configmod

PI = Path(__file__).resolve().parent.parent / "hardware" / "pi"
SCRIPT = PI / "install.sh"
WATCHED = [Path("/etc/chroma-companion"), Path("/opt/chroma-companion"),
           Path("/usr/local/bin/companion"), Path("/etc/systemd/system/chroma-companion.service"),
           Path("/etc/polkit-1/rules.d/50-chroma-companion.rules"), Path("/tmp/cc-test-config")]


def sh(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=60, env=env)


def fake_apt_cache(folder: Path, *, none: tuple[str, ...] = ()) -> dict[str, str]:
    """An environment whose `apt-cache policy P` has a candidate for every package but those
    in `none` (as plain Debian has no python3-lgpio): the dry run's answer on any machine."""
    fake = folder / "apt-cache"
    fake.write_text('#!/bin/sh\ncase " $NO_CANDIDATE " in *" $2 "*) exit 0 ;; esac\n'
                    'printf "%s:\\n  Installed: (none)\\n  Candidate: 1.0-1\\n" "$2"\n')
    fake.chmod(0o755)
    return {**os.environ, "PATH": f"{folder}:{os.environ['PATH']}", "NO_CANDIDATE": " ".join(none)}


def exists(p: Path) -> bool | str:
    """Whether `p` exists; "unknown" where an ordinary user may not look (polkit's rules.d
    is 0750 or 0700: Path.exists raises PermissionError there on Python 3.11)."""
    try:
        return p.exists()
    except PermissionError:
        return "unknown"


def snapshot() -> dict:
    users = Path("/etc/passwd").read_text()
    groups = Path("/etc/group").read_text()
    return {"exists": [exists(p) for p in WATCHED], "passwd": users, "group": groups,
            "boot": [Path(p).read_bytes() if Path(p).exists() else None
                     for p in ("/boot/config.txt", "/boot/firmware/config.txt", "/etc/modules")]}


def test_dry_run_prints_every_step_and_changes_nothing(tmp_path):
    before = snapshot()
    done = sh("--dry-run", "--config", "/tmp/cc-test-config/config.toml",
              env=fake_apt_cache(tmp_path))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert snapshot() == before
    assert "Dry run: printing the steps, changing nothing." in out
    steps = re.findall(r"^==> (\d)\. ", out, re.M)
    assert steps == list("1234567")
    for expected in ("i2c_arm_baudrate=400000", "python3-lgpio", "python3-rpi-lgpio",
                     "python3-spidev", "dialout and spi groups",
                     "--system-site-packages /opt/chroma-companion/venv",
                     "pip install --only-binary=lgpio\\,rpi-lgpio "
                     + str(SCRIPT.parents[2]).replace(" ", "\\ ") + "\\[pi\\]",
                     "/tmp/cc-test-config/config.toml",
                     "systemctl enable chroma-companion"):
        assert expected in out, expected
    if "user companion exists" not in out:
        assert "useradd --system" in out and "--user-group companion" in out
    # The service's folder, made now: doctor as the service user works before the first start.
    assert ("install -d -o companion -g companion -m 0750 /var/lib/chroma-companion" in out
            or "ok: /var/lib/chroma-companion exists" in out)
    for line in out.splitlines():  # every action is announced, none is done
        assert not line.startswith("    ") or line.startswith(("    would run:", "    ok:"))


def test_the_original_rpi_gpio_makes_way_for_rpi_lgpio_in_one_apt_transaction(tmp_path):
    # A stand-in dpkg-query: an older image with the original RPi.GPIO and nothing else.
    fake = tmp_path / "dpkg-query"
    fake.write_text('#!/bin/sh\nfor a; do p="$a"; done\n'
                    '[ "$p" = python3-rpi.gpio ] && printf "install ok installed"\n'
                    '[ "$p" = python3-rpi.gpio ] || exit 1\n')
    fake.chmod(0o755)
    env = fake_apt_cache(tmp_path)
    done = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--config",
                           "/tmp/cc-test-config/c.toml"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    apt = [ln for ln in done.stdout.splitlines() if "apt-get install" in ln]
    assert len(apt) == 1
    packages = apt[0].split("install -y ")[1].split()
    assert {"python3-lgpio", "python3-rpi-lgpio", "python3-rpi.gpio-"} <= set(packages)
    assert "makes way for python3-rpi-lgpio" in done.stdout


def test_a_dry_run_on_plain_debian_names_the_raspberry_pi_archive_and_exits_1(tmp_path):
    """No apt source has the pin libraries (plain Debian, trixie or not): the dry run still
    prints every step, says plainly where those two come from, and exits 1 as the real run
    would stop there."""
    env = fake_apt_cache(tmp_path, none=("python3-lgpio", "python3-rpi-lgpio"))
    done = sh("--dry-run", "--config", "/tmp/cc-test-config/config.toml", env=env)
    assert done.returncode == 1
    assert re.findall(r"^==> (\d)\. ", done.stdout, re.M) == list("1234567")
    assert "stop: no apt source here has python3-lgpio python3-rpi-lgpio" in done.stderr
    assert "come only from the Raspberry Pi archive (http://archive.raspberrypi.com/debian/)" \
        in done.stderr
    assert "a real run would stop" in done.stdout and "Traceback" not in done.stderr
    # Any other package apt cannot find: said as plainly, without blaming the Pi archive.
    done = sh("--dry-run", "--config", "/tmp/cc-test-config/config.toml",
              env={**fake_apt_cache(tmp_path, none=("i2c-tools",)),
                   "PATH": f"{tmp_path}:{stand_in_dpkg(tmp_path)}:{os.environ['PATH']}"})
    assert done.returncode == 1
    assert "stop: no apt source here has i2c-tools (try: sudo apt-get update)" in done.stderr
    assert "Raspberry Pi archive" not in done.stderr


def stand_in_dpkg(folder: Path) -> Path:
    """A folder with a dpkg-query that finds nothing installed."""
    bin_ = folder / "nothing-installed"
    bin_.mkdir(exist_ok=True)
    (bin_ / "dpkg-query").write_text("#!/bin/sh\nexit 1\n")
    (bin_ / "dpkg-query").chmod(0o755)
    return bin_


def test_no_apt_leaves_the_pin_libraries_to_wheels_never_a_source_build(tmp_path):
    done = sh("--dry-run", "--no-apt", "--config", "/tmp/cc-test-config/config.toml",
              env=fake_apt_cache(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "skipped (--no-apt)" in done.stdout
    pip = [ln for ln in done.stdout.splitlines() if "pip install" in ln and "[pi]" in
           ln.replace("\\", "")]
    assert len(pip) == 1 and "--only-binary=lgpio\\,rpi-lgpio" in pip[0]
    assert "--quiet" not in done.stdout  # pip's output goes to a log, shown if it fails
    assert re.search(r"^    (ok|note): pin libraries", done.stdout, re.M)


def pin_libraries():
    spec = importlib.util.spec_from_file_location("pin_libraries", PI / "pin_libraries.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pin_library_check_reads_the_pi_extra_and_what_is_installed():
    pins = pin_libraries()
    on_pi = "; platform_machine == 'aarch64' or platform_machine == 'armv7l'"
    assert pins.check("pytest>=7" + on_pi, "aarch64") == (True, f"ok pytest {pytest.__version__}")
    assert pins.check("pytest>=999.1" + on_pi, "armv7l") == (
        False, f"old pytest {pytest.__version__} (needs >=999.1)")
    assert pins.check("no-such-pin-library>=0.2" + on_pi, "aarch64") == (
        False, "missing no-such-pin-library>=0.2")
    assert pins.check("no-such-pin-library>=0.2" + on_pi, "x86_64") == (
        True, "not needed on x86_64: no-such-pin-library")
    with pytest.raises(ValueError):
        pins.check("lgpio~=0.2", "aarch64")  # a form it cannot check: said, not guessed
    # This project's own [pi] extra is in the form it reads (exit 0 or 1, never 2).
    done = subprocess.run([sys.executable, str(PI / "pin_libraries.py"),
                           str(PI.parents[1] / "pyproject.toml")], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and "lgpio" in lines[0] and "rpi-lgpio" in lines[1], lines
    assert "spidev" in lines[2], lines  # the light ring's, from apt's python3-spidev


def test_the_pi_smoke_driver_passes_here(tmp_path):
    """.ci/smoke.py, which `make pi-smoke` runs in the arm64 chroot, against this machine's
    companion: a few presses and a roll, waiting for each ack."""
    companion = Path(sys.executable).with_name("companion")
    if not companion.exists():
        pytest.skip("no companion command beside this Python (pip install -e .)")
    done = subprocess.run([sys.executable, str(PI.parents[1] / ".ci" / "smoke.py"),
                           str(companion), str(tmp_path / "smoke")], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "acks ['first', 'next', 'next', 'roll']" in done.stdout


@pytest.mark.parametrize("script", ["trixie", "pi-smoke"])
def test_the_chroot_scripts_are_valid_bash_and_say_what_they_miss(script):
    path = PI.parents[1] / ".ci" / script
    assert subprocess.run(["bash", "-n", str(path)]).returncode == 0
    assert os.access(path, os.X_OK)
    env = {k: v for k, v in os.environ.items() if k != "CI"}  # CI=true would apt-get it
    env["PATH"] = "/usr/bin:/bin"  # no /usr/sbin: no debootstrap
    done = subprocess.run(["bash", str(path)], capture_output=True, text=True, timeout=60,
                          env=env)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    want = "run it as root" if os.geteuid() != 0 else "debootstrap is not installed"
    assert want in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


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
    assert {"char-gpiochip rw", "char-i2c rw", "char-ttyACM rw",
            "char-spi rw"} <= set(u["DeviceAllow"])  # char-spi: the light ring's /dev/spidev*
    assert "PrivateDevices" not in u  # it would hide /dev/gpiochip* and /dev/i2c-*
    assert set(u["SupplementaryGroups"][0].split()) == {"gpio", "i2c", "dialout", "spi"}


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


def test_the_box_voice_is_installed_and_the_unit_lets_it_reach_the_sound_cards(tmp_path):
    """[speech] on the box: espeak-ng and aplay from apt, the service user in `audio`, and
    /dev/snd/* through the unit's closed device policy (docs/speech.md, On the box)."""
    done = sh("--dry-run", "--config", "/tmp/cc-test-config/config.toml",
              env=fake_apt_cache(tmp_path))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"^==> 2\. System packages: .*\bespeak-ng alsa-utils\b", out, re.M)
    assert ("usermod -aG audio companion" in out or "ok: companion is in audio" in out)
    # The installed config's [speech] block, uncommented, turns it on.
    text = (PI / "config.toml").read_text()
    block = text[text.index("# [speech]"):]
    on = "\n".join(line[2:] if line.startswith("# ") and "=" in line or line == "# [speech]"
                   else line for line in block.splitlines())
    path = tmp_path / "speech.toml"
    path.write_text(on)
    sp = configmod.load(path, required=True)["speech"]
    assert sp["enabled"] is True and sp["device"] == "plughw:1,0"
    u = unit()
    assert "char-alsa rw" in u["DeviceAllow"]
    assert "audio" in " ".join(u["SupplementaryGroups"]).split()
