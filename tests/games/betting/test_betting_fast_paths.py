"""games.betting fast paths (next_to_act_from, pots) agree with the plain definitions they replace."""

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
def test_next_to_act_from_is_the_first_seat_needing_action(stacks, rounds, folded, acted, current, start):
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
    # the walk from ``ring[0]`` without building the ring: inclusive, then exclusive
    assert bt.next_to_act_from(b, ring[0], inclusive=True) == expected
    # exclusive: the start seat itself is never the answer
    after = ring[1:]
    expected_after = None
    if len(bt.in_hand(b)) > 1:
        expected_after = next((s for s in after if bt.needs_action(b, s)), None)
    assert bt.next_to_act_from(b, ring[0]) == expected_after


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


def _options_as_defined(b, seat, *, limit, min_bet, increment, reopen=False):
    """``options`` as first written (min/max and a clamp helper): the fast one must agree."""
    k = str(seat)
    stack = b["stack"][k]
    owed = b["current"] - b["round"][k]
    out = {"check": owed <= 0, "call": min(owed, stack) if owed > 0 else None, "bet": None, "raise": None}
    others = [s for s in bt.in_hand(b) if s != seat and b["stack"][str(s)] > 0]
    if stack <= max(owed, 0) or not others:
        return out

    def clamp(lo, hi):
        return [stack, stack] if stack < lo else [lo, min(max(hi, lo), stack)]

    pot = bt.pot_total(b)
    if b["current"] == 0:
        hi = {bt.NL: stack, bt.PL: pot, bt.FL: min_bet}[limit]
        out["bet"] = clamp(min_bet, hi)
    elif reopen or not b["closed"]:
        lo = owed + increment
        out["raise"] = clamp(lo, {bt.NL: stack, bt.PL: pot + owed, bt.FL: lo}[limit])
    return out


@given(
    stacks=st.lists(st.integers(0, 60), min_size=2, max_size=6),
    rounds=st.lists(st.integers(0, 40), min_size=6, max_size=6),
    folded=st.lists(st.booleans(), min_size=6, max_size=6),
    current=st.integers(0, 45),
    closed=st.booleans(),
    reopen=st.booleans(),
    limit=st.sampled_from(bt.LIMITS),
    min_bet=st.integers(1, 30),
    increment=st.integers(1, 30),
    dead=st.integers(0, 50),
)
def test_options_agree_with_their_definition(
    stacks, rounds, folded, current, closed, reopen, limit, min_bet, increment, dead
):
    order = list(range(1, len(stacks) + 1))
    b = bt.new_betting(order, dict(zip(order, stacks, strict=True)), dead)
    for i, s in enumerate(order):
        b["round"][str(s)] = b["total"][str(s)] = min(rounds[i], current)
        if folded[i]:
            b["folded"].append(s)
    b["current"], b["closed"] = current, closed
    for seat in order:
        kw = {"limit": limit, "min_bet": min_bet, "increment": increment, "reopen": reopen}
        assert bt.options(b, seat, **kw) == _options_as_defined(b, seat, **kw)


@given(seat=st.integers(-(10**6), 10**6))
def test_seat_keys_are_the_seats_strings(seat):
    if seat in bt.SEATS:
        assert bt.SEAT_KEY[seat] == str(seat)
    else:
        assert seat not in bt.SEAT_KEY


def test_every_seat_number_a_hand_may_use_has_its_key():
    # An exact dict (no __missing__ subclass): its lookups take the interpreter's fast path.
    assert type(bt.SEAT_KEY) is dict
    assert list(bt.SEAT_KEY) == list(bt.SEATS) and bt.SEATS[0] == 0 and len(bt.SEATS) >= 10
    assert all(bt.SEAT_KEY[s] == str(s) for s in bt.SEATS)
