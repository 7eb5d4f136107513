"""Collusion and dumping signals on constructed hand histories, fed through the hand-settled hook."""

import io
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from moderation import collusion, dumping, selectors
from moderation.errors import ModerationError
from moderation.models import PairSignal, PlayerSignal, SignalHand, SignalInbox
from piattaforma import hooks
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db

START = timezone.now() - timedelta(days=10)
_ids = iter(range(1, 10**6))


def settle(seats, *, table=1, realm="real", hand_id=None, fold=True):
    """Report one settled hand through the core hook: ``seats`` is [(user, delta, end), ...].

    The hook queues it; ``fold``: fold the queue in at once, as the beat's task does.
    """
    hid = hand_id or next(_ids)
    hooks.hand_settled(
        {
            "table_id": table,
            "game": "poker5",
            "hand_id": hid,
            "ended_at": START + timedelta(minutes=hid),
            "realm": realm,
            "seats": [{"user_id": u.pk, "delta": d, "end": e} for u, d, e in seats],
        }
    )
    if fold:
        dumping.signals_fold()
    return hid


def pair_of(x, y):
    a, b = collusion.pair_key(x.pk, y.pk)
    return PairSignal.objects.get(a_id=a, b_id=b)


def test_flows_share_a_loss_among_winners_in_proportion():
    assert collusion.flows({1: -300, 2: 200, 3: 100}) == {(1, 2): 200, (1, 3): 100}
    assert collusion.flows({1: -100, 2: -50, 3: 150}) == {(1, 3): 100, (2, 3): 50}
    assert collusion.flows({1: 0, 2: 0}) == {}


@pytest.fixture
def history():
    """A dumping pair, an honest pair of regulars, and a weak player who loses to everybody."""
    rng = random.Random(21)
    dumper, receiver = UserFactory(nickname="dumper"), UserFactory(nickname="receiver")
    honest1, honest2 = UserFactory(nickname="onesto1"), UserFactory(nickname="onesto2")
    weak, others = UserFactory(nickname="debole"), [UserFactory() for _ in range(6)]
    # honest regulars: 200 heads-up hands, money both ways (±€1-20), now and then a sit out
    for i in range(200):
        amount = rng.randint(100, 2000)
        sign = 1 if rng.random() < 0.5 else -1
        end1 = "sitout" if i % 37 == 0 else "normal"
        settle([(honest1, sign * amount, end1), (honest2, -sign * amount, "normal")], table=2)
    # the dumper plays normally with others, so his "usual play" is small swings...
    for i in range(60):
        amount = rng.randint(50, 300)
        sign = 1 if rng.random() < 0.5 else -1
        settle([(dumper, sign * amount, "normal"), (others[i % 6], -sign * amount, "normal")], table=3)
    # ...then loses big to the same account, abandoning some matches
    for i in range(12):
        settle([(dumper, -5000, "abandon" if i % 3 == 0 else "normal"), (receiver, 5000, "normal")], table=4)
    # the weak player loses steadily to many different opponents
    for i in range(120):
        amount = rng.randint(100, 600)
        settle([(weak, -amount, "normal"), (others[i % 6], amount, "normal")], table=5)
    return {"dumper": dumper, "receiver": receiver, "honest": (honest1, honest2), "weak": weak}


def test_dumping_pair_ranks_first_and_honest_pair_is_not_flagged(history):
    board = selectors.signals_dashboard()
    top = board["pairs"][0]
    assert {top["a_nick"], top["b_nick"]} == {"dumper", "receiver"}
    assert (top["from_nick"], top["to_nick"], top["net"], top["one_way"]) == (
        "dumper",
        "receiver",
        60000,
        100,
    )
    assert top["forfeits"] == 4 and top["flagged"]
    assert top["outliers"] >= 1  # €50 losses are far from his usual ±€0.5-3
    honest = pair_of(*history["honest"])
    assert honest.hands == 200 and honest.score < collusion.FLAG_SCORE
    # the weak player loses ~€70 one way to each regular, but as he always plays: not flagged
    flagged = [p for p in board["pairs"] if p["flagged"]]
    assert [(p["from_nick"], p["to_nick"]) for p in flagged] == [("dumper", "receiver")]
    assert any(p["from_nick"] == "debole" and p["one_way"] == 100 for p in board["pairs"])
    assert board["players"][0]["nickname"] == "dumper"


def test_player_aggregates_count_abandons_timeouts_sitouts():
    p, q = UserFactory(), UserFactory()
    settle([(p, -100, "abandon"), (q, 100, "normal")])
    settle([(p, -100, "timeout"), (q, 100, "normal")])
    settle([(p, 0, "sitout"), (q, 0, "normal")])
    row = PlayerSignal.objects.get(user=p)
    assert (row.hands, row.abandons, row.timeouts, row.sitouts, row.net) == (3, 1, 1, 1, -200)
    pair = pair_of(p, q)
    forfeits = pair.forfeits_a if pair.a_id == p.pk else pair.forfeits_b
    assert (pair.hands, forfeits, pair.a_to_b + pair.b_to_a) == (3, 2, 200)


