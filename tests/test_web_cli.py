"""The table web around the API: `companion run --web/--no-web`, `companion doctor`'s line,
and the device menu on the panel (Pair a phone, Forget all phones, Web on/off)."""

from __future__ import annotations

import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import urllib.request

import pytest

from companion import config as configmod
from companion.cli.doctor import check_web
from companion.inputs import Button
from companion.testing import choose, press
from companion.ui import device
from companion.web.server import Web


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def web_config(port: int, *, enabled: bool = True) -> configmod.Config:
    return configmod.Config(configmod.check({"web": {"host": "127.0.0.1", "port": port,
                                                     "enabled": enabled}}))


# --- companion run ----------------------------------------------------------------------------

def run_companion(tmp_path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--display", "dummy", "--input", "stdin",
         "--ack", "--journal", str(tmp_path / "j.db"), "--config", str(tmp_path / "none.toml"),
         *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env)


@pytest.fixture
def no_config(tmp_path):
    (tmp_path / "none.toml").write_text("")


def test_run_with_web_prints_its_address_and_serves_the_game(tmp_path, no_config):
    port = free_port()
    p = run_companion(tmp_path, "--web", f"127.0.0.1:{port}")
    try:
        assert p.stdout.readline().strip() == f"web http://127.0.0.1:{port}/"
        assert p.stdout.readline().strip() == "ready"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as r:
            snap = json.loads(r.read())
        assert snap["game"] is None and snap["seq"] >= 1
    finally:
        out, err = p.communicate("QUIT\n", timeout=30)
    assert p.returncode == 0 and err == ""


def test_a_port_in_use_is_one_line_and_the_companion_runs_on(tmp_path, no_config):
    blocker = socket.socket()
    blocker.bind(("127.0.0.1", 0))
    blocker.listen(1)
    port = blocker.getsockname()[1]
    try:
        p = run_companion(tmp_path, "--web", f"127.0.0.1:{port}")
        assert p.stdout.readline().strip() == "ready"
        out, err = p.communicate("OK\n" * 5 + "QUIT\n", timeout=30)  # a game, who goes first
    finally:
        blocker.close()
    assert p.returncode == 0
    assert err.strip().count("\n") == 0 and "port is in use" in err and "without the web" in err
    assert "ack append 1" in out


def test_no_web_binds_nothing(tmp_path, no_config):
    p = run_companion(tmp_path, "--no-web")
    assert p.stdout.readline().strip() == "ready"
    out, err = p.communicate("QUIT\n", timeout=30)
    assert p.returncode == 0 and "web" not in out and err == ""


def test_a_bad_web_option_is_a_usage_error(capsys):
    from companion.cli import main
    with pytest.raises(SystemExit) as e:
        main(["run", "--web", "localhost:http"])
    assert e.value.code == 2 and "HOST:PORT" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:  # both: which one was meant? (it was no web, silently)
        main(["run", "--web", "127.0.0.1:8080", "--no-web"])
    assert e.value.code == 2 and "not allowed with argument --web" in capsys.readouterr().err


def test_the_config_checks_the_web_section():
    with pytest.raises(configmod.ConfigError, match="web.port"):
        configmod.check({"web": {"port": 70000}})
    with pytest.raises(configmod.ConfigError, match="web.host"):
        configmod.check({"web": {"host": ""}})
    assert configmod.check({})["web"] == {"enabled": True, "host": "0.0.0.0", "port": 8080}


# --- companion doctor -------------------------------------------------------------------------

def test_doctor_knows_a_companion_runs_on_the_journal_with_its_web_elsewhere(tmp_path):
    """A companion started with another --web (or --no-web) holds the journal: the doctor
    does not say "the companion is not running" (a guest trial saw that)."""
    from companion.session.lock import JournalLock
    port = free_port()
    journal = tmp_path / "journal.db"
    cfg = configmod.Config(configmod.check({"web": {"host": "127.0.0.1", "port": port},
                                            "storage": {"path": str(journal)}}))
    assert "the companion is not running" in check_web(cfg).detail
    with JournalLock(journal):
        line = check_web(cfg)
        assert line.verdict == "SKIP" and f"a companion runs on this journal (pid " \
            f"{os.getpid()})" in line.detail
    assert "the companion is not running" in check_web(cfg).detail


