"""Fuzz: damaged config files and damaged journals never crash the companion.

- Config: random mutations of a valid config (values of the wrong type or out of range,
  unknown and missing keys, odd house rules, and raw byte damage to the TOML text) go through
  the CLI. The outcome is exit 0 (still valid) or exit 2 with one `companion: config:` line on
  stderr, never a traceback.
- Journal: a database with a game in it, truncated or bit-flipped, is opened by the real start
  path (`companion run` on the dummy display). Start-up never fails; a database that is set
  aside is kept byte for byte (never deleted) and the app starts on a fresh one.
"""

from __future__ import annotations

import copy
import io
import json
import math
import signal
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import cli
from companion.config import DEFAULTS
from companion.rules.game import Header
from companion.session.store import Store

BASE = copy.deepcopy(DEFAULTS)
BASE["roller"]["port"] = "none"
BASE["rules"] = {"penny-badger": {"bank": 100, "savings": 20}, "pig-farm": {"target": 500}}


# --- a small TOML writer (tomllib only reads) --------------------------------------------------

def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)  # JSON string escapes are valid TOML basic-string escapes
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def toml(data: dict) -> str:
    out = []
    for section, values in data.items():
        if not isinstance(values, dict):
            out.append(f"{json.dumps(section)} = {toml_value(values)}")
            continue
        if section == "rules":
            for kind, rules in values.items():
                if isinstance(rules, dict):
                    out.append(f"[rules.{json.dumps(kind)}]")
                    out += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in rules.items()]
                else:
                    out.append(f"[rules]\n{json.dumps(kind)} = {toml_value(rules)}")
            continue
        out.append(f"[{json.dumps(section)}]")
        out += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in values.items()]
    return "\n".join(out) + "\n"


# --- mutations ---------------------------------------------------------------------------------

scalars = st.one_of(
    st.integers(-2**70, 2**70), st.integers(-3, 300), st.floats(allow_nan=True),
    st.booleans(), st.text(max_size=20), st.sampled_from(["", "ssd1306", "sh1106", "2E8A:0005",
                                                          "none", "auto", "/dev/ttyACM0"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8)
sections = st.sampled_from(sorted(BASE))
keys = st.text(max_size=10)


@st.composite
def mutated(draw) -> dict:
    data = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 4))):
        section = draw(sections)
        what = draw(st.sampled_from(["set", "set", "set", "drop", "unknown", "section"]))
        table = data.get(section)
        if not isinstance(table, dict):
            data[section] = {}
            table = data[section]
        if what == "set" and table:
            key = draw(st.sampled_from(sorted(table)))
            if isinstance(table[key], dict):  # a game's house rules
                table[key][draw(st.sampled_from(["bank", "savings", "target", "deck_owner",
                                                 "colors", "x"]))] = draw(values)
            else:
                table[key] = draw(values)
        elif what == "drop" and table:
            del table[draw(st.sampled_from(sorted(table)))]
        elif what == "unknown":
            table[draw(keys)] = draw(values)
        elif what == "section":
            data[draw(st.text(max_size=8))] = draw(st.one_of(values, st.just({})))
    return data


