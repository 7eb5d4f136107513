"""The engine's hot-path shortcuts agree with the plain definitions they replace."""

from hypothesis import given
from hypothesis import strategies as st

from games.engine import IllegalAction, spec_matches
from games.poker5.engine import Poker5Error, _spec_matches
from games.poker_common import match_button, match_spec, spec_of

_KEYS = st.sampled_from(["type", "cards", "variant", "amount", "label", "confirm", "x"])
_VALUES = st.one_of(st.none(), st.integers(-2, 3), st.booleans(), st.sampled_from(["punto", "vedo"]))
_AMOUNT = st.fixed_dictionaries({"min": st.integers(-1, 3), "max": st.integers(-1, 3)})


@given(
    spec=st.dictionaries(_KEYS, _VALUES, max_size=5),
    spec_amount=st.one_of(st.none(), _AMOUNT),
    action=st.dictionaries(_KEYS, _VALUES, max_size=5),
)
def test_spec_matches_shortcut_agrees_with_the_core(spec, spec_amount, action):
    if spec_amount is not None:
        spec["amount"] = spec_amount
    else:
        spec.pop("amount", None)
    assert _spec_matches(spec, action) == spec_matches(spec, action)


_TYPES = st.sampled_from(["busso", "passo", "punto", "vedo", "parol"])
_BUTTON = st.tuples(
    _TYPES,
    st.sampled_from(["BUSSO", "PASSO", "RESTO"]),
    st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 3))),
    st.one_of(st.none(), st.just("Vuoi davvero?")),
)


def _refusal(check) -> str | None:
    try:
        check()
    except IllegalAction as err:
        return err.code
    return None


@given(
    raw=st.lists(_BUTTON, max_size=4, unique_by=lambda b: b[0]),
    action=st.fixed_dictionaries(
        {"type": _TYPES}, optional={"amount": _VALUES, "label": _VALUES, "x": _VALUES}
    ),
)
def test_button_matching_agrees_with_spec_matching(raw, action):
    buttons = [(t, label, *(amount or (None, None)), confirm) for t, label, amount, confirm in raw]
    specs = [spec_of(b) for b in buttons]
    by_buttons = _refusal(lambda: match_button(buttons, action, Poker5Error))
    by_specs = _refusal(lambda: match_spec(specs, action, Poker5Error, card_keys=()))
    assert by_buttons == by_specs