def test_ingestion_is_idempotent_and_ignores_training_tables():
    p, q = UserFactory(), UserFactory()
    hid = settle([(p, -100, "normal"), (q, 100, "normal")])
    settle([(p, -100, "normal"), (q, 100, "normal")], hand_id=hid)
    settle([(p, -100, "normal"), (q, 100, "normal")], realm="play")
    assert SignalHand.objects.count() == 1
    assert PlayerSignal.objects.get(user=p).hands == 1


def test_drill_down_lists_the_hands_both_played():
    p, q, r = UserFactory(), UserFactory(), UserFactory()
    h1 = settle([(p, -100, "normal"), (q, 100, "normal")])
    settle([(p, -100, "normal"), (r, 100, "normal")])
    h3 = settle([(p, -300, "timeout"), (q, 200, "normal"), (r, 100, "normal")])
    hands = selectors.signal_hands(user_id=p.pk, other_id=q.pk)
    assert [h["hand_id"] for h in hands] == [h3, h1]
    assert {s["nickname"]: (s["delta"], s["end"]) for s in hands[0]["seats"]}[p.nickname] == (-300, "timeout")


def _summary(**over):
    p = UserFactory()
    base = {
        "table_id": 1,
        "game": "poker5",
        "hand_id": 77,
        "ended_at": START,
        "seats": [{"user_id": p.pk, "delta": 0, "end": "normal"}],
    }
    return {**base, **over}


@pytest.mark.parametrize(
    "over",
    [
        {"hand_id": "77"},
        {"hand_id": -1},
        {"table_id": None},
        {"game": ""},
        {"ended_at": "ieri"},
        {"ended_at": START.replace(tzinfo=None)},
        {"seats": []},
        {"seats": "tutti"},
        {"seats": [{"user_id": 1, "delta": 1.5, "end": "normal"}]},
        {"seats": [{"user_id": 1, "delta": 1, "end": "nap"}]},
        {"seats": [{"user_id": 10**9, "delta": 0, "end": "normal"}]},
        {"realm": "fantasia"},
        {
            "seats": [
                {"user_id": 1, "delta": 1, "end": "normal"},
                {"user_id": 1, "delta": -1, "end": "normal"},
            ]
        },
    ],
)
def test_bad_summaries_are_refused_and_change_nothing(over):
    with pytest.raises(ModerationError) as info:
        dumping.hand_settled_record(summary=_summary(**over))
    assert info.value.code == "bad_hand_summary"
    assert not SignalHand.objects.exists() and not PlayerSignal.objects.exists()
    dumping.on_hand_settled(_summary(**over))  # the hook's handler logs it, never breaks a settlement
    dumping.signals_fold()  # one naming a player who does not exist was queued: the fold drops it
    assert not SignalHand.objects.exists() and not PlayerSignal.objects.exists()
    assert not SignalInbox.objects.exists()
    with pytest.raises(ModerationError):
        dumping.hand_settled_record(summary=["not", "a", "dict"])


def test_a_real_match_abandoned_at_a_cash_table_reaches_the_signals():
    """The lobby's settlement calls the hook once per hand, with each seat's money and how it ended."""
    from lobby import actions as lobby_actions
    from lobby.models import Hand
    from tests.lobby.factories import scopa_table
    from tests.lobby.helpers import seat_players
    from tests.wallet.factories import funded_player

    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seat_players(table, users, buy_in=5_000)
    lobby_actions.table_ready(table_id=table.pk, user=users[0])
    lobby_actions.table_ready(table_id=table.pk, user=users[1])
    lobby_actions.table_leave(table_id=table.pk, user=users[0])
    hand = Hand.objects.get(table=table, number=1)
    queued = SignalInbox.objects.get()  # written by the settlement, in its transaction
    assert queued.hand_id == hand.pk and not SignalHand.objects.exists()
    assert dumping.signals_fold() == 1 and not SignalInbox.objects.exists()  # the beat's task
    seen = SignalHand.objects.get(hand_id=hand.pk)
    assert (seen.table_id, seen.game) == (table.pk, "scopa")
    seats = {s.user_id: (s.delta, s.end) for s in seen.seats.all()}
    assert seats[users[0].pk][1] == "abandon" and seats[users[0].pk][0] < 0
    assert seats[users[1].pk] == (seats[users[1].pk][0], "normal") and seats[users[1].pk][0] > 0
    pair = pair_of(*users)
    assert pair.hands == 1 and (pair.forfeits_a if pair.a_id == users[0].pk else pair.forfeits_b) == 1


def _aggregates():
    return (
        sorted(
            PlayerSignal.objects.values_list("user_id", "hands", "abandons", "timeouts", "sitouts", "net")
        ),
        sorted(
            PairSignal.objects.values_list(
                "a_id", "b_id", "hands", "a_to_b", "b_to_a", "forfeits_a", "forfeits_b"
            )
        ),
        sorted(SignalHand.objects.values_list("hand_id", "table_id", "game")),
    )


