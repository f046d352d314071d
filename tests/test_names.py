"""One rule for a player's name everywhere (issue 29, item 7): the config file, a phone's
roster and a phone's New game accept exactly the names the panel's font can show."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from companion import names
from companion.config import check
from companion.errors import ConfigError
from companion.web import guard

# Names a group types: Latin with accents, Greek, Cyrillic (the panel's DejaVu has them all).
SHOWN = ["Ann", "José", "Zoë", "Ωmega", "Дима", "Łukasz", "O'Neil", "Ann-Lee 2", "x" * 16]
# Han has no glyph in the panel's font (empty boxes); Hebrew and Arabic run right to left.
NOT_SHOWN = {"李小龙": "no letter in the panel's font", "עברית": "right to left",
             "مريم": "right to left", "Ann\tLee": "control or invisible",
             "Ann\u200bLee": "control or invisible", "--": "at least one letter",
             "x" * 17: "longer than 16", "": "non-empty"}


def config_problem(name: str) -> str:
    try:
        check({"players": {"names": [name]}})
    except ConfigError as e:
        assert e.key == "players.names[0]"
        return e.problem
    return ""


def web_problem(name: str) -> str:
    try:
        guard.check_names([name])
    except guard.Refused as e:
        return e.reason
    return ""


@pytest.mark.parametrize("name", SHOWN)
def test_a_name_the_panel_can_show_passes_everywhere(name):
    assert names.problem(names.tidy(name)) == ""
    assert config_problem(name) == "" and web_problem(name) == ""


@pytest.mark.parametrize("name, words", NOT_SHOWN.items())
def test_a_name_the_panel_cannot_show_is_refused_everywhere_with_the_same_words(name, words):
    why = names.problem(names.tidy(name))
    assert words in why
    assert config_problem(name) == why and web_problem(name) == f"names: {why}"


def test_spaces_are_tidied_alike():
    for source in ("  Ann \u00a0 Lee ", "Ann\u2009Lee"):  # a no-break and a thin space
        assert check({"players": {"names": [source]}})["players"]["names"] == ["Ann Lee"]
        assert guard.check_names([source]) == ["Ann Lee"]


def test_names_told_apart_ignoring_case_in_the_config_as_on_a_phone():
    with pytest.raises(ConfigError, match="the same name appears twice: 'ann'"):
        check({"players": {"names": ["Ann", "ann"]}})
    with pytest.raises(guard.Refused, match="twice"):
        guard.check_names(["Ann", "ann"])


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_the_config_and_the_web_agree_on_every_name(name):
    assert (config_problem(name) == "") == (web_problem(name) == "")


def test_a_config_with_a_name_the_panel_cannot_show_stops_start_up(tmp_path, capsys):
    from companion.cli import main
    cfg = tmp_path / "config.toml"
    cfg.write_text('[players]\nnames = ["Ann", "李小龙"]\n', encoding="utf-8")
    argv = ["run", "--config", str(cfg), "--journal", str(tmp_path / "j.db"), "--no-web",
            "--display", "dummy", "--input", "stdin"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: config: players.names[1]: the box's screen cannot show")
    assert err.count("\n") == 1 and not (tmp_path / "j.db").exists()


# --- blank-looking characters are not glyphs (issue 35, item 7) ------------------------------

BLANKS = ["\u2800", "\u034f"]  # a braille blank (a symbol) and the grapheme joiner (a mark)


@pytest.mark.parametrize("blank", BLANKS)
def test_a_character_that_draws_nothing_is_refused_everywhere(blank):
    """"A" and "A" + U+2800 were two players who look the same on the panel: a character
    the panel draws as nothing is no glyph, refused like one the font lacks."""
    for name in ("A" + blank, blank + "Ann", "An" + blank + "n"):
        why = names.problem(names.tidy(name))
        assert why == (f"the box's screen cannot show {blank!r} in {names.tidy(name)!r} (it "
                       "draws nothing: a blank that looks like a space or like nothing)")
        assert config_problem(name) == why and web_problem(name) == f"names: {why}"
    with pytest.raises(ConfigError, match="draws nothing"):
        check({"players": {"names": ["A", "A" + blank]}})


def test_a_combining_mark_that_draws_is_still_a_letter():
    assert names.problem("q\u0301") == ""  # no precomposed form: drawn as base and mark


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=3))
def test_every_character_of_an_accepted_name_shows_on_the_panel(extra):
    """Told apart by eye: a name the rule accepts changes the panel's picture with each
    character added (every one draws something, or is a space)."""
    from PIL import Image, ImageDraw

    def drawn(text: str) -> bytes:
        img = Image.new("1", (40, 24))
        ImageDraw.Draw(img).text((4, 4), text, font=names._font(), fill=1)
        return img.tobytes()

    name = names.tidy("Ab" + extra)
    if names.problem(name) == "":
        for ch in name:
            assert ch == " " or drawn("o" + ch) != drawn("o"), ch