def test_doctor_says_where_the_web_listens(config):
    port = free_port()
    cfg = web_config(port)
    line = check_web(cfg)
    assert line.verdict == "SKIP" and "not listening on 127.0.0.1" in line.detail
    web = Web(config=cfg, post=lambda item: None, host="127.0.0.1", port=port, route_modules=())
    assert web.start() == ""
    try:
        line = check_web(cfg)
        assert line.verdict == "OK" and f"http://127.0.0.1:{port}/" in line.detail
    finally:
        web.stop()
    assert check_web(web_config(port, enabled=False)).verdict == "SKIP"


def test_doctor_fails_when_another_program_holds_the_port():
    class Other(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<html>a printer</html>")

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Other)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        line = check_web(web_config(server.server_address[1]))
    finally:
        server.shutdown()
        server.server_close()
    assert line.verdict == "FAIL" and "another program" in line.detail


# --- the device menu --------------------------------------------------------------------------

@pytest.fixture
def web_app(make_app, config):
    app = make_app()
    web = Web(config=config, post=app.post, host="127.0.0.1", port=0,
              frame=lambda: app.last_frame, route_modules=())
    app.attach_web(web)
    yield app
    web.stop()


def test_web_on_pair_forget_and_off_from_the_start_menu(web_app):
    app = web_app
    app.render()
    choose(app, "Table web")
    assert app.top.title == "Table web"
    assert not app.top.items[0].enabled  # Pair a phone: the web is off
    choose(app, "Web on")
    assert app.web.running and app.toast[0].startswith("Web on: 127.0.0.1:")
    choose(app, "Table web")
    choose(app, "Pair a phone")
    assert isinstance(app.top, device.PairScreen)
    code = app.web.pairing.code()
    assert app.web.pair_url(code) == f"HTTP://127.0.0.1:{app.web.port}/J/{code}"
    # A phone pairs: the code is used and closed ("Phone paired"; OK asks for another).
    assert app.web.pairing.attempt(code).ok
    assert app.web.pairing.shown().status == "paired" and app.web.pairing.phones == 1
    press(app, Button.BACK)
    choose(app, "Forget all phones")
    press(app, Button.OK)
    assert app.web.pairing.phones == 0 and app.toast[0] == "Forgot 1 phone"
    choose(app, "Web off")
    assert not app.web.running and app.toast[0] == "Web off"


def test_the_game_menu_offers_the_table_web(web_app):
    from companion.inputs import ButtonInput, Gesture
    app = web_app
    app.render()
    choose(app, "New game")
    choose(app, "Table")
    press(app, Button.OK)  # players
    app.handle(ButtonInput(Button.OK, Gesture.HOLD))
    labels = [item.text(app.ctx()) for item in app.top.items]
    assert "Table web" in labels


