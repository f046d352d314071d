"""The table web's screens in the device menu, for docs/screens (`companion screens`): drawn
with a real companion.web.server.Web, as at a table on 192.168.1.20 (nothing is bound)."""

from __future__ import annotations

from PIL import Image

from companion.ui.device import PairScreen, address_screen, standin_frame, web_menu
from companion.ui.screen import Context
from companion.web.pairing import Pairing
from companion.web.server import Web


def shots(config) -> list[tuple[str, Image.Image]]:
    class ShownWeb(Web):  # drawn as listening; nothing is bound for a screenshot
        running = True

    web = ShownWeb(config=config, post=lambda item: None, host="192.168.1.20", port=8080)
    web.pairing = Pairing(clock=lambda: 0.0, randbelow=lambda n: 482193)
    web.addresses = ["192.168.1.20"]
    ctx = Context(config=config, extra={"web": web})
    off = Web(config=config, post=lambda item: None, host="192.168.1.20", port=8080)
    off_ctx = Context(config=config, extra={"web": off})
    menu = web_menu(ctx)
    out = [("web-menu", menu.render(ctx))]
    out.append(("web-forget", menu.items[2].choose(ctx).screen.render(ctx)))
    out.append(("web-menu-off", web_menu(off_ctx).render(off_ctx)))
    screen = PairScreen()
    out.append(("web-pair", screen.render(ctx)))
    web.pairing.attempt(web.pairing.code())
    out.append(("web-paired", screen.render(ctx)))
    out.append(("web-pairing-standin", standin_frame()))
    out.append(("web-address", address_screen(ctx).render(ctx)))
    return out
