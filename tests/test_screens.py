"""Every screen renders on luma's dummy device (mode "1", like the panel)."""

from __future__ import annotations

from PIL import Image

from companion.drivers.display import dummy
from companion.gallery.screens import write_all
from companion.games import kinds, mode_for
from companion.rules.game import Header
from companion.session.journal import Journal
from companion.ui import draw
from companion.ui.screen import Context
from companion.ui.table import TableScreen


def ink(img: Image.Image, box) -> int:
    return img.crop(box).convert("L").histogram()[255]


def test_every_gallery_screen_renders_on_the_dummy_device(config):
    device = dummy()
    count = 0
    for kind in kinds().values():
        for name, journal, stack in kind.gallery(config):
            img = stack[-1].render(Context(config=config, journal=journal))
            assert img.size == (128, 64) and img.mode == "1", name
            assert device.show(img) or device.last == img.tobytes()
            assert device.image.mode == "1"
            assert ink(img, (0, 0, 128, 64)) > 50, f"{name} is (nearly) blank"
            count += 1
    assert count >= 10


def test_the_current_player_is_the_biggest_thing(config):
    j = Journal(Header("table", ("Ann", "Ben", "Cy", "Dee")))
    j.append({"type": "next"})
    ctx = Context(config=config, journal=j)
    img = TableScreen(mode_for("table")).render(ctx)
    # The name band (rows 13-50) carries most of the ink, and is drawn at 20 px or more.
    assert ink(img, (0, 13, 128, 51)) > ink(img, (0, 0, 128, 13)) + ink(img, (0, 52, 128, 64))
    assert draw.fit("Ben", 128, 37, largest=34) >= 20


def test_direction_arrow_differs_by_direction():
    a, da = draw.blank()
    b, db = draw.blank()
    draw.direction_arrow(da, (20, 20), 10, 1)
    draw.direction_arrow(db, (20, 20), 10, -1)
    assert a.tobytes() != b.tobytes()
    assert a.transpose(Image.FLIP_LEFT_RIGHT).tobytes() != a.tobytes()


def test_long_names_are_clipped_not_overflowing():
    assert draw.clip("Bartholomew-the-Great", 60, 13).endswith("…")
    assert draw.text_size(draw.clip("Bartholomew-the-Great", 60, 13), 13)[0] <= 60


def test_screens_command_writes_crisp_pngs(tmp_path, config):
    written = write_all(tmp_path, config, scale=4)
    names = {p.stem for p in written}
    assert {"start", "table", "menu", "dice-menu", "dice-both", "toast-undo", "end"} <= names
    img = Image.open(tmp_path / "table.png")
    assert img.size == (512, 256)
    assert {c for _, c in img.convert("L").getcolors()} <= {0, 255}  # nearest-neighbour: no grey


def test_docs_screens_has_exactly_the_screens_the_code_draws(tmp_path, config):
    """docs/screens is made by `companion screens`; a screen added or renamed must be there."""
    from pathlib import Path

    from companion import games

    docs = Path(__file__).parent.parent / "docs" / "screens"
    # A house game installed into the same venv draws its screens too; docs/screens has the
    # companion's own.
    house = tuple(f"{k.kind}-" for k in games.kinds().values() if not games.builtin(k))
    drawn = {p.name for p in write_all(tmp_path, config, scale=1)
             if not p.name.startswith(house)}
    committed = {p.name for p in docs.glob("*.png")}
    assert drawn == committed, ("regenerate with `make screens`: "
                                f"missing {sorted(drawn - committed)}, "
                                f"stale {sorted(committed - drawn)}")


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("AnBé…▲▼ 0123456789+-:!,.gjqy"), min_size=1,
                   max_size=14),
       size=st.integers(8, 40), anchor=st.sampled_from(["la", "lm", "mm", "rm", "mt", "mb",
                                                          "lt", "rs", None]),
       x=st.one_of(st.integers(-20, 140), st.floats(-20, 140)),
       y=st.one_of(st.integers(-20, 80), st.floats(-20, 80)), fill=st.sampled_from([0, 1]))
def test_cached_text_draws_exactly_what_pillow_draws(text, size, anchor, x, y, fill):
    from PIL import ImageDraw

    ours, d_ours = draw.blank()
    stock = Image.new("1", (128, 64), 1 - fill)
    ours.paste(1 - fill, (0, 0, 128, 64))
    ImageDraw.Draw(stock).text((x, y), text, font=draw.font(size), fill=fill, anchor=anchor)
    for _ in range(2):  # the second time from the cache
        d_ours.text((x, y), text, font=draw.font(size), fill=fill, anchor=anchor)
    assert ours.tobytes() == stock.tobytes()


def test_empty_text_draws_nothing_at_any_position():
    img, d = draw.blank()
    for xy in ((0, 0), (0, -1.9999999999999964), (10.5, 3.25)):
        d.text(xy, "", font=draw.font(8), fill=1, anchor="la")
    assert img.getbbox() is None


def test_a_confirm_screens_two_badges_never_touch(config):
    """OK and BACK are two separate answers: a dark gap stands between their badges (a guest
    trial read "OK = yesBACK = no" as one box)."""
    from companion.ui.screen import Confirm
    img = Confirm("Forget all phones?", None, detail="0 phones paired now").render(
        Context(config=config))
    px = img.load()
    gaps = [x for x in range(30, 98) if not any(px[x, y] for y in range(48, 64))]
    assert gaps, "the OK and BACK badges touch"


def test_seats_past_the_names_are_called_by_their_seat_number():
    """Issue 26, item 7: in a 16-player new game on a roster of four the fifth seat was "P1"."""
    from companion.ui.start import default_names
    names = default_names(["Ann", "Ben", "Cy", "Dee"], 16)
    assert names[4] == "P5" and names[15] == "P16"
    assert default_names(["Ann", "p6"], 7) == ("Ann", "p6", "P3", "P4", "P5", "P6b", "P7")
    assert default_names(["Ann", "Ben"], 1) == ("Ann",)