def test_the_qr_code_is_drawn_pixel_exact_with_a_quiet_zone():
    import segno
    url = "HTTP://192.168.100.200:8080/J/482193"
    img = device.qr_image(url)
    qr = segno.make_qr(url, version=2, error="m", boost_error=False)
    n = len(qr.matrix)
    assert n == 25 and img.size[0] == img.size[1] <= 64
    scale = 2
    quiet = (img.size[0] // scale - n) // 2
    assert quiet >= 2
    px = img.load()
    for y in range(img.size[1]):
        for x in range(img.size[0]):
            mx, my = x // scale - quiet, y // scale - quiet
            dark = 0 <= mx < n and 0 <= my < n and qr.matrix[my][mx]
            assert px[x, y] == (0 if dark else 1), (x, y)


def test_the_pairing_screen_shows_the_code_and_refreshes_itself(web_app):
    from companion.ui.screen import Context
    app = web_app
    assert app.web.start() == ""
    ctx = Context(config=app.config, extra={"web": app.web})
    screen = device.PairScreen()
    first = screen.render(ctx).tobytes()
    code = app.web.pairing.code()
    assert screen.render(ctx).tobytes() == first  # the same code draws the same frame
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for k in range(20):
        app.web.pairing.attempt(wrong, f"10.0.0.{k}")  # voided: the screen says so
    void = screen.render(ctx).tobytes()
    assert app.web.pairing.shown().status == "void" and void != first
    screen.on_press(Button.OK, ctx)  # a new code, a new QR
    assert app.web.pairing.code() != code and screen.render(ctx).tobytes() not in (first, void)
    assert screen.on_tick("pair", {}, ctx).token == "pair"  # the countdown keeps ticking


def test_a_phone_pairing_redraws_the_panel_and_says_so(web_app):
    from companion.testing import drain
    app = web_app
    assert app.web.start() == ""
    app.render()
    choose(app, "Table web")
    choose(app, "Pair a phone")
    before = app.panel_frame.tobytes()
    assert app.web.pairing.attempt(app.web.pairing.code()).ok  # as the web thread does
    drain(app)
    app.render()
    assert app.toast[0] == "Phone paired" and app.panel_frame.tobytes() != before


def test_doctor_finds_the_web_of_a_companion_run_with_another_web(tmp_path, no_config):
    """Issue 26, item 11: `companion run --web 127.0.0.1:PORT` while the config says
    0.0.0.0:8080; the doctor said "not listening on 0.0.0.0:8080". The running companion
    publishes where its web listens (companion/session/webinfo.py), and the doctor checks
    there."""
    from companion.session import webinfo
    port, configured = free_port(), free_port()  # not 8080: a user's `make run` may hold it
    while configured == port:
        configured = free_port()
    journal = tmp_path / "j.db"
    cfg = configmod.Config(configmod.check({"storage": {"path": str(journal)},
                                            "web": {"port": configured}}))
    assert cfg["web"]["host"] == "0.0.0.0"
    p = run_companion(tmp_path, "--web", f"127.0.0.1:{port}")
    try:
        assert p.stdout.readline().strip() == f"web http://127.0.0.1:{port}/"
        assert p.stdout.readline().strip() == "ready"
        line = check_web(cfg)
        assert line.verdict == "OK", line.line()
        assert f"listening on 127.0.0.1:{port}" in line.detail
        assert f"pid {p.pid}" in line.detail
        assert f"not the config's 0.0.0.0:{configured}" in line.detail
        assert f"http://127.0.0.1:{port}/" in line.detail
    finally:
        out, err = p.communicate("QUIT\n", timeout=30)
    assert p.returncode == 0 and err == ""
    assert not webinfo.path_for(journal).exists()  # withdrawn when it stopped
    line = check_web(cfg)  # none runs: where the config will have it
    assert line.verdict == "SKIP" and f"not listening on 0.0.0.0:{configured}" in line.detail
    (tmp_path / "none.toml").write_text(f"[web]\nport = {free_port()}\n")  # free, surely
    p = run_companion(tmp_path, "--no-web")
    try:
        assert p.stdout.readline().strip() == "ready"
        line = check_web(cfg)
        assert line.verdict == "SKIP" and f"(pid {p.pid})" in line.detail
        assert "--no-web" in line.detail and "Web on" in line.detail
    finally:
        p.communicate("QUIT\n", timeout=30)


def test_a_published_web_left_by_a_killed_companion_is_ignored(tmp_path):
    from companion.session import webinfo
    from companion.session.lock import JournalLock
    journal = tmp_path / "j.db"
    port = free_port()
    cfg = configmod.Config(configmod.check({"web": {"host": "127.0.0.1", "port": port},
                                            "storage": {"path": str(journal)}}))
    with JournalLock(journal):
        webinfo.publish(journal, "127.0.0.1", 1, "http://127.0.0.1:1/")
        assert webinfo.read(journal) is not None
        line = check_web(cfg)  # ours, but nothing listens there: Web off on the box
        assert line.verdict == "SKIP" and "Web off" in line.detail and "pid" in line.detail
    # The lock is gone (its holder stopped without withdrawing): the file means nothing.
    assert webinfo.path_for(journal).exists() and webinfo.read(journal) is None
    assert "the companion is not running" in check_web(cfg).detail
