"""The engine's hot-path shortcuts agree with the plain definitions they replace."""

from hypothesis import given
from hypothesis import strategies as st

from games.engine import spec_matches
from games.poker5.engine import _spec_matches

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
