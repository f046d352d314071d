"""hardware/README.md's wiring tables and the diagrams follow companion.config.DEFAULTS and
firmware/main.py: a changed default pin without regenerated docs fails here."""

from __future__ import annotations

import shutil

import pytest

from companion import config as configmod
from companion.drivers import wiring as W
from companion.gallery import hardware_docs as H


def test_the_committed_docs_match_the_defaults():
    assert H.drift() == [], "run: python -m companion.gallery.hardware_docs"


def test_a_moved_default_pin_is_caught(tmp_path, monkeypatch):
    shutil.copy(H.README, tmp_path / "README.md")
    for stem in (H.PI_STEM, H.ROLLER_STEM):
        for ext in (".svg", ".png"):
            shutil.copy(H.HARDWARE / f"{stem}{ext}", tmp_path / f"{stem}{ext}")
    assert H.drift(tmp_path / "README.md", tmp_path) == []
    monkeypatch.setitem(configmod.DEFAULTS["buttons"], "roll", 26)
    problems = H.drift(tmp_path / "README.md", tmp_path)
    assert any("wiring tables" in p for p in problems)
    assert any(H.PI_STEM in p for p in problems)
    H.write_all(tmp_path / "README.md", tmp_path)
    assert "| ROLL | roll the dice | GPIO26 | 37 |" in (tmp_path / "README.md").read_text()
    assert H.drift(tmp_path / "README.md", tmp_path) == []


def test_every_button_row_names_its_default_pin():
    text = H.README.read_text()
    for name, bcm in configmod.DEFAULTS["buttons"].items():
        if isinstance(bcm, int) and not isinstance(bcm, bool):
            assert f"| {name.upper()} |" in text and f"| GPIO{bcm} | {W.header_pin(bcm)} |" in text


def test_header_map_is_the_40_pin_layout():
    assert len(W.PI_HEADER) == 40
    gpios = sorted(int(v[4:]) for v in W.PI_HEADER.values() if v.startswith("GPIO"))
    assert gpios == list(range(28))
    assert [W.header_pin(b) for b in (2, 3, 17, 27, 22, 23, 24, 25)] == [3, 5, 11, 13, 15, 16, 18, 22]
    assert sorted(p for p, v in W.PI_HEADER.items() if v == "GND") == [6, 9, 14, 20, 25, 30, 34, 39]


def test_the_roller_diagram_agrees_with_firmware_readme():
    fw = W.firmware_constants()
    readme = (W.FIRMWARE_MAIN.parent / "README.md").read_text()
    for key in ("BUTTON_PIN", "RING_PIN", "SDA_PIN", "SCL_PIN"):
        gp = fw[key]
        assert f"GP{gp} (pin {W.PICO.gpio(gp)})" in readme, key


def test_svg_and_png_show_the_same_drawing(tmp_path):
    cfg = configmod.Config(configmod.check({}))
    canvas = H.diagrams(cfg, subtitle="t")[H.PI_STEM]
    svg = canvas.svg()
    assert svg.startswith("<svg") and "GPIO17" in svg and "NEXT" in svg
    img = canvas.png()
    assert img.size == (canvas.width, canvas.height)
    assert len(img.getcolors(1 << 16) or []) > 5  # wires in colour, not a blank page


def test_cli_prints_your_own_wiring(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[buttons]\nnext = 5\n")
    assert H.main(["--config", str(cfg), "--print"]) == 0
    assert "| NEXT | end the turn (hold with BACK 5 s: power off) | GPIO5 | 29 |" in capsys.readouterr().out
    cfg.write_text("[buttons]\nnext = 2\n")
    assert H.main(["--config", str(cfg), "--print"]) == 2
    assert "buttons.next" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        H.main(["--config", str(cfg)])  # --config alone: a usage error, not a rewrite


def test_generated_markers_must_pair():
    with pytest.raises(ValueError):
        H.render_readme("<!-- BEGIN generated: pi-wiring -->\nno end", {"pi-wiring": "x"})


def test_the_light_ring_follows_its_bus_count_and_brightness():
    cfg = configmod.Config(configmod.check({"lights": {"count": 24, "brightness": 0.5}}))
    ring = next(p for p in W.pi_parts(cfg) if p.kind == "ring")
    assert ring.optional == "[lights] enabled = false"
    assert [(w.terminal, w.pin) for w in ring.wires] == [("DIN", 19), ("5V", 4)]
    notes = " ".join(ring.notes)
    for words in ("74AHCT125", "330 Ω", "1000 µF", "first-pixel trick",
                  "full white: 24 × 60 mA = 1.44 A; at brightness 0.5: 720 mA"):
        assert words in notes, words
    cfg = configmod.Config(configmod.check({"lights": {"enabled": True, "spi_bus": 1},
                                            "buttons": {"next": 5, "roll": 6}}))
    ring = next(p for p in W.pi_parts(cfg) if p.kind == "ring")
    assert ring.optional == "" and ring.wires[0].pin == 38  # bus 1's MOSI is GPIO 20
    assert "GPIO20" in ring.does and "GPIO20" in ring.notes[0]
    tables = H.pi_tables(cfg)
    assert "### Light ring (optional)" in tables and "| DIN | 38 (GPIO20) |" in tables
    svg = H.diagrams(cfg, subtitle="t")[H.PI_STEM].svg()
    assert "LIGHT RING" in svg and "1000 µF" in svg
