"""Pairing rules (companion/web/pairing.py) under any order of tries, clock steps and panel
draws: single use, 5 minutes, 5 wrong codes void it and lock every try out for 30 s."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from companion.web.pairing import CODE_TTL, LOCKOUT, MAX_WRONG, Pairing

from conftest import FakeClock

steps = st.lists(st.one_of(
    st.tuples(st.just("draw")),  # the panel shows the pairing screen (asks for the code)
    st.tuples(st.just("right")),  # a phone sends the code on show
    st.tuples(st.just("wrong")),
    st.tuples(st.just("wait"), st.sampled_from([1.0, 10.0, 29.0, 30.0, 120.0, 301.0])),
    st.tuples(st.just("forget")),
), max_size=40)


@settings(max_examples=300, deadline=None)
@given(steps)
def test_pairing_rules_hold_for_any_sequence(seq):
    clock = FakeClock()
    notes: list[str] = []
    p = Pairing(clock=clock, on_change=notes.append)
    shown = ""  # the code the panel last drew
    born = None  # when that code first appeared
    wrong_in_a_row = 0
    locked_until = -1.0
    used: set[str] = set()
    for step in seq:
        kind = step[0]
        if kind == "draw":
            code = p.code()
            assert len(code) == 6 and code.isdigit()
            if code != shown:
                shown, born, wrong_in_a_row = code, clock(), 0
        elif kind == "wait":
            clock.advance(step[1])
        elif kind == "forget":
            p.forget_all()
            assert p.phones == 0
            shown = ""
        else:
            code = shown if kind == "right" else f"{(int(shown or '0') + 1) % 10**6:06d}"
            result = p.attempt(code)
            if clock() < locked_until:
                assert not result.ok and result.retry_after > 0
                continue
            if result.ok:
                # Only the code on show, within its 5 minutes, never twice.
                assert kind == "right" and shown and clock() - born < CODE_TTL
                assert code not in used
                used.add(code)
                assert p.valid(result.token) and notes[-1] == "Phone paired"
                shown = ""
                wrong_in_a_row = 0
            elif result.retry_after > 0:
                assert wrong_in_a_row + 1 == MAX_WRONG and result.retry_after == LOCKOUT
                locked_until = clock() + LOCKOUT
                shown, wrong_in_a_row = "", 0  # voided: the next draw shows a new code
            else:
                if shown and clock() - born < CODE_TTL:
                    assert kind == "wrong"
                    wrong_in_a_row += 1
                else:
                    shown = ""  # expired or never drawn: nothing to guess
    assert not p.valid("") and not p.valid("forged")
