"""Properties of the host's framing (rollerproto) beyond the vector table."""

from hypothesis import given, settings, strategies as st

from companion.drivers import rollerproto as rp
from companion.errors import RollerProtocolError

words = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E,
                                       blacklist_characters="*"), min_size=1, max_size=8)


@given(st.sampled_from(["ROLL", "SHOW", "PING", "HELLO", "X"]), st.lists(words, max_size=6))
def test_frame_parse_round_trip(verb, args):
    line = rp.frame(verb, args)
    assert rp.parse(line) == (verb, args)
    reader = rp.LineReader()
    assert reader.feed(line[:3]) == [] and reader.feed(line[3:]) == [line]


@settings(max_examples=300)
@given(st.lists(st.binary(max_size=120), max_size=20))
def test_garbage_only_ever_raises_protocol_errors(chunks):
    reader = rp.LineReader()
    for chunk in chunks:
        for item in reader.feed(chunk):
            if isinstance(item, bytes):
                assert len(item) <= rp.MAX_LINE + 2
                try:
                    rp.read_message(item)
                except RollerProtocolError as e:
                    assert e.reason in {"long", "frame", "checksum", "verb", "args", "die", "face"}
    assert len(reader._buf) <= rp.MAX_LINE + 1  # memory stays bounded


def test_one_flipped_bit_is_caught():
    line = rp.frame("ROLLED", ["5", "colors=red", "d8=3"])
    for i in range(len(line) - 4):  # every byte of the body
        for bit in range(7):
            bad = bytearray(line)
            bad[i] ^= 1 << bit
            try:
                got = rp.parse(bytes(bad))
            except RollerProtocolError:
                continue
            raise AssertionError(f"{bytes(bad)!r} parsed as {got}")
