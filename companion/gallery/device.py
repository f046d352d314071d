"""The table web's screens in the device menu, for docs/screens (`companion screens`): drawn
with a real companion.web.server.Web, as at a table on 192.168.1.20 (nothing is bound)."""

from __future__ import annotations

from typing import Iterator

from PIL import Image

from companion.ui.device import PairScreen, address_screen, standin_frame, web_menu
from companion.ui.screen import Context
from companion.web.pairing import Pairing
from companion.web.server import Web


def shots(config) -> Iterator[tuple[str, Image.Image]]:
    """(name, image) of each screen, each drawn when asked for."""
    class ShownWeb(Web):  # drawn as listening; nothing is bound for a screenshot
        running = True

    web = ShownWeb(config=config, post=lambda item: None, host="192.168.1.20", port=8080)
    web.pairing = Pairing(clock=lambda: 0.0, randbelow=lambda n: 482193)
    web.addresses = ["192.168.1.20"]
    ctx = Context(config=config, extra={"web": web})
    off = Web(config=config, post=lambda item: None, host="192.168.1.20", port=8080)
    off_ctx = Context(config=config, extra={"web": off})
    menu = web_menu(ctx)
    yield "web-menu", menu.render(ctx)
    yield "web-forget", menu.items[2].choose(ctx).screen.render(ctx)
    yield "web-menu-off", web_menu(off_ctx).render(off_ctx)
    screen = PairScreen()
    yield "web-pair", screen.render(ctx)
    web.pairing.attempt(web.pairing.code())
    yield "web-paired", screen.render(ctx)
    yield "web-pairing-standin", standin_frame()
    yield "web-address", address_screen(ctx).render(ctx)
