"""games.betting: limits (P6), the raise-reopening rule, side pots, odd chips (G1) and rake (P12)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import betting as bt


def table(stacks, dead=0):
    """A betting state for seats 1.. in order, with these stacks."""
    order = list(range(1, len(stacks) + 1))
    return bt.new_betting(order, dict(zip(order, stacks, strict=True)), dead)


def test_pot_limit_is_the_rules_example_160():
    # Rules, "Limiti di puntata": 100 in the pot, one bets 20 and one sees 20: up to 100+20+20+20 = 160.
    b = table([1000, 1000, 1000], dead=100)
    bt.act(b, 1, "bet", 20)
    bt.act(b, 2, "call")
    opts = bt.options(b, 3, limit=bt.PL, min_bet=10, increment=10)
    assert opts["call"] == 20
    assert opts["raise"] == [30, 160]


def test_pot_limit_bet_is_the_pot_and_capped_by_the_stack():
    b = table([1000, 50], dead=100)
    assert bt.options(b, 1, limit=bt.PL, min_bet=10, increment=10)["bet"] == [10, 100]
    assert bt.options(b, 2, limit=bt.PL, min_bet=10, increment=10)["bet"] == [10, 50]


def test_no_limit_and_fixed_limit():
    b = table([1000, 1000])
    assert bt.options(b, 1, limit=bt.NL, min_bet=20, increment=20)["bet"] == [20, 1000]
    assert bt.options(b, 1, limit=bt.FL, min_bet=20, increment=20)["bet"] == [20, 20]  # exactly the invito
    bt.act(b, 1, "bet", 20)
    assert bt.options(b, 2, limit=bt.FL, min_bet=20, increment=20)["raise"] == [40, 40]
    assert bt.options(b, 2, limit=bt.NL, min_bet=20, increment=20)["raise"] == [40, 1000]


def test_minimum_raise_exceeds_the_bet_by_the_invito():
    # P6: a raise must exceed the current bet by at least the invito.
    b = table([1000, 1000, 1000])
    bt.act(b, 1, "bet", 50)
    assert bt.options(b, 2, limit=bt.NL, min_bet=10, increment=10)["raise"][0] == 60


def test_small_raise_closes_raising_for_the_round():
    # P6: a raise below double the current bet closes raising: the others may only call or fold.
    b = table([1000, 1000, 1000])
    bt.act(b, 1, "bet", 40)
    bt.act(b, 2, "raise", 60)  # to 60 < 80
    assert b["closed"]
    for seat in (3, 1):
        opts = bt.options(b, seat, limit=bt.NL, min_bet=10, increment=10)
        assert opts["raise"] is None and opts["call"] > 0


def test_raise_to_double_keeps_raising_open():
    b = table([1000, 1000, 1000])
    bt.act(b, 1, "bet", 40)
    bt.act(b, 2, "raise", 80)  # to 80 = 2 × 40
    assert not b["closed"]
    assert bt.options(b, 3, limit=bt.NL, min_bet=10, increment=10)["raise"] == [90, 1000]


def test_short_all_in_raise_is_resto():
    b = table([1000, 55])
    bt.act(b, 1, "bet", 50)
    opts = bt.options(b, 2, limit=bt.NL, min_bet=10, increment=10)
    assert opts["raise"] == [55, 55]  # all-in for less than a full raise (RESTO)
    bt.act(b, 2, "raise", 55)
    assert b["closed"] and bt.is_allin(b, 2)


def test_no_raise_when_nobody_can_answer():
    b = table([1000, 30])
    bt.act(b, 1, "bet", 50)
    bt.act(b, 2, "call")  # all-in for 30
    assert bt.round_complete(b)
    b2 = table([1000, 30])
    bt.post(b2, 2, 30)
    assert bt.options(b2, 1, limit=bt.NL, min_bet=10, increment=10)["bet"] is None


def test_side_pots_from_all_in_levels():
    b = table([50, 100, 300, 300])
    for s in (1, 2, 3, 4):
        bt.post(b, s, 10)
    bt.act(b, 1, "bet", 40)  # all-in, 50 in
    bt.act(b, 2, "raise", 90)  # all-in, 100 in
    bt.act(b, 3, "raise", 290)  # 300 in
    bt.act(b, 4, "fold")
    assert bt.return_uncalled(b) == (3, 200)
    pots = bt.pots(b)
    assert pots == [
        {"amount": 50 * 3 + 10, "eligible": [1, 2, 3]},
        {"amount": 50 * 2, "eligible": [2, 3]},
    ]
    assert sum(p["amount"] for p in pots) == bt.pot_total(b)


def test_dead_money_goes_to_the_main_pot():
    b = table([100, 40], dead=70)
    bt.post(b, 1, 100)
    bt.post(b, 2, 40)
    bt.return_uncalled(b)
    assert bt.pots(b) == [{"amount": 150, "eligible": [1, 2]}]


@pytest.mark.parametrize(
    ("amount", "winners", "expected"),
    [(101, [1, 3], {"1": 51, "3": 50}), (100, [3, 2, 1], {"1": 34, "2": 33, "3": 33}), (7, [2], {"2": 7})],
)
def test_split_gives_odd_chips_from_the_dealers_left(amount, winners, expected):
    # G1: floor share each, the remainder one chip at a time clockwise from the dealer's left.
    assert bt.split(amount, winners, [1, 2, 3]) == expected


def test_split_follows_the_order_not_the_seat_numbers():
    assert bt.split(5, [4, 1], [3, 4, 1, 2]) == {"4": 3, "1": 2}


def test_split_takes_any_seat_number_of_the_banking_games():
    assert bt.split(7, [250, -1], [250, 0, -1]) == {"250": 4, "-1": 3}


def test_rake_rules_example_and_cap():
    # Rules, "Regole specifiche dei tavoli cash": €30 pot, 5 % = €1,50; with a €1 cap the rake is €1.
    assert bt.rake_per_pot([3000], 500, None) == [150]
    assert bt.rake_per_pot([3000], 500, 100) == [100]
    # P12: the cap is per hand, used up by the main pot first.
    assert bt.rake_per_pot([2000, 1000], 500, 120) == [100, 20]
    assert bt.rake_per_pot([999], 500, None) == [49]  # floor


def test_settle_returns_uncalled_before_rake_and_conserves():
    b = table([3000, 1000, 1000])
    for s, a in ((1, 3000), (2, 1000), (3, 1000)):
        bt.post(b, s, a)
    pots = bt.settle(b, lambda eligible: [2], rake_bp=500, rake_cap=100)
    assert pots[0]["amount"] == 3000 and pots[0]["rake"] == 100
    assert b["stack"] == {"1": 2000, "2": 2900, "3": 0}  # 2000 uncalled back to seat 1, unraked


def test_settle_split_pot_with_rake():
    b = table([500, 500, 500])
    for s in (1, 2, 3):
        bt.post(b, s, 101)
    pots = bt.settle(b, lambda eligible: [1, 3], rake_bp=1000, rake_cap=None)
    assert pots[0]["rake"] == 30 and pots[0]["shares"] == {"1": 137, "3": 136}
    assert sum(b["stack"].values()) + 30 == 1500


def test_round_completion_and_acting():
    b = table([100, 100, 100])
    assert not bt.round_complete(b)
    for s in (1, 2, 3):
        bt.act(b, s, "check")
    assert bt.round_complete(b)
    bt.new_round(b)
    bt.act(b, 1, "bet", 20)
    assert bt.needs_action(b, 2) and bt.needs_action(b, 3) and not bt.needs_action(b, 1)
    bt.act(b, 2, "fold")
    bt.act(b, 3, "call")
    assert bt.round_complete(b)
    with pytest.raises(bt.BettingError):
        bt.act(b, 1, "dance")


@given(
    totals=st.lists(st.integers(0, 500), min_size=2, max_size=6),
    allin=st.lists(st.booleans(), min_size=6, max_size=6),
    folded=st.lists(st.booleans(), min_size=6, max_size=6),
    dead=st.integers(0, 300),
    rake_bp=st.integers(0, 1000),
    cap=st.one_of(st.none(), st.integers(0, 200)),
)
def test_pots_and_settlement_conserve_chips(totals, allin, folded, dead, rake_bp, cap):
    n = len(totals)
    b = table([t + (0 if allin[i] else 100) for i, t in enumerate(totals)], dead=dead)
    for i, t in enumerate(totals):
        bt.post(b, i + 1, t)
    for i in range(n):
        if folded[i] and len(bt.in_hand(b)) > 1:
            b["folded"].append(i + 1)
    before = sum(b["stack"].values()) + bt.pot_total(b)
    pots = bt.pots(b)
    assert sum(p["amount"] for p in pots) == bt.pot_total(b)
    for p in pots:
        assert p["eligible"] and all(s not in b["folded"] for s in p["eligible"])
    result = bt.settle(b, lambda eligible: eligible[:2], rake_bp=rake_bp, rake_cap=cap)
    rake = sum(p["rake"] for p in result)
    assert cap is None or rake <= cap
    assert sum(b["stack"].values()) + rake == before
    assert bt.pot_total(b) == 0
