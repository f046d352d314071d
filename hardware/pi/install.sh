#!/usr/bin/env bash
# Install the Chroma Table Companion on Raspberry Pi OS (Bookworm or later). Idempotent: run it
# again at any time; steps already done are skipped and your config is never overwritten.
#
#   sudo hardware/pi/install.sh [--dry-run] [--config PATH] [--prefix DIR] [--no-apt]
#
# --dry-run prints every step and changes nothing (it needs no root and works on any Linux);
# it checks that apt can find each package, and exits 1 when the real run would stop.
#
# python3-lgpio and python3-rpi-lgpio (the pin libraries) come only from the Raspberry Pi
# archive (archive.raspberrypi.com), which Raspberry Pi OS has in its apt sources: plain
# Debian has neither. With --no-apt, pip must find them as wheels on PyPI (lgpio has them for
# Python 3.9 to 3.12 only, not for trixie's 3.13): it never builds them from source here.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="$(cd "$HERE/../.." && pwd)"
PREFIX=/opt/chroma-companion
CONFIG=/etc/chroma-companion/config.toml
USER_NAME=companion
SERVICE=chroma-companion
STATE=/var/lib/chroma-companion
DRY=0
APT=1
# python3-lgpio is gpiozero's first choice of pin library; python3-rpi-lgpio is the RPi.GPIO API
# on top of lgpio (its second choice; unlike the original RPi.GPIO it works on a Pi 5 too).
# python3-spidev drives the light ring over SPI (Debian's own: plain Debian has it too).
APT_PACKAGES=(python3-venv python3-dev python3-lgpio python3-rpi-lgpio python3-spidev i2c-tools git)
# The ones plain Debian does not have: only the Raspberry Pi archive does.
RPI_ARCHIVE=(python3-lgpio python3-rpi-lgpio)
RPI_ARCHIVE_URL=http://archive.raspberrypi.com/debian/
# Never built from source by pip (no swig, no liblgpio on a Pi): apt's, or a wheel.
PIN_PACKAGES=lgpio,rpi-lgpio
# The original RPi.GPIO installs the same module as python3-rpi-lgpio: apt swaps it out.
APT_REPLACED=(python3-rpi.gpio)
# The box's voice ([speech] in the config, off until enabled; docs/speech.md): espeak-ng says
# the calls, aplay (alsa-utils) plays them on [speech] device; installed either way, so that
# enabling it is one line of the config.
APT_PACKAGES+=(espeak-ng alsa-utils)

usage() {
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    echo "Options: --dry-run, --config PATH (default $CONFIG), --prefix DIR (default $PREFIX), --no-apt, --help"
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --config) [ $# -ge 2 ] || { echo "install.sh: --config needs a path" >&2; exit 2; }
                  CONFIG="$2"; shift ;;
        --config=*) CONFIG="${1#--config=}" ;;
        --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a directory" >&2; exit 2; }
                  PREFIX="$2"; shift ;;
        --prefix=*) PREFIX="${1#--prefix=}" ;;
        --no-apt) APT=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$CONFIG" in /*) ;; *) echo "install.sh: --config must be an absolute path" >&2; exit 2 ;; esac
