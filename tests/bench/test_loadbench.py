"""The pure parts of the load benchmark (python -m bench.loadbench): no server, no timing."""

import asyncio
import json
import math
import os
import threading
import time

import pytest

from bench.loadbench import procs
from bench.loadbench.core import (
    Layout,
    choose_action,
    pair_ratios,
    parse_proc_status,
    percentile,
    wants_ready,
)
from games import registry
from games.engine import spec_matches
from games.rng import SeededRng


@pytest.mark.parametrize(
    ("n", "poker", "scopa", "clients"),
    [(100, 16, 26, 100), (500, 83, 125, 499), (1000, 166, 251, 1000), (2000, 333, 500, 1999)],
)
def test_layout_puts_half_the_clients_at_poker_tables_of_three_and_half_at_scopa_tables_of_two(
    n, poker, scopa, clients
):
    layout = Layout.for_clients(n)
    assert (layout.poker_tables, layout.scopa_tables, layout.clients) == (poker, scopa, clients)
    assert layout.poker_players == 3 * poker and layout.scopa_players == 2 * scopa
    assert n - 1 <= layout.clients <= n
    assert f"{layout.poker_tables} Poker 5 carte tables of 3" in layout.describe()


def test_layout_refuses_too_few_clients():
    with pytest.raises(ValueError):
        Layout.for_clients(4)


def test_percentile_is_nearest_rank():
    samples = [float(x) for x in range(100, 0, -1)]  # 100..1, unsorted on purpose
    assert percentile(samples, 50) == 50.0
    assert percentile(samples, 95) == 95.0
    assert percentile(samples, 99) == 99.0
    assert percentile(samples, 100) == 100.0
    assert percentile([7.0], 99) == 7.0
    assert percentile([1.0, 2.0, 3.0], 50) == 2.0
    assert math.isnan(percentile([], 50))
    with pytest.raises(ValueError):
        percentile(samples, 0)


def _payload(seat, to_act, legal):
    return {"type": "table.state", "seat": seat, "to_act": to_act, "legal": legal}


def test_the_bot_plays_only_when_its_seat_must_decide_and_never_abandons():
    rng = SeededRng(1)
    abandon = [{"type": "abbandona", "label": "ABBANDONA", "confirm": True}]
    assert choose_action(_payload(1, [2], abandon), rng) is None  # the other's turn: only "abbandona"
    assert choose_action(_payload(None, [1], abandon), rng) is None  # a spectator's view
    assert choose_action(_payload(1, [1], abandon), rng) is None  # nothing but abandon: never chosen
    legal = [*abandon, {"type": "gioca", "card": "7d", "take": [], "label": "7"}]
    for _ in range(20):
        assert choose_action(_payload(1, [1], legal), rng) == {"type": "gioca", "card": "7d", "take": []}


def test_the_bots_choice_is_a_legal_action_of_a_real_engine_view():
    """Poker 5 carte at the invito (an amount range, SITOUT offered): always a legal non-sitout action."""
    engine = registry.get("poker5")
    rng = SeededRng(7)
    specs = [{"seat": s, "chips": 10_000, "sitout": False, "prefs": {}} for s in (1, 2, 3)]
    config = engine.validate_config({"limit": "PL", "invito": 100, "mode": "cash"})
    state = engine.new(config, specs, rng, None)
    for _ in range(40):
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        action = choose_action(_payload(seat, engine.to_act(state), legal), rng)
        assert action is not None and action["type"] != "sitout"
        assert any(spec_matches(spec, action) for spec in legal)
        engine.apply(state, seat, action, rng)
        if engine.is_over(state):
            break


def test_ready_is_pressed_before_a_match_and_on_the_end_of_match_panel_only():
    seats = [{"nickname": "a", "ready": False}, {"nickname": "b", "ready": True}]
    base = {"type": "table.state", "seats": seats}
    assert wants_ready({**base, "view": None}, "a")
    assert not wants_ready({**base, "view": None}, "b")  # already ready
    assert not wants_ready({**base, "view": None}, "c")  # not seated
    assert wants_ready({**base, "view": {"x": 1}, "over": True}, "a")
    assert not wants_ready({**base, "view": {"x": 1}, "over": False}, "a")  # a match is being played
    assert not wants_ready({"type": "chat", "seats": seats}, "a")


def test_proc_status_parsing():
    text = "Name:\tdaphne\nVmPeak:\t  900000 kB\nVmHWM:\t  123456 kB\nVmRSS:\t  120000 kB\nThreads:\t3\n"
    assert parse_proc_status(text) == {"VmHWM": 123456, "VmRSS": 120000}


def test_a_thinking_bot_drops_its_decision_when_a_newer_view_arrives():
    """``--think-ms``: a decision taken on version 1 is not sent once version 2 is known."""
    from bench.loadbench.client import Bot, Stats

    class Socket:
        def __init__(self) -> None:
            self.sent: list[dict] = []

        async def send(self, raw: str) -> None:
            self.sent.append(json.loads(raw))

    legal = [{"type": "gioca", "card": "7d", "take": [], "label": "7"}]

    async def scenario(newer_to_act: list[int]) -> list[dict]:
        bot = Bot({"game": "scopa", "nickname": "b1"}, "ws://x", "", Stats(), seed=1, think=0.01)
        bot.ws = Socket()
        await bot.on_state({**_payload(1, [1], legal), "version": 1})
        await bot.on_state({**_payload(1, newer_to_act, legal), "version": 2})
        await bot.thinking  # the pending decision's pause ends and it acts or drops
        return bot.ws.sent

    # The other seat moved on: the decision on version 1 is dropped, nothing is sent.
    assert asyncio.run(scenario([2])) == []
    # Still this seat's turn at version 2: one act, on version 2 only.
    sent = asyncio.run(scenario([1]))
    assert [(m["type"], m["version"]) for m in sent] == [("act", 2)]


