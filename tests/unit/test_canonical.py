"""The fast envelope encoder writes exactly the canonical JSON that API.md hashes."""
import hashlib
import json

from hypothesis import given, strategies as st

from events.canonical import canonical_bytes, envelope_bytes, event_hash, hashed_view

text = st.text(max_size=12)
json_values = st.recursive(st.none() | st.booleans() | st.integers(-10**12, 10**12) | text,
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                           max_leaves=8)


@given(group=text, seq=st.integers(1, 10**9), kind=text, hand=st.none() | text, table=st.none() | text,
       data=st.dictionaries(text, json_values, max_size=4), actor=text, at=text, prev=text)
def test_envelope_bytes_equal_the_canonical_json_of_the_envelope(group, seq, kind, hand, table, data, actor, at, prev):
    env = {"seq": seq, "type": kind, "data": data, "actor": actor, "recorded_at": at, "prev_hash": prev}
    if hand is not None:
        env["hand"] = hand
    if table is not None:
        env["table"] = table
    expected = json.dumps({**env, "group": group}, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")
    fast = envelope_bytes(group, seq, kind, hand, table, canonical_bytes(data).decode("utf-8"), actor, at, prev)
    assert fast == expected == canonical_bytes(hashed_view(env, group))
    assert event_hash(env, group) == hashlib.sha256(expected).hexdigest()


def test_canonical_json_keeps_non_ascii_and_escapes_control_characters():
    assert canonical_bytes({"b": "Łódź\n", "a": 1}) == '{"a":1,"b":"Łódź\\n"}'.encode("utf-8")


exact_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 63, 2 ** 64 - 1) | text
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3), max_leaves=8)


@given(data=st.dictionaries(text, exact_values, max_size=4))
def test_event_data_reads_back_as_exactly_what_was_written(data):
    from events.canonical import event_data_json, read_event_data
    written = event_data_json(data)
    assert read_event_data(written) == json.loads(written) == data
    assert written == canonical_bytes(data).decode("utf-8")


def test_an_integer_beyond_64_bits_is_refused_before_it_is_written():
    import pytest
    from events.canonical import event_data_json
    from events.errors import Unprocessable
    assert event_data_json({"n": [2 ** 64 - 1, -2 ** 63], "id": "1" * 40}) == (
        f'{{"id":"{"1" * 40}","n":[{2 ** 64 - 1},{-2 ** 63}]}}')  # long digits inside a string are text
    for bad in ({"n": 2 ** 64}, {"deep": [{"n": -2 ** 63 - 1}]}):
        with pytest.raises(Unprocessable, match="at most 64 bits"):
            event_data_json(bad)


@given(events=st.lists(st.tuples(text, st.none() | text, st.none() | text,
                                 st.dictionaries(text, json_values, max_size=3), text, text),
                       min_size=1, max_size=6),
       group=text, bad=st.integers(0, 5))
def test_verify_accepts_exactly_the_chain_that_api_md_hashes(events, group, bad):
    """verify writes the canonical text itself, for speed: it must agree with the hash of
    API.md for any ids and data, and find a change to any one event."""
    from events.canonical import GENESIS
    from events.verify import faults
    rows, prev = [], GENESIS
    for seq, (kind, hand, table, data, actor, at) in enumerate(events, 1):
        kind = "trick" if seq % 2 else "deal"  # verify knows the event types
        env = {"seq": seq, "type": kind, "data": data, "actor": actor, "recorded_at": at, "prev_hash": prev}
        env.update({k: v for k, v in (("hand", hand), ("table", table)) if v is not None})
        digest = event_hash(env, group)
        rows.append((group, seq, kind, hand, table, canonical_bytes(data).decode("utf-8"), actor, at, prev, digest))
        prev = digest
    assert list(faults(rows)) == []
    target = bad % len(rows)
    changed = list(rows[target])
    changed[6] = changed[6] + "x"  # the actor, say
    rows[target] = tuple(changed)
    [fault] = faults(rows)
    assert fault.seq == target + 1 and "do not match its hash" in fault.reason
