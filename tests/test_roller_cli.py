"""`companion roll`: through the (simulated) roller when it answers, else in software."""

import json
import sys
from pathlib import Path

import pytest

from companion.cli import roll as rollcli
from companion.rules.dice import check_roll

sys.path.insert(0, str(Path(__file__).resolve().parent / "mpy"))
import boardsim  # noqa: E402


@pytest.fixture
def board():
    b = boardsim.Board(seed=2)
    yield b
    b.close()


@pytest.fixture(autouse=True)
def no_user_config(tmp_path, monkeypatch):
    monkeypatch.setattr(rollcli.configmod, "default_config_path", lambda: tmp_path / "none.toml")


def test_rolls_on_the_roller(board, capsys):
    assert rollcli.main(["--port", board.path, "colors", "shapes", "d8"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [ln.split(":")[0] for ln in out[:3]] == ["Colors", "Shapes", "8-sided"]
    assert out[3] == "rolled on the dice roller (firmware 1.0.0)"
    assert any(b"ROLL 1 colors shapes d8*" in chunk for chunk in board.received)


def test_json_output_from_the_roller(board, capsys):
    assert rollcli.main(["--json", "--port", board.path, "d6", "colors"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["source"] == "roller" and got["firmware"] == "1.0.0"
    assert list(got["dice"]) == ["d6", "colors"]
    check_roll(got["dice"])


def test_silent_roller_falls_back(board, capsys):
    board.mute = (b"ROLLED",)  # it shakes hands, but the roll is never answered
    assert rollcli.main(["--port", board.path, "--timeout", "0.3", "--json", "d8"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["source"], got["note"]) == ("software", "Roller silent: software roll")
    check_roll(got["dice"])


def test_roller_that_never_answers(board, capsys):
    board.silent = True
    assert rollcli.main(["--port", board.path, "--timeout", "0.3", "d8"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "rolled in software (no dice roller found)"


def test_no_roller_rolls_in_software(capsys):
    assert rollcli.main(["--port", "/dev/no-such-roller", "shapes"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Shapes: ")
    assert out[1] == "rolled in software (no dice roller found)"


def test_seeded_roll_is_reproducible(capsys):
    rollcli.main(["--seed", "7", "--json", "colors", "shapes", "d8", "d6"])
    first = capsys.readouterr().out
    rollcli.main(["--seed", "7", "--json", "colors", "shapes", "d8", "d6"])
    assert capsys.readouterr().out == first
    assert json.loads(first)["note"] == ""


@pytest.mark.parametrize("argv,message", [
    (["d20"], "unknown die 'd20' (known: colors, shapes, d8, d6)"),
    (["d6", "d6"], "name each die once"),
    (["--timeout", "0", "d6"], "outside 0-60 s"),
    (["--config", "/no/such/config.toml", "d6"], "does not exist"),
])
def test_bad_input_is_a_message_and_exit_2(argv, message, capsys):
    assert rollcli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_no_dice_is_usage(capsys):
    assert rollcli.main([]) == 2
    assert "usage: companion roll" in capsys.readouterr().err


def test_wired_into_companion_cli(capsys):
    from companion import cli

    assert cli.main(["roll", "--seed", "1", "d6"]) == 0
    assert capsys.readouterr().out.startswith("6-sided: ")


def test_a_roll_that_times_out_says_so(monkeypatch, capsys):
    import queue

    def never(*_a, **_k):
        raise queue.Empty()  # what inbox.get raises: an exception with no text at all

    monkeypatch.setattr(rollcli, "roll", never)
    assert rollcli.main(["--port", "/dev/ttyACM9", "--timeout", "0.5", "d8"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion roll: no result from the dice within 5.5 s")
    assert not err.endswith(":")