def test_backfill_rebuilds_the_same_aggregates_from_the_hand_history():
    from django.core.management import call_command

    from games.rng import SeededRng
    from lobby import actions as lobby_actions
    from lobby.models import TableRuntime
    from tests.lobby.factories import poker_table
    from tests.lobby.helpers import play_hand_randomly, seat_players
    from tests.wallet.factories import funded_player

    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seat_players(table, users)
    rng = SeededRng(21)
    played = 0
    for i in range(7):
        for user in users:  # a random SITOUT at the invito sits the player out: he comes back
            lobby_actions.table_sitout(table_id=table.pk, user=user, sitout=False)
        TableRuntime.objects.filter(pk=table.pk).update(start_at=None)  # no waiting between hands
        if not lobby_actions.table_start_hand(table_id=table.pk):
            break
        play_hand_randomly(table, rng, skip_user=users[2] if i == 6 else None)  # the last: a time-out
        played += 1
    assert played == 7
    assert dumping.signals_fold() == played
    live = _aggregates()
    assert len(live[2]) == played and any(row[3] or row[4] for row in live[0])  # timeouts or sit-outs seen
    out = io.StringIO()
    call_command("signals_backfill", "--reset", stdout=out)
    assert _aggregates() == live and f"mani aggiunte: {played}," in out.getvalue()
    call_command("signals_backfill", stdout=out)  # again: nothing added
    assert _aggregates() == live and "mani aggiunte: 0," in out.getvalue()


def test_a_settlement_queues_its_hand_in_one_statement_and_a_fold_costs_the_same_for_1_or_50():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    players = [UserFactory() for _ in range(6)]
    settle([(p, 0, "normal") for p in players])  # rows exist: the steady state
    hook = []
    for seats in (2, 6):
        with CaptureQueriesContext(connection) as ctx:
            hand = [(p, (-500 if i == 0 else 100), "normal") for i, p in enumerate(players[:seats])]
            settle(hand, fold=False)
        hook.append([q["sql"] for q in ctx.captured_queries])
    assert [len(q) for q in hook] == [1, 1] and all("signal" in q[0].lower() for q in hook), hook
    folds = []
    for hands in (1, 50):
        for i in range(hands):
            settle([(players[i % 6], -100, "normal"), (players[(i + 1) % 6], 100, "normal")], fold=False)
        with CaptureQueriesContext(connection) as ctx:
            assert dumping.signals_fold() == hands + 2 * (hands == 1)  # the first fold takes the two above
        folds.append(len(ctx.captured_queries))
    assert folds[0] == folds[1] <= 14, folds
    assert PlayerSignal.objects.get(user=players[0]).hands == 1 + 2 + 1 + 17  # in 17 of the 50
    assert SignalHand.objects.count() == 1 + 2 + 1 + 50


def test_a_fold_counts_hands_in_order_and_skips_the_ones_seen_or_malformed():
    p, q = UserFactory(), UserFactory()
    first = settle([(p, -100, "normal"), (q, 100, "normal")])
    settle([(p, -100, "normal"), (q, 100, "normal")], hand_id=first, fold=False)  # seen already
    settle([(p, -300, "abandon"), (q, 300, "normal")], fold=False)
    SignalInbox.objects.create(hand_id=10**9, summary={"hand_id": 10**9, "seats": "?"})  # malformed
    gone = UserFactory()
    settle([(p, 50, "normal"), (gone, -50, "normal")], fold=False)
    gone.delete()  # a player who no longer exists: that hand is dropped, the others count
    assert dumping.signals_fold() == 4
    assert not SignalInbox.objects.exists()
    row = PlayerSignal.objects.get(user=p)
    assert (row.hands, row.net, row.abandons) == (2, -400, 1)
    pair = pair_of(p, q)
    assert pair.hands == 2 and (pair.forfeits_a if pair.a_id == p.pk else pair.forfeits_b) == 1


def test_dashboard_queries_do_not_grow_with_the_history(client, django_assert_max_num_queries):
    from django.urls import reverse

    from piattaforma import roles, siteops

    players = [UserFactory() for _ in range(12)]
    for i in range(60):
        settle([(players[i % 12], -100, "normal"), (players[(i * 5 + 1) % 12], 100, "normal")])
    sign_in(client, UserFactory(role=roles.STAFF))
    siteops.site_hours()  # every page reads the site's hours once per process per 10 s: warm, as in use
    client.get("/")  # the staff session's activity is written at most every 10 s: warm, as in use
    with django_assert_max_num_queries(9):  # 8, and the session's second factor (its device)
        assert client.get(reverse("moderation:signals")).status_code == 200


def test_chance_abandons_between_honest_regulars_are_not_enough():
    balanced = collusion.Pair(hands=50, a_to_b=30_000, b_to_a=27_000, forfeits_a=3)
    one_way = collusion.Pair(hands=50, a_to_b=30_000, b_to_a=0, forfeits_a=3)
    assert collusion.pair_score(balanced) < collusion.FLAG_SCORE <= collusion.pair_score(one_way)
    assert collusion.pair_score(collusion.Pair(hands=0, a_to_b=0, b_to_a=0)) == 0