def test_a_bot_takes_only_a_view_that_shows_its_act_for_the_answer():
    """At the invito every seat decides at once: another seat's step may overtake a bot's act. The
    bot waits for a view that shows its own (no second act on that view, refused as stale)."""
    from bench.loadbench.client import Bot, Stats

    class Socket:
        def __init__(self) -> None:
            self.sent: list[dict] = []

        async def send(self, raw: str) -> None:
            self.sent.append(json.loads(raw))

    legal = [{"type": "invito", "label": "INVITO"}]

    async def scenario() -> tuple[list[dict], Bot]:
        bot = Bot({"game": "poker5", "nickname": "b2"}, "ws://x", "", Stats(), seed=1)
        bot.ws = Socket()
        bot.stats.window = (0.0, float("inf"))
        await bot.on_state({**_payload(2, [1, 2, 3], legal), "version": 4, "hand": 1, "events": []})
        overtaking = [{"type": "invito", "seat": 3}]  # seat 3's invito, applied before seat 2's
        await bot.on_state({**_payload(2, [1, 2], legal), "version": 5, "hand": 1, "events": overtaking})
        assert bot.pending is not None and not bot.stats.samples  # not the answer: still in flight
        await bot.on_state({**_payload(2, [1], []), "version": 6, "hand": 1, "events": [{"seat": 2}]})
        return bot.ws.sent, bot

    sent, bot = asyncio.run(scenario())
    assert [(m["type"], m["version"]) for m in sent] == [("act", 4)]  # one act, never a second on 5
    assert bot.pending is None and len(bot.stats.samples) == 1


def test_an_act_answered_by_the_hands_end_is_counted_apart_too():
    """The acts whose answer is the hand's end (the view waits for the settlement) are kept apart
    as well, so that the report can say how much of the p99 they make."""
    from bench.loadbench.client import Bot, Stats
    from bench.loadbench.core import latency_figures

    class Socket:
        async def send(self, raw: str) -> None:
            pass

    legal = [{"type": "passo", "label": "PASSO"}]

    async def scenario() -> Bot:
        bot = Bot({"game": "poker5", "nickname": "b3"}, "ws://x", "", Stats(), seed=1)
        bot.ws = Socket()
        bot.stats.window = (0.0, float("inf"))
        await bot.on_state({**_payload(1, [1], legal), "version": 7, "hand": 2, "events": []})
        await bot.on_state({**_payload(1, [2], []), "version": 8, "hand": 2, "events": [{"seat": 1}]})
        await bot.on_state({**_payload(1, [1], legal), "version": 9, "hand": 2, "events": []})
        end = {**_payload(1, [], []), "version": 10, "hand": 2, "events": [{"seat": 1}], "over": True}
        await bot.on_state(end)
        return bot

    bot = asyncio.run(scenario())
    assert len(bot.stats.samples) == 2 and bot.stats.ending == bot.stats.samples[1:]

    samples = [float(x) for x in range(1, 201)]  # 1..200 ms: the p99 is 198
    result = {"stuck": 0, "ending": [5.0, 199.0, 200.0]}
    figures = latency_figures(samples, {}, [result])
    assert figures["p99"] == 198.0
    assert figures["ending"] == {"n": 3, "p50": 199.0, "p99": 200.0, "above_p99": 2, "all_above_p99": 2}
    assert math.isnan(latency_figures(samples, {}, [{"stuck": 0}])["ending"]["p50"])  # the floor's, none


def test_pair_ratios_are_product_over_floor_pair_by_pair_leaving_out_a_side_that_did_not_run():
    run = lambda cpu, acts, p99: {"server_ms": cpu, "acts_per_s": acts, "p99": p99}  # noqa: E731
    pairs = [
        (run(2.0, 300.0, 40.0), run(1.6, 400.0, 20.0)),
        (run(1.0, 100.0, 10.0), {"n": 1000, "skipped": "no PostgreSQL"}),
        (run(3.0, 150.0, 30.0), run(2.0, 150.0, 60.0)),
    ]
    expected = {"cpu": [1.25, 1.5], "loop": [], "throughput": [0.75, 1.0], "p99": [2.0, 0.5]}
    assert pair_ratios(pairs) == expected


def test_pair_ratios_give_the_event_loops_share_when_both_sides_measured_it():
    run = lambda cpu, loop: {"server_ms": cpu, "loop_ms": loop, "acts_per_s": 100.0, "p99": 10.0}  # noqa: E731
    ratios = pair_ratios([(run(1.5, 1.2), run(1.0, 1.0)), (run(1.4, 1.1), run(1.0, 0.8))])
    assert ratios["cpu"] == [1.5, 1.4] and ratios["loop"] == [1.2, 1.375]


def test_loop_ticks_count_the_main_thread_alone():
    """A process's CPU burnt in another thread (a Daphne's database threads) is not its loop's."""
    pid = os.getpid()
    loop0, all0 = procs.loop_ticks(pid), procs.cpu_ticks(pid)

    def burn():
        end = time.process_time() + 0.3
        while time.process_time() < end:
            pass

    worker = threading.Thread(target=burn)
    worker.start()
    worker.join()
    assert procs.cpu_ticks(pid) - all0 >= 0.2 * procs.CLK_TCK  # the thread's 0.3 s
    assert procs.loop_ticks(pid) - loop0 <= 0.05 * procs.CLK_TCK  # the main thread only waited
