"""The table web in the device menu: "Pair a phone" (the code and a QR code of the pairing
address), "Forget all phones", "Web on/off". Offered only when the companion has a web: the
app hands its web object to the screens in `ctx.extra["web"]`, and they use only what
`TableWeb` names. Nothing in ui imports the web (the web draws with ui; the dependency goes
one way)."""

from __future__ import annotations

from typing import Any, Protocol

from PIL import Image

from companion.inputs import Button
from companion.ui import draw
from companion.ui.actions import After, ForgetPhones, Pop, Push, WebSwitch
from companion.ui.screen import Confirm, Context, Item, Menu, Result, Screen, TextScreen

REFRESH = 1.0  # seconds between redraws of the pairing screen (its countdown)


class PhonePairing(Protocol):
    """The pairing codes, as the pairing screen uses them."""

    @property
    def phones(self) -> int: ...  # paired now

    def open(self) -> str: ...  # a new code on show

    def close(self) -> None: ...

    def shown(self) -> Any: ...  # .status ("open", "paired", "void", ...), .code, .seconds_left


class TableWeb(Protocol):
    """What the device menu and the pairing screen ask of the table web."""

    pairing: PhonePairing

    @property
    def running(self) -> bool: ...

    @property
    def url(self) -> str: ...  # the address to show

    @property
    def urls(self) -> list[str]: ...  # every address it answers on

    def pair_url(self, code: str) -> str: ...  # what the QR code holds


def web_of(ctx: Context) -> TableWeb | None:
    return ctx.extra.get("web")


def web_menu(ctx: Context) -> Menu:
    web = web_of(ctx)
    assert web is not None  # offered only with a web

    def pair(c: Context) -> Result:
        return [Push(PairScreen()), After(REFRESH, "pair")]

    def switch_label(c: Context) -> str:
        return "Web off" if web.running else "Web on"

    def switch(c: Context) -> Result:
        return [Pop(), WebSwitch(not web.running)]

    def forget(c: Context) -> Result:
        n = web.pairing.phones
        return Push(Confirm("Forget all phones?", [Pop(), ForgetPhones()],
                            detail=f"{n} phone{'s' * (n != 1)} paired now"))

    items = [
        Item("Pair a phone", pair, enabled=web.running),
        Item(lambda c: web.url.removeprefix("http://").rstrip("/") if web.running
             else "Address: web is off", lambda c: Push(address_screen(c))),
        Item("Forget all phones", forget),
        Item(switch_label, switch),
    ]
    return Menu("Table web", items, cursor=0 if web.running else 3)


def address_screen(ctx: Context) -> Screen:
    web = web_of(ctx)
    assert web is not None
    if not web.running:
        lines = ["The web is off.", "Web on (in this menu) starts it."]
    else:
        shown = [u.removeprefix("http://").rstrip("/") for u in web.urls]
        outside = [u for u in shown if not u.startswith(("127.", "[::1]"))]
        lines = [*(outside or shown),
                 "Open it on a phone or a TV.",
                 "Watching needs nothing; control needs Pair a phone."]
    return TextScreen("Table web", lines)


