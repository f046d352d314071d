"""The libraries' private fields and internals the companion reads, each by name, checked on
the versions installed.

The upper bounds in pyproject.toml (luma.core, luma.oled, gpiozero, starlette, sse-starlette,
uvicorn) keep pip from installing a release none of this was tried with; when one is raised,
this file says at once which field a new release renamed or dropped, and which of our files
read it. Each list is exact: a new read of a library's internals adds its name here.

fastjsonschema: its refusal's fields (documented, but what a design's refusal is made of) are
checked below, and it is bounded below its next major for them.

openskill: its documented API only (PlackettLuce, rate with ranks, predict_win, a rating's mu and
sigma), but companion/session/ratings.py hands a rating object that `rate` returned to the next
`rate` as it is, and computes the ordinal itself: both checked below, and bounded below its
next major for them.

starlette and sse-starlette: nothing private. companion/web/ uses their documented API only
(Starlette, Route, Mount, StaticFiles, Request, the Response classes, BackgroundTask,
EventSourceResponse with ping and headers). They are bounded all the same: the web's event
streams, refusals and pages were tried on these majors only.
"""

from __future__ import annotations

import asyncio
import inspect
from importlib import metadata

import pytest

# companion/drivers/oled.py: the partial-update subclasses read what luma's stock drivers set
# up in their constructors, and write with their command constants.
LUMA_SSD1306 = ("_w", "_pages", "_const", "_colstart")  # ssd1306._send: window and columns
LUMA_SH1106 = ("_w", "_pages", "_page_address_offset")  # sh1106._send: the 132-column RAM
LUMA_SSD1306_CONST = ("COLUMNADDR", "PAGEADDR")  # ssd1306._send: self._const.COLUMNADDR ...

# companion/web/gate.py: GatedH11 subclasses uvicorn's h11 protocol (an internal module),
# reads these instance attributes, extends these methods, and adds names of its own that must
# not be uvicorn's.
UVICORN_H11_MODULE = "uvicorn.protocols.http.h11_impl"
UVICORN_H11_READS = ("client", "loop", "cycle", "transport", "conn")
UVICORN_H11_EXTENDS = ("connection_made", "data_received", "on_response_complete",
                       "connection_lost", "send_400_response")
UVICORN_H11_OURS = ("_deadline", "_cycle", "_arm", "_disarm", "_too_slow")
# companion/web/server.py: Web.start and Web.stop drive uvicorn.Server through these.
UVICORN_SERVER = ("started", "should_exit")  # and serve(sockets=...)

# companion/rules/design/schema.py: a schema refusal is put in words from these fields.
FASTJSONSCHEMA_REFUSAL = ("name", "value", "rule", "rule_definition", "definition")

# companion/drivers/pins.py: _gpiozero_default asks gpiozero which pin library it would pick.
GPIOZERO_DEVICE = ("_default_pin_factory",)


def version(dist: str) -> str:
    return f"{dist} {metadata.version(dist)}"


@pytest.mark.parametrize("chip, fields", [("ssd1306", LUMA_SSD1306), ("sh1106", LUMA_SH1106)])
def test_luma_sets_the_fields_the_partial_drivers_read(chip, fields):
    from luma.core.interface.serial import noop
    from luma.oled import device

    dev = getattr(device, chip)(noop(), width=128, height=64)
    missing = [f for f in fields if not hasattr(dev, f)]
    assert not missing, (f"{version('luma.oled')}: luma.oled.device.{chip} no longer sets "
                         f"{missing} (read by companion/drivers/oled.py)")
    if chip == "ssd1306":
        gone = [c for c in LUMA_SSD1306_CONST if not hasattr(dev._const, c)]
        assert not gone, (f"{version('luma.oled')}: ssd1306's _const has no {gone} "
                          "(companion/drivers/oled.py)")


