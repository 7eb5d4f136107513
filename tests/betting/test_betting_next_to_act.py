"""games.betting.next_to_act (the engines' one-pass turn finder) agrees with needs_action."""

from hypothesis import given
from hypothesis import strategies as st

from games import betting as bt


@given(
    stacks=st.lists(st.integers(0, 3), min_size=2, max_size=6),
    rounds=st.lists(st.integers(0, 3), min_size=6, max_size=6),
    folded=st.lists(st.booleans(), min_size=6, max_size=6),
    acted=st.lists(st.booleans(), min_size=6, max_size=6),
    current=st.integers(0, 3),
    start=st.integers(0, 5),
)
def test_next_to_act_is_the_first_seat_needing_action(stacks, rounds, folded, acted, current, start):
    order = list(range(1, len(stacks) + 1))
    b = bt.new_betting(order, dict(zip(order, stacks, strict=True)))
    for i, s in enumerate(order):
        b["round"][str(s)] = rounds[i]
        if folded[i]:
            b["folded"].append(s)
        if acted[i]:
            b["acted"].append(s)
    b["current"] = current
    i = start % len(order)
    ring = order[i:] + order[:i]
    expected = None
    if len(bt.in_hand(b)) > 1:
        expected = next((s for s in ring if bt.needs_action(b, s)), None)
    assert bt.next_to_act(b, ring) == expected
