"""Poker 5 carte benchmark: complete random 6-player hands per second vs pokerkit's 5-card draw.

Both sides play random legal actions from the first decision to settlement, one after the other in
this process. Ours: invito to settlement through ``Engine.sample_action`` (cash table, automatic
invito, pot carried and the parol taken as they come). pokerkit: a ``pokerkit.State`` with a deal
street and a draw street, ``StandardHighHand``, no-limit, blinds 1/2, every non-player step
automated. Also printed: the largest JSON state met during the 6-player hands (target < 8 KB).

The two sides are timed in interleaved rounds (the same hands each round) and each keeps its best
round, so a burst of load on the shared machine does not land on one side only; the median and the
range of the rounds' own ratios are printed too. The JSON size is measured in a separate, untimed
pass over the same hands (after every action), not inside the timed loop.
"""

from __future__ import annotations

import random
import statistics
import time

from games import evaluator
from games.engine import dumps
from games.poker5 import Poker5
from games.rng import SeededRng

PLAYERS = 6


def _ours(hands: int, seed: int = 1, *, probe_every: int = 0) -> tuple[float, int, int]:
    """Play ``hands`` random 6-player hands; return (seconds, actions, largest JSON state in bytes).

    ``probe_every``: measure the JSON state after every action of every n-th hand (0: never, for
    the timed runs).
    """
    engine = Poker5()
    rng = SeededRng(seed)
    cfg = {"limit": "NL", "invito": 20, "rake_percent": 500, "rake_cap": 300, "giro_pazzo": True}
    prefs = {"invito_automatico": True, "mostra_nascondi": "chiedi"}
    chips = dict.fromkeys(range(PLAYERS), 2000)
    carry = None
    actions = 0
    largest = 0
    started = time.perf_counter()
    for i in range(hands):
        if min(chips.values()) < 200:
            chips = dict.fromkeys(range(PLAYERS), 2000)
            carry = None
        seats = [{"seat": s, "chips": c, "sitout": False, "prefs": prefs} for s, c in chips.items()]
        state = engine.new(cfg, seats, rng, carry)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, engine.sample_action(state, seat, rng), rng)
            actions += 1
            if probe_every and i % probe_every == 0:
                largest = max(largest, len(dumps(state).encode()))
        chips = {int(k): v for k, v in engine.outcome(state)["chips"].items()}
        carry = engine.carry(state)
    return time.perf_counter() - started, actions, largest


def _pokerkit(hands: int, seed: int = 1) -> tuple[float, int]:
    """Play ``hands`` random 6-player 5-card draw hands in pokerkit; return (seconds, actions)."""
    from pokerkit import (  # the bench extra (pyproject "bench"), not a dependency of games/
        Automation,
        BettingStructure,
        Deck,
        Opening,
        StandardHighHand,
        State,
        Street,
    )

    random.seed(seed)  # pokerkit shuffles with the module-level random
    pick = random.Random(seed)
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    streets = (
        Street(False, (False,) * 5, 0, False, Opening.POSITION, 2, None),
        Street(False, (), 0, True, Opening.POSITION, 2, None),
    )
    actions = 0
    started = time.perf_counter()
    for _ in range(hands):
        state = State(
            automations,
            Deck.STANDARD,
            (StandardHighHand,),
            streets,
            BettingStructure.NO_LIMIT,
            True,
            0,
            (1, 2),
            0,
            (2000,) * PLAYERS,
            PLAYERS,
        )
        while state.status:
            if state.can_stand_pat_or_discard():
                index = state.stand_patter_or_discarder_index
                assert index is not None
                hole = state.hole_cards[index]
                state.stand_pat_or_discard([c for c in hole if pick.random() < 0.4])
            else:
                choices = ["call"]
                if state.can_fold():
                    choices.append("fold")
                if state.can_complete_bet_or_raise_to():
                    choices.append("raise")
                what = pick.choice(choices)
                if what == "fold":
                    state.fold()
                elif what == "call":
                    state.check_or_call()
                else:
                    lo = state.min_completion_betting_or_raising_to_amount
                    hi = state.max_completion_betting_or_raising_to_amount
                    assert lo is not None and hi is not None
                    state.complete_bet_or_raise_to(pick.randint(lo, hi))
            actions += 1
    return time.perf_counter() - started, actions


def run(quick: bool) -> None:
    """Print hands per second for both engines, their ratio, and the largest 6-player JSON state."""
    hands = 300 if quick else 3000
    kit_hands = max(50, hands // 10)
    rounds = 1 if quick else 7  # a round is under a second: several, so a burst of load does not decide
    started = time.perf_counter()
    evaluator.build_all()  # the tables load once per process; not part of a hand
    print(f"evaluator tables built in {time.perf_counter() - started:.1f} s (excluded from the rates)")
    ours_rates, kit_rates = [], []
    for _ in range(rounds):  # interleaved, best round of each side
        ours_s, ours_actions, _ = _ours(hands)
        kit_s, kit_actions = _pokerkit(kit_hands)
        ours_rates.append(hands / ours_s)
        kit_rates.append(kit_hands / kit_s)
    ours_rate, kit_rate = max(ours_rates), max(kit_rates)
    per_round = sorted(o / k for o, k in zip(ours_rates, kit_rates, strict=True))
    _, _, largest = _ours(hands, probe_every=1 if quick else 5)
    print(f"poker5 (ours): {ours_rate:10.0f} hands/s  ({ours_actions / hands:.1f} actions/hand, 6 players)")
    print(f"pokerkit draw: {kit_rate:10.0f} hands/s  ({kit_actions / kit_hands:.1f} actions/hand, 6 players)")
    print(f"ratio ours/pokerkit: {ours_rate / kit_rate:.2f}x  (target >= 10x; best of {rounds} rounds)")
    print(
        f"  round by round: median {statistics.median(per_round):.2f}x, "
        f"from {per_round[0]:.2f}x to {per_round[-1]:.2f}x"
    )
    print(f"largest 6-player JSON state: {largest} bytes  (target < 8192)")