def test_uvicorn_h11_protocol_has_what_the_gate_reads():
    import importlib

    import uvicorn
    from uvicorn.server import ServerState

    h11_impl = importlib.import_module(UVICORN_H11_MODULE)

    async def app(scope, receive, send) -> None:
        pass

    loop = asyncio.new_event_loop()
    try:
        proto = h11_impl.H11Protocol(config=uvicorn.Config(app), server_state=ServerState(),
                                     app_state={}, _loop=loop)
    finally:
        loop.close()
    where = f"{version('uvicorn')}: {UVICORN_H11_MODULE}.H11Protocol"
    missing = [a for a in UVICORN_H11_READS if not hasattr(proto, a)]
    assert not missing, f"{where} no longer sets {missing} (read by companion/web/gate.py)"
    gone = [m for m in UVICORN_H11_EXTENDS if not callable(getattr(proto, m, None))]
    assert not gone, f"{where} has no method {gone} (extended by companion/web/gate.py)"
    clash = [a for a in UVICORN_H11_OURS if hasattr(proto, a)]
    assert not clash, f"{where} now has {clash} itself (companion/web/gate.py adds its own)"


def test_uvicorn_server_has_what_the_web_drives():
    import uvicorn

    async def app(scope, receive, send) -> None:
        pass

    server = uvicorn.Server(uvicorn.Config(app))
    missing = [a for a in UVICORN_SERVER if not hasattr(server, a)]
    assert not missing, (f"{version('uvicorn')}: uvicorn.Server no longer sets {missing} "
                         "(companion/web/server.py)")
    assert "sockets" in inspect.signature(server.serve).parameters, \
        f"{version('uvicorn')}: Server.serve takes no sockets (companion/web/server.py)"


def test_gpiozero_still_picks_a_default_pin_factory():
    from gpiozero import Device

    missing = [a for a in GPIOZERO_DEVICE if not callable(getattr(Device, a, None))]
    assert not missing, (f"{version('gpiozero')}: gpiozero.Device has no {missing} "
                         "(called by companion/drivers/pins.py)")


def test_fastjsonschema_s_refusal_still_carries_what_a_design_s_words_read():
    import fastjsonschema

    check = fastjsonschema.compile({"type": "object", "properties": {"n": {"maximum": 3}}})
    with pytest.raises(fastjsonschema.JsonSchemaValueException) as e:
        check({"n": 4})
    missing = [a for a in FASTJSONSCHEMA_REFUSAL if not hasattr(e.value, a)]
    assert not missing, (f"{version('fastjsonschema')}: a refusal has no {missing} "
                         "(companion/rules/design/schema.py)")
    assert (e.value.name, e.value.rule, e.value.rule_definition) == ("data.n", "maximum", 3)


def test_the_bounded_libraries_are_the_ones_named_here():
    """Each library this file checks has an upper bound in pyproject.toml, and no other
    dependency has one but Pillow (bounded for luma's use of Image.getdata)."""
    import re
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml")
                            .read_text(encoding="utf-8"))["project"]
    bounded = {re.split(r"[<>=!~; ]", d, maxsplit=1)[0].lower()
               for d in project["dependencies"] if "<" in d}
    assert bounded == {"luma.core", "luma.oled", "gpiozero", "starlette", "sse-starlette",
                       "uvicorn", "pillow", "fastjsonschema", "openskill"}


def test_openskill_leaves_the_ratings_it_is_given_and_its_ordinal_is_mu_less_3_sigma():
    """companion/session/ratings.py keeps each rating object `rate` returned and hands it to
    the player's next game: `rate` must not change the objects it is given. `Skill.ordinal`
    is openskill's default ordinal, mu - 3 sigma."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    a, b = model.rating(mu=30.0, sigma=5.0), model.rating()
    out = model.rate([[a], [b]], ranks=[0.0, 1.0])
    assert (a.mu, a.sigma, b.mu, b.sigma) == (30.0, 5.0, model.mu, model.sigma)
    assert out[0][0] is not a and out[0][0].mu > 30.0
    assert a.ordinal() == pytest.approx(30.0 - 3 * 5.0)
    from companion.session import ratings
    assert (ratings.MU, ratings.SIGMA) == (model.mu, model.sigma)  # a new player's skill