case "$PREFIX" in /*) ;; *) echo "install.sh: --prefix must be an absolute path" >&2; exit 2 ;; esac

VENV="$PREFIX/venv"
UNIT=/etc/systemd/system/$SERVICE.service
POLKIT_DIR=/etc/polkit-1/rules.d

step() { echo "==> $*"; }
skip() { echo "    ok: $*"; }
# A problem a real run stops at: said at once; --dry-run goes on and exits 1 at the end.
STOPS=()
stop() {
    local first="$1" line
    echo "    stop: $first" >&2
    shift
    for line in "$@"; do echo "          $line" >&2; done
    if [ "$DRY" = 0 ]; then exit 1; fi
    STOPS+=("$first")
}
in_rpi_archive() { local p; for p in "${RPI_ARCHIVE[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
# run CMD...: do it, or with --dry-run print it.
run() {
    if [ "$DRY" = 1 ]; then
        printf '    would run:'; printf ' %q' "$@"; echo
    else
        "$@"
    fi
}
# put SRC DEST MODE: install a file unless DEST already has the same content.
put() {
    if [ -f "$2" ] && cmp -s "$1" "$2"; then
        skip "$2 is up to date"
    else
        run install -D -m "$3" "$1" "$2"
    fi
}

if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root (sudo $0 $*), or with --dry-run to see the steps" >&2
    exit 1
fi
[ "$DRY" = 1 ] && echo "Dry run: printing the steps, changing nothing."
if ! grep -qs "Raspberry Pi" /proc/device-tree/model 2>/dev/null; then
    echo "Note: this does not look like a Raspberry Pi; the steps are for Raspberry Pi OS."
fi

step "1. Enable I2C for the display, at 400 kHz"
BOOT_CONFIG=/boot/firmware/config.txt
[ -f "$BOOT_CONFIG" ] || BOOT_CONFIG=/boot/config.txt
if command -v raspi-config >/dev/null 2>&1; then
    if [ "$(raspi-config nonint get_i2c 2>/dev/null || echo 1)" = 0 ]; then
        skip "I2C is enabled"
    else
        run raspi-config nonint do_i2c 0
    fi
else
    if grep -qs '^dtparam=i2c_arm=on' "$BOOT_CONFIG"; then
        skip "dtparam=i2c_arm=on is in $BOOT_CONFIG"
    else
        run sh -c "echo 'dtparam=i2c_arm=on' >> '$BOOT_CONFIG'"
    fi
    if grep -qs '^i2c-dev' /etc/modules; then
        skip "i2c-dev is in /etc/modules"
    else
        run sh -c "echo i2c-dev >> /etc/modules"
    fi
fi
if grep -qs '^dtparam=i2c_arm_baudrate=' "$BOOT_CONFIG"; then
    skip "$(grep '^dtparam=i2c_arm_baudrate=' "$BOOT_CONFIG" | tail -1) is set in $BOOT_CONFIG"
else
    run sh -c "echo 'dtparam=i2c_arm_baudrate=400000' >> '$BOOT_CONFIG'"
fi

step "2. System packages: ${APT_PACKAGES[*]}"
if [ "$APT" = 0 ]; then
    skip "skipped (--no-apt)"
else
    missing=()
    for p in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$p")
    done
    replaced=()
    for p in "${APT_REPLACED[@]}"; do
        if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            echo "Note: $p (the original RPi.GPIO, not for a Pi 5) makes way for python3-rpi-lgpio."
            replaced+=("$p-")  # apt-get install's trailing "-": remove in the same transaction
        fi
    done
    if [ ${#missing[@]} = 0 ]; then
        skip "all installed"
    else
        run apt-get update
        # Each one apt must install: does an apt source have it? (A dry run asks the lists as
        # the last apt-get update left them.)
        unknown=()
        for p in "${missing[@]}"; do
            candidate="$(apt-cache policy "$p" 2>/dev/null | awk '$1 == "Candidate:" {print $2}')"
            if [ -n "$candidate" ] && [ "$candidate" != "(none)" ]; then
                skip "apt has $p $candidate"
            else
                unknown+=("$p")
            fi
        done
        if [ ${#unknown[@]} -gt 0 ]; then
            rpi=()
            for p in "${unknown[@]}"; do in_rpi_archive "$p" && rpi+=("$p"); done
            if [ ${#rpi[@]} -gt 0 ]; then
                stop "no apt source here has ${unknown[*]}" \
                     "${rpi[*]} come only from the Raspberry Pi archive ($RPI_ARCHIVE_URL)," \
                     "which Raspberry Pi OS has and plain Debian has not. Install on Raspberry Pi OS," \
                     "or add that archive to apt's sources (see hardware/README.md)."
            else
                stop "no apt source here has ${unknown[*]} (try: sudo apt-get update)"
            fi
        fi
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" ${replaced[@]+"${replaced[@]}"}
    fi
fi

step "3. The service user '$USER_NAME' in the gpio, i2c, dialout and spi groups, and its folder $STATE"
for g in gpio i2c dialout spi; do
    if getent group "$g" >/dev/null; then skip "group $g exists"; else run groupadd --system "$g"; fi
done
if id -u "$USER_NAME" >/dev/null 2>&1; then
    skip "user $USER_NAME exists"
else
    run useradd --system --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin \
        --user-group "$USER_NAME"
fi
for g in gpio i2c dialout spi; do
    if id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx "$g"; then
        skip "$USER_NAME is in $g"
    else
        run usermod -aG "$g" "$USER_NAME"
    fi
done
# The sound cards (/dev/snd/*), for the box's voice: Debian's own group audio, always there.
if id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx audio; then
    skip "$USER_NAME is in audio"
else
    run usermod -aG audio "$USER_NAME"
fi
# systemd would make it at the service's first start (StateDirectory=); made now, so that
# `companion doctor` as the service user works before that start too.
if [ -d "$STATE" ] && [ "$(stat -c %U "$STATE")" = "$USER_NAME" ]; then
    skip "$STATE exists"
else
    run install -d -o "$USER_NAME" -g "$USER_NAME" -m 0750 "$STATE"
fi

step "4. The virtual environment $VENV (sees the system's lgpio and RPi.GPIO) and the companion"
if [ -x "$VENV/bin/python" ]; then
    skip "$VENV exists"
else
    run python3 -m venv --system-site-packages "$VENV"
fi
# The pin libraries: apt's (the venv sees them), or else pip needs a wheel: it is never
# allowed to build them from source (--only-binary), which fails on a Pi without swig and
# the lgpio C library. Checked before pip runs, with the venv's Python where it exists.
PY="$VENV/bin/python"
[ -x "$PY" ] || PY=python3
if pins="$("$PY" "$HERE/pin_libraries.py" "$SRC/pyproject.toml" 2>&1)"; then
    skip "pin libraries: $(echo "$pins" | paste -sd ';' | sed 's/;/; /g')"
elif [ "$DRY" = 1 ] && [ "$APT" = 1 ]; then
    echo "    note: pin libraries, before step 2's apt install: $(echo "$pins" | paste -sd ';' | sed 's/;/; /g')"
else
    echo "    note: pin libraries not from apt ($(echo "$pins" | paste -sd ';' | sed 's/;/; /g')):" \
         "pip must find them as wheels on PyPI for Python $("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])'); it builds none from source."
fi
# Always reinstall: a fresh `git pull` in $SRC is picked up by running the script again.
# pip's whole output goes to a log; if it fails, its last lines are shown, with the log's path.
PIP_LOG="$PREFIX/pip-install.log"
pip_install() {
    if [ "$DRY" = 1 ]; then
        run "$VENV/bin/python" -m pip install "$@"
        return
    fi
    if "$VENV/bin/python" -m pip install "$@" >> "$PIP_LOG" 2>&1; then
        skip "pip install $* (its output: $PIP_LOG)"
    else
        tail -n 30 "$PIP_LOG" >&2
        echo "install.sh: pip install $* failed: the lines above say why (all of it: $PIP_LOG)." >&2
        if grep -qs "No matching distribution found for \(lgpio\|rpi-lgpio\)" "$PIP_LOG"; then
            echo "  PyPI has no lgpio wheel for this Python: install python3-lgpio and" \
                 "python3-rpi-lgpio from the Raspberry Pi archive (run without --no-apt, on Raspberry Pi OS)." >&2
        fi
        exit 1
    fi
}
[ "$DRY" = 1 ] || : > "$PIP_LOG"
pip_install --upgrade pip
pip_install --only-binary="$PIN_PACKAGES" "$SRC[pi]"
if [ -L /usr/local/bin/companion ] && [ "$(readlink /usr/local/bin/companion)" = "$VENV/bin/companion" ]; then
    skip "/usr/local/bin/companion links to the venv"
else
    run ln -sfn "$VENV/bin/companion" /usr/local/bin/companion
fi

step "5. The config $CONFIG"
if [ -e "$CONFIG" ]; then
    skip "$CONFIG exists (left as it is)"
else
    run install -D -m 0644 "$HERE/config.toml" "$CONFIG"
fi

step "6. Let $USER_NAME power the box off (polkit rule for the BACK + NEXT chord)"
if [ -d "$POLKIT_DIR" ] || [ "$DRY" = 1 ]; then
    put "$HERE/50-chroma-companion.rules" "$POLKIT_DIR/50-chroma-companion.rules" 0644
else
    skip "no $POLKIT_DIR (polkit not installed): power off needs [power] command changed"
fi

step "7. The systemd service $SERVICE"
unit_tmp="$(mktemp)"
trap 'rm -f "$unit_tmp"' EXIT
sed -e "s|/opt/chroma-companion/venv|$VENV|g" \
    -e "s|--config /etc/chroma-companion/config.toml|--config $CONFIG|" \
    -e "s|/opt/chroma-companion/src|$SRC|g" \
    "$HERE/companion.service" > "$unit_tmp"
put "$unit_tmp" "$UNIT" 0644
run systemctl daemon-reload
if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
    skip "$SERVICE is enabled"
else
    run systemctl enable "$SERVICE"
fi

echo
if [ "$DRY" = 1 ] && [ ${#STOPS[@]} -gt 0 ]; then
    echo "Dry run done: nothing was changed, but a real run would stop (the 'stop:' lines above)."
    exit 1
elif [ "$DRY" = 1 ]; then
    echo "Dry run done: nothing was changed."
else
    echo "Done. Reboot once (sudo reboot) so I2C comes up; the companion then starts by itself."
fi
echo "Check the box any time with:"
echo "  sudo systemctl stop $SERVICE; sudo -u $USER_NAME companion doctor --config $CONFIG; sudo systemctl start $SERVICE"
