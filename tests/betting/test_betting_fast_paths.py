"""games.betting fast paths (next_to_act, pots) agree with the plain definitions they replace."""

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


def _pots_reference(b):
    """The former, plainer games.betting.pots (kept here as a reference for the faster one)."""
    live = bt.in_hand(b)
    levels = sorted({b["total"][str(s)] for s in live if b["stack"][str(s)] == 0})
    top = max((b["total"][str(s)] for s in live), default=0)
    if not levels or levels[-1] < top:
        levels.append(top)
    out = []
    prev = 0
    for i, cap in enumerate(levels):
        last = i == len(levels) - 1
        amount = 0
        for v in b["total"].values():
            hi = v if last else min(v, cap)
            amount += max(0, hi - prev)
        eligible = [s for s in live if b["total"][str(s)] >= cap]
        if i == 0:
            amount += b["dead"]
        prev = cap
        if amount == 0:
            continue
        if not eligible and out:
            out[-1]["amount"] += amount
            continue
        out.append({"amount": amount, "eligible": eligible})
    return out


@given(
    totals=st.lists(st.integers(0, 6), min_size=2, max_size=6),
    allin=st.lists(st.booleans(), min_size=6, max_size=6),
    folded=st.lists(st.booleans(), min_size=6, max_size=6),
    dead=st.integers(0, 5),
)
def test_pots_agree_with_the_reference(totals, allin, folded, dead):
    order = list(range(1, len(totals) + 1))
    b = bt.new_betting(order, {s: 0 if allin[i] else 10 for i, s in enumerate(order)}, dead)
    for i, s in enumerate(order):
        b["total"][str(s)] = totals[i]
        if folded[i]:
            b["folded"].append(s)
    assert bt.pots(b) == _pots_reference(b)
