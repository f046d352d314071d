"""Whether the board libraries the `[pi]` extra asks for (the pin libraries, and spidev for
the light ring) are already installed (install.sh).

    python3 hardware/pi/pin_libraries.py PYPROJECT

Reads the `pi` extra of PYPROJECT (pyproject.toml: `name>=version; platform_machine == ...`)
and checks each requirement that applies to this machine against what this Python sees
installed (for the install's venv, made with --system-site-packages: apt's python3-lgpio
and python3-rpi-lgpio). One line per requirement: `ok NAME VERSION`, `missing NAME>=MIN`,
`old NAME VERSION (needs >=MIN)` or `not needed on MACHINE`. Exit 0 when pip will find every
one installed and fetch nothing for them, 1 when not, 2 when the extra cannot be read.
Needs only the standard library (Python 3.11+: tomllib).
"""

from __future__ import annotations

import platform
import re
import sys
import tomllib
from importlib import metadata

REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9.]*)\s*(?:;(.*))?$")


def numbers(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", version))


def check(requirement: str, machine: str) -> tuple[bool, str]:
    found = REQUIREMENT.match(requirement)
    if found is None:
        raise ValueError(f"cannot read the requirement {requirement!r} (want name>=version)")
    name, least, marker = found.groups()
    machines = re.findall(r"platform_machine\s*==\s*['\"]([^'\"]+)['\"]", marker or "")
    if marker and not machines:
        raise ValueError(f"cannot read the marker of {requirement!r} (want platform_machine)")
    if machines and machine not in machines:
        return True, f"not needed on {machine}: {name}"
    try:
        have = metadata.version(name)
    except metadata.PackageNotFoundError:
        return False, f"missing {name}>={least}"
    if numbers(have) < numbers(least):
        return False, f"old {name} {have} (needs >={least})"
    return True, f"ok {name} {have}"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 pin_libraries.py PYPROJECT", file=sys.stderr)
        return 2
    try:
        with open(argv[0], "rb") as f:
            extra = tomllib.load(f)["project"]["optional-dependencies"]["pi"]
        results = [check(r, platform.machine()) for r in extra]
    except (OSError, KeyError, ValueError) as e:
        print(f"pin_libraries: cannot read the [pi] extra of {argv[0]}: {e}", file=sys.stderr)
        return 2
    for _, line in results:
        print(line)
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
