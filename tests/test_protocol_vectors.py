"""One table of protocol vectors, both ends: the host's framing (companion/drivers/rollerproto)
against tests/vectors/protocol.json, and the host and the firmware against each other.

The firmware's own checks against the same table run in test_firmware_modules.py (CPython)
and test_firmware_micropython.py (MicroPython).
"""

import json
import sys
from pathlib import Path

import pytest

from companion.drivers import rollerproto as rp
from companion.errors import RollerProtocolError

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parent / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

import proto  # noqa: E402  (firmware/proto.py)
import rolling  # noqa: E402

V = json.loads((HERE / "vectors" / "protocol.json").read_text())


def raw(v: dict) -> bytes:
    return bytes.fromhex(v["hex"]) if "hex" in v else v["line"].encode()


@pytest.mark.parametrize("v", V["checksums"], ids=lambda v: v["body"])
def test_checksum(v):
    assert f"{rp.checksum(v['body'].encode()):02X}" == v["checksum"]


@pytest.mark.parametrize("v", V["frames"], ids=lambda v: v["line"].strip())
def test_frame_both_ends(v):
    line = v["line"].encode()
    assert rp.frame(v["verb"], v["args"]) == line
    assert proto.frame(v["verb"], v["args"]) == line
    assert rp.parse(line) == (v["verb"], v["args"])


@pytest.mark.parametrize("v", V["parses"], ids=lambda v: v["why"])
def test_parses(v):
    assert rp.parse(raw(v)) == (v["verb"], v["args"])


@pytest.mark.parametrize("v", V["bad_lines"], ids=lambda v: v["why"])
def test_bad_lines_dropped_by_both_ends(v):
    with pytest.raises(RollerProtocolError) as e:
        rp.parse(raw(v))
    assert e.value.reason == v["reason"]
    with pytest.raises(proto.ProtoError) as fe:
        proto.parse(raw(v))
    assert fe.value.reason == v["reason"]


@pytest.mark.parametrize("v", V["streams"], ids=lambda v: v["why"])
def test_streams(v):
    reader = rp.LineReader(V["max_line"])
    lines, dropped = [], []
    for chunk in v["chunks"]:
        items = [reader.expire()] if chunk == "EXPIRE" else reader.feed(chunk.encode())
        for item in items:
            if isinstance(item, RollerProtocolError):
                dropped.append(item.reason)
            elif item is not None:
                lines.append(item.decode())
    assert lines == v["lines"]
    assert dropped == v["dropped"]
    end = reader.expire()
    assert (end.reason if end else None) == v.get("expire")


def _expect(v: dict):
    if "hello" in v:
        return rp.Hello(v["hello"]["version"], tuple(v["hello"]["dice"]))
    if "rolled" in v:
        return rp.Rolled(v["rolled"]["seq"], v["rolled"]["dice"])
    if "ok" in v:
        return rp.Ok(v["ok"])
    if "pong" in v:
        return rp.Pong(v["pong"])
    if "press" in v:
        return rp.Press()
    if "err" in v:
        return rp.Err(v["err"]["seq"], v["err"]["reason"])
    raise AssertionError(f"vector without a meaning: {v}")


@pytest.mark.parametrize("v", V["host_reads"], ids=lambda v: v["line"].strip())
def test_host_reads(v):
    line = v["line"].encode()
    if "drop" in v:
        with pytest.raises(RollerProtocolError) as e:
            rp.read_message(line)
        assert e.value.reason == v["drop"]
    else:
        msg = rp.read_message(line)
        assert msg == _expect(v)
        if isinstance(msg, rp.Rolled):  # numbers are ints, as in game events
            assert all(type(f) is type(w) for f, w in zip(msg.dice.values(), v["rolled"]["dice"].values()))


@pytest.mark.parametrize("v", V["exchanges"], ids=lambda v: v["host"].strip()[:40])
def test_every_firmware_answer_is_understood_by_the_host(v):
    """Both ends agree: what the firmware answers, the host reads without dropping it."""
    out: list[bytes] = []
    pick = (lambda a, b: b) if v.get("randint") == "max" else (lambda a, b: a)
    r = rolling.Roller(out.append, pick)
    r.receive(v["host"].encode(), 0)
    r.tick(rolling.ANIM_MS)
    assert [b.decode() for b in out] == v["roller"]
    for line in out:
        msg = rp.read_message(line)
        assert isinstance(msg, (rp.Rolled, rp.Pong, rp.Ok, rp.Err, rp.Hello))


def test_host_requests_are_understood_by_the_firmware():
    out: list[bytes] = []
    r = rolling.Roller(out.append, lambda a, b: a)
    r.receive(rp.frame("HELLO") + rp.roll_line(3, ["colors", "d8"])
              + rp.show_line(4, {"shapes": "star", "d6": 2}) + rp.frame("PING", ["5"]), 0)
    r.tick(rolling.ANIM_MS)
    got = [rp.read_message(line) for line in out]
    assert got == [
        rp.Hello(rolling.VERSION, ("colors", "shapes", "d8", "d6")),
        rp.Ok(4),
        rp.Pong(5),
        rp.Rolled(3, {"colors": "red", "d8": 1}),
    ]


def test_versions_match_the_table():
    assert rolling.VERSION == V["version"]
    assert list(rp.DICE) == V["dice"] == list(proto_dice())
    assert rp.MAX_LINE == proto.MAX_LINE == V["max_line"]


def proto_dice():
    import faces
    return faces.NAMES


def test_every_line_in_docs_protocol_md_is_well_framed():
    """The examples in the protocol document carry correct checksums (but the corrupted one)."""
    import re

    doc = (HERE.parent / "docs" / "protocol.md").read_text()
    lines = set(re.findall(r"\b([A-Z]{2,6}(?: [^\s*`|]+)*\*[0-9A-F]{2})\b", doc))
    assert len(lines) > 20
    bad = {ln for ln in lines if _fails(ln)}
    assert bad == {"PING 7*00"}


def _fails(line: str) -> bool:
    try:
        rp.parse(line.encode())
    except RollerProtocolError:
        return True
    return False
