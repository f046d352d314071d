# Shared by .ci/trixie and .ci/pi-smoke (sourced, not run): a fresh Debian trixie chroot under
# /tmp, this clone copied into it at /src, /proc and /dev/shm mounted, and all of it undone
# on exit (unless KEEP=1). Nothing is cached: each run builds its chroot anew.
# The caller sets NAME (for messages) and KEEP, and calls need_root_and_debootstrap first.

# The Debian archive this machine's apt already uses (no mirror host is written here): the
# first archive (not -security, -updates or a backports one) in apt's own sources, deb822
# (*.sources: URIs:) or one-line (sources.list: deb URI suite ...). TRIXIE_MIRROR overrides.
apt_mirror() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        awk '$1 == "deb" { u = ($2 ~ /^\[/) ? $3 : $2; if (u !~ /security/) { print u; exit } }' "$f"
    done
}
MIRROR="${TRIXIE_MIRROR:-$(apt_mirror | head -n 1)}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CHROOT=""
MOUNTS=()

fail() { echo "$NAME: $*" >&2; exit 1; }

# Under CI=true, a missing PACKAGE is installed with apt-get (as `make browser` does chromium);
# a developer is told the command instead.
need_root_and() {
    local package="$1" program="$2"
    [ "$(id -u)" = 0 ] || fail "run it as root (sudo make $NAME): debootstrap and chroot need root"
    command -v "$program" >/dev/null 2>&1 && return 0
    if [ "${CI:-}" = true ] && command -v apt-get >/dev/null 2>&1; then
        echo "$NAME: installing $package (CI=true)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" \
            || fail "apt-get install $package failed (the lines above)"
    fi
    command -v "$program" >/dev/null 2>&1 || fail "$package is not installed (apt-get install $package)"
}

need_root_and_debootstrap() { need_root_and debootstrap debootstrap; }

cleanup() {
    local i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount "${MOUNTS[$i]}" 2>/dev/null || umount -l "${MOUNTS[$i]}" || true
    done
    [ -n "$CHROOT" ] || return 0
    umount "$CHROOT/proc" 2>/dev/null || true  # debootstrap's own, if it stopped half-way
    if [ "$KEEP" = 1 ]; then
        echo "$NAME: kept the chroot at $CHROOT (remove it with: rm -rf --one-file-system $CHROOT)"
    else
        rm -rf --one-file-system "$CHROOT"
    fi
}

# make_chroot ARCH PACKAGES: debootstrap trixie (minbase + PACKAGES, comma-separated) into
# a new folder, CHROOT; ARCH "" is this machine's. An unreachable archive stops the run
# with debootstrap's last lines.
make_chroot() {
    local arch=()
    [ -z "$1" ] || arch=(--arch="$1")
    [ -n "$MIRROR" ] || fail "no Debian archive in apt's sources (/etc/apt/sources.list*): set TRIXIE_MIRROR"
    CHROOT="$(mktemp -d "/tmp/chroma-$NAME.XXXXXX")"
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    echo "$NAME: debootstrap ${arch[*]} trixie from $MIRROR into $CHROOT"
    if ! debootstrap ${arch[@]+"${arch[@]}"} --variant=minbase --include="$2" \
            trixie "$CHROOT" "$MIRROR" > "$CHROOT.log" 2>&1; then
        tail -n 20 "$CHROOT.log" >&2
        rm -f "$CHROOT.log"
        fail "debootstrap failed (the lines above; is $MIRROR reachable?)"
    fi
    rm -f "$CHROOT.log"
}

# Into CHROOT: the clone at /src (what git knows of, tracked and untracked but not ignored;
# the whole folder where there is no git), this machine's name servers, and its CA bundle for
# pip (a proxy this machine trusts is trusted there too); /proc, /dev/shm and /dev/pts mounted.
fill_chroot() {
    mkdir "$CHROOT/src"
    if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$ROOT" ls-files -z --cached --others --exclude-standard \
            | tar -C "$ROOT" --null -T - --ignore-failed-read -cf - 2>/dev/null \
            | tar -xf - -C "$CHROOT/src"
    else
        tar -cf - -C "$ROOT" --exclude=.venv --exclude=node_modules --exclude=__pycache__ . \
            | tar -xf - -C "$CHROOT/src"
    fi
    cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
    CHROOT_ENV=(HOME=/root LANG=C.UTF-8 TERM=dumb PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin)
    if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
        mkdir -p "$CHROOT/etc/ssl/certs"
        cp /etc/ssl/certs/ca-certificates.crt "$CHROOT/etc/ssl/certs/host-ca-bundle.crt"
        CHROOT_ENV+=(PIP_CERT=/etc/ssl/certs/host-ca-bundle.crt)
    fi
    local v
    for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
        if [ -n "${!v:-}" ]; then CHROOT_ENV+=("$v=${!v}"); fi
    done
    mount -t proc proc "$CHROOT/proc" && MOUNTS+=("$CHROOT/proc")
    mount -t tmpfs -o mode=1777 shm "$CHROOT/dev/shm" && MOUNTS+=("$CHROOT/dev/shm")
    # The host's ptys: the roller and terminal tests open pseudo-terminals (/dev/ptmx).
    mkdir -p "$CHROOT/dev/pts"
    mount --bind /dev/pts "$CHROOT/dev/pts" && MOUNTS+=("$CHROOT/dev/pts")
}

# in_chroot CMD...: run it in CHROOT with a clean environment (nothing of the caller's but
# the above: no PYTHONDONTWRITEBYTECODE, no CI).
in_chroot() {
    chroot "$CHROOT" /usr/bin/env -i "${CHROOT_ENV[@]}" "$@"
}