@st.composite
def damaged_text(draw) -> bytes:
    raw = bytearray(toml(draw(mutated())).encode())
    for _ in range(draw(st.integers(0, 3))):
        if not raw:
            break
        i = draw(st.integers(0, len(raw) - 1))
        op = draw(st.sampled_from(["flip", "cut", "insert", "truncate"]))
        if op == "flip":
            raw[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "cut":
            del raw[i:i + draw(st.integers(1, 20))]
        elif op == "insert":
            raw[i:i] = draw(st.binary(min_size=1, max_size=8))
        else:
            del raw[i:]
    return bytes(raw)


def run_cli(argv: list[str], capsys) -> tuple[int, str]:
    capsys.readouterr()
    try:
        rc = cli.main(argv)
    except SystemExit as e:  # argparse; not expected here, but it is a clean exit too
        rc = e.code
    return rc, capsys.readouterr().err


def check_config_outcome(text: bytes, capsys) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "config.toml"
        path.write_bytes(text)
        rc, err = run_cli(["export", "--list", "--config", str(path), "--journal",
                           str(Path(d) / "j.db")], capsys)
    assert "Traceback" not in err
    if rc == 0:
        assert err == ""
    else:
        assert rc == 2, (rc, err)
        # One message: no second one starts a line (a key may itself be named "companion",
        # as the fuzz found: "companion: config: buttons.companion: unknown key ...").
        assert err.startswith("companion: config: ") and "\ncompanion: " not in err.rstrip("\n"), err


def test_the_base_config_is_valid(capsys):
    check_config_outcome(toml(BASE).encode(), capsys)
    rc, err = run_cli(["export", "--list", "--config", "/nonexistent/config.toml"], capsys)
    assert rc == 2 and err.startswith("companion: config: ")


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=mutated())
def test_config_value_mutations_exit_0_or_2_with_a_message(data, capsys):
    check_config_outcome(toml(data).encode(), capsys)


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=damaged_text())
def test_config_byte_damage_exits_0_or_2_with_a_message(text, capsys):
    check_config_outcome(text, capsys)


# --- journal -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def journal_bytes() -> bytes:
    """A closed journal (WAL checkpointed into the main file) with two games and undo rows."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "journal.db"
        with Store(path) as st:
            j = st.new_game(Header("table", ("Ann", "Ben", "Cy")))
            for i in range(40):
                j.append({"type": "next"} if i % 3 else
                         {"type": "roll", "dice": {"d8": 1 + i % 8}})
            j.undo()
            j = st.new_game(Header("penny-badger", ("Ann", "Ben", "Cy", "Dee")))
            j.append({"type": "pass"})
        assert not Path(str(path) + "-wal").exists() or Path(str(path) + "-wal").stat().st_size == 0
        return path.read_bytes()


damage = st.one_of(
    st.tuples(st.just("truncate"), st.floats(0, 1)),
    st.tuples(st.just("flip"), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 7)),
                                        min_size=1, max_size=6)),
    st.tuples(st.just("zero"), st.floats(0, 1), st.integers(1, 4096)))


def damaged(raw: bytes, how) -> bytes:
    b = bytearray(raw)
    if how[0] == "truncate":
        del b[int(how[1] * len(b)):]
    elif how[0] == "flip":
        for at, bit in how[1]:
            b[min(int(at * len(b)), len(b) - 1)] ^= 1 << bit
    else:
        i = int(how[1] * len(b))
        b[i:i + how[2]] = bytes(len(b[i:i + how[2]]))
    return bytes(b)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(how=damage)
def test_damaged_journal_is_set_aside_never_deleted_and_start_up_goes_on(journal_bytes, how,
                                                                          capsys, monkeypatch):
    bad = damaged(journal_bytes, how)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "journal.db"
        path.write_bytes(bad)
        config = Path(d) / "config.toml"
        config.write_text('[roller]\nport = "none"\n')
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # end of input: the app quits
        # `run` installs a SIGTERM handler; keep pytest's own once the test is over.
        monkeypatch.setattr(signal, "signal", lambda *args: None)
        rc, err = run_cli(["run", "--no-web", "--display", "dummy", "--input", "stdin", "--seed", "1",
                           "--config", str(config), "--journal", str(path)], capsys)
        assert rc == 0, err
        assert "Traceback" not in err
        aside = sorted(Path(d).glob("journal.db.damaged-*"))
        aside = [p for p in aside if not p.name.endswith(("-wal", "-shm"))]
        if aside:
            assert len(aside) == 1 and aside[0].read_bytes() == bad  # kept as it was
            with Store(path) as st:  # and a fresh, healthy journal took its place
                assert st.integrity() == "ok" and st.notice == ""
        else:  # the damage missed everything SQLite checks: the journal still opens and replays
            with Store(path) as st:
                assert st.notice == ""
                st.resume()