def qr_image(text: str, *, height: int = draw.HEIGHT) -> Image.Image:
    """A normal QR code of `text`, pixel-exact for the panel: dark modules on a lit field with
    a quiet zone, as large as fits in `height` (2 px per module for version 2)."""
    import segno
    try:
        qr = segno.make_qr(text, version=2, error="m", boost_error=False)
    except segno.DataOverflowError:
        qr = segno.make_qr(text, error="l")
    n = len(qr.matrix)
    scale = max(1, min(2, height // (n + 4)))
    quiet = max(2, min(4, (height // scale - n) // 2))  # modules of lit margin on each side
    side = (n + 2 * quiet) * scale
    img = Image.new("1", (side, side), 1)
    px = img.load()
    assert px is not None  # an image made in memory has its pixels
    for y, row in enumerate(qr.matrix):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    for dx in range(scale):
                        px[(quiet + x) * scale + dx, (quiet + y) * scale + dy] = 0
    return img


def standin_frame() -> Image.Image:
    """What the web shows instead of a secret screen (the pairing code and its QR): drawn
    like any panel frame, 128x64 mode "1", so no public route ever carries the code."""
    img, d = draw.blank()
    draw.title_bar(d, "Table web")
    draw.centered(d, (0, 14, draw.WIDTH, 40), "Pairing on the box", largest=16)
    draw.centered(d, (0, 42, draw.WIDTH, 62), "Code: on the box only", largest=10)
    return img


class PairScreen(Screen):
    """The code, big, and the QR code of HTTP://ADDRESS:PORT/J/CODE, with its countdown. A
    used code closes: "Phone paired" (OK: pair another). 20 wrong tries void it: "Code void"
    (OK: new code). An expired one is renewed by itself. The web thread posts a redraw on each
    change, and a tick each second keeps the countdown. `secret`: the web never shows it."""

    title = "Pair a phone"
    secret = True

    def __init__(self) -> None:
        self._qr: tuple[str, Image.Image] | None = None
        self._asked = False  # a code was made for this screen (made on its first frame)

    def render(self, ctx: Context) -> Image.Image:
        img, d = draw.blank()
        web = web_of(ctx)
        if web is None or not web.running:
            draw.title_bar(d, self.title)
            draw.centered(d, (0, 14, draw.WIDTH, 40), "Web is off", largest=16)
            draw.hint(d, "Web on: in Table web")
            return img
        if not self._asked:
            self._asked = True
            web.pairing.open()
        shown = web.pairing.shown()
        if shown.status == "paired":
            draw.title_bar(d, self.title)
            draw.centered(d, (0, 14, draw.WIDTH, 40), "Phone paired", largest=18)
            draw.hint(d, "OK: another  BACK: done")
            return img
        if shown.status != "open":
            void = shown.status == "void"
            draw.title_bar(d, self.title)
            draw.centered(d, (0, 13, draw.WIDTH, 33), "Code void" if void else "No code",
                          largest=16)
            draw.centered(d, (0, 34, draw.WIDTH, 48), "20 wrong tries" if void else
                          "The code is closed", largest=10)
            draw.hint(d, "OK: new  BACK: done")
            return img
        code = shown.code
        url = web.pair_url(code)
        if self._qr is None or self._qr[0] != url:
            self._qr = (url, qr_image(url))
        qr = self._qr[1]
        img.paste(qr, (0, (draw.HEIGHT - qr.height) // 2))
        x0 = qr.width + 2
        box_w = draw.WIDTH - x0
        d.text((x0 + box_w // 2, 0), "Pair code", font=draw.font(draw.SMALL), fill=1, anchor="mt")
        size = draw.fit("888", box_w - 2, 22, largest=22)
        d.text((x0 + box_w // 2, 12), code[:3], font=draw.font(size), fill=1, anchor="mt")
        d.text((x0 + box_w // 2, 12 + size), code[3:], font=draw.font(size), fill=1, anchor="mt")
        left = int(shown.seconds_left + 0.999)
        d.text((x0 + box_w // 2, draw.HEIGHT), f"{left // 60}:{left % 60:02d}",
               font=draw.font(draw.SMALL), fill=1, anchor="md")
        return img

    def draw_on(self, d, ctx: Context) -> None:  # render() draws; kept for the protocol
        pass

    def on_press(self, button, ctx: Context) -> Result:
        web = web_of(ctx)
        open_now = web is not None and web.pairing.shown().status == "open"
        if button is Button.OK and web is not None and web.running and not open_now:
            web.pairing.open()  # asked for: pair another phone, or a new code after a void
            return None
        if button in (Button.BACK, Button.OK):
            if web is not None:
                web.pairing.close()  # nobody sees the code any more: it stops working
            return Pop()
        return None

    def on_tick(self, token: str, data: dict[str, Any], ctx: Context) -> Result:
        return After(REFRESH, "pair")  # the countdown; stops when the screen is gone
