"""The visual replay of a hand: frames per viewer, steps in words.

A player's replay is built from his seat's ``view`` at each step and the events private to him:
fetched over HTTP, it never holds another seat's covered card or the deck. Staff see every seat.
"""

from __future__ import annotations

import json
import re

import pytest

from games import registry
from games.engine import private_to
from games.rng import SeededRng
from lobby import door
from lobby.models import Hand, Seat, TableRuntime
from lobby.narration import card_text
from lobby.replay import VIEW_KEYS_DROPPED, replay_hand
from piattaforma import roles
from tests.lobby.helpers import back_from_sitout, play_hand_randomly, runtime, seat_players
from tests.lobby.test_every_engine import table_for
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def italian():
    """Each test starts in Italian (a request in English leaves its language active in the thread)."""
    from django.utils import translation

    with translation.override("it"):
        yield


CARD = re.compile(r'"([2-9TJQKA][hdcs]|X[1-4])"')


def played_hand(game: str, seed: int = 3, abandon_after: int = 150) -> tuple[Hand, list]:
    """One hand (or match) of ``game`` played to its end with random legal moves."""
    engine = registry.get(game)
    table = table_for(game)
    users = [funded_player() for _ in range(table.seats)]
    seat_players(table, users, buy_in=20_000)
    rng = SeededRng(seed)
    for _ in range(8):
        if engine.family == "partite":
            for user in users:
                door.table_ready(table_id=table.pk, user=user)
        else:
            back_from_sitout(table)
            door.table_start_hand(table_id=table.pk)
        if runtime(table).state is None:
            continue
        play_hand_randomly(table, rng, max_steps=5_000, abandon_after=abandon_after)
        hand = Hand.objects.filter(table=table, ended_at__isnull=False).order_by("-number").first()
        if hand is not None and hand.steps.count() >= 3 and replay_hand(hand)[-1].get("deck_log"):
            return hand, users
    raise AssertionError(f"{game}: no dealt hand of three steps or more")


def end_the_taglia(hand: Hand) -> None:
    """Staff replay a chemin de fer coup once its sabot is over (``selectors.hand_secrets_open``):
    the taglia ends, the next deal reshuffles. Other games: nothing to do."""
    if hand.game == "chemin":
        rt = TableRuntime.objects.get(table=hand.table)
        TableRuntime.objects.filter(pk=rt.pk).update(carry={**rt.carry, "reshuffle": True})


def fetch_all(client, url: str) -> tuple[list[dict], dict]:
    """Every frame of a replay, window after window, and the last payload."""
    frames: list[dict] = []
    start = 0
    while True:
        res = client.get(url, {"start": start, "count": 60})
        assert res.status_code == 200, res.content[:300]
        data = res.json()
        frames += data["frames"]
        start = data["start"] + len(data["frames"])
        if start >= data["total"]:
            return frames, data


def own_view(engine, state, seat):
    view = engine.view(state, seat)
    for key in VIEW_KEYS_DROPPED:
        view.pop(key, None)
    return view


def seen_by(hand: Hand, seat: int) -> set[str]:
    """Every card this seat was shown during the hand: in its views and its events."""
    engine = registry.get(hand.game)
    seen: set[str] = set()
    for state in replay_hand(hand):
        seen |= set(CARD.findall(json.dumps(engine.view(state, seat))))
    for step in hand.steps.all():
        seen |= set(CARD.findall(json.dumps([e for e in step.events if private_to(e, seat)])))
    return seen


@pytest.mark.parametrize(
    "game", ["poker5", "telesina", "scopa", "briscola", "burraco", "scala40", "bestia", "settemezzo"]
)
def test_a_players_replay_holds_only_what_his_seat_saw(client, game):
    hand, users = played_hand(game)
    engine = registry.get(game)
    player = users[0]
    seat = next(s["seat"] for s in hand.seats if s["user_id"] == player.pk)
    sign_in(client, player)
    url = f"/lobby/le-mie-mani/{hand.pk}/replay.json"
    frames, data = fetch_all(client, url)
    states = replay_hand(hand)
    assert len(frames) == len(states) == data["total"] == hand.steps.count() + 1
    for frame, state in zip(frames, states, strict=True):
        assert frame["view"] == own_view(engine, state, seat)
        assert "views" not in frame
    text = json.dumps([frames, data], ensure_ascii=False)
    assert "deck_log" not in text and "draws" not in text
    dealt = {c for deck in states[-1]["deck_log"] for c in deck if isinstance(c, str)}
    seen = seen_by(hand, seat)
    unseen = dealt - seen
    assert set(CARD.findall(text)) <= seen
    words = " ".join(line for step in data["steps"] for line in step["lines"])
    for code in unseen - {"X1", "X2", "X3", "X4"}:  # every jolly reads "jolly"
        assert card_text(code) not in words, (code, words)
    # another seat's action reaches him as its type only
    for step in data["steps"]:
        if step["seat"] != seat:
            assert set(step["action"]) == {"type"}
    # the checks above have teeth: at some moment another seat held cards his frame did not show
    others = [s["seat"] for s in hand.seats if s["seat"] != seat]
    assert any(
        set(CARD.findall(json.dumps(engine.view(state, other)))) - set(CARD.findall(json.dumps(frame)))
        for frame, state in zip(frames, states, strict=True)
        for other in others
    )


@pytest.mark.parametrize(
    "game",
    [
        "poker5",
        "telesina",
        "scopa",
        "asso",
        "cirulla",
        "briscola",
        "tresette",
        "burraco",
        "scala40",
        "bestia",
        "chemin",
        "mazzetti",
        "settemezzo",
    ],
)
def test_staff_replay_shows_every_seat_the_deck_and_the_draws(client, game):
    hand, _ = played_hand(game, seed=5)
    engine = registry.get(game)
    end_the_taglia(hand)
    sign_in(client, UserFactory(role=roles.STAFF))
    frames, data = fetch_all(client, f"/backoffice/lobby/hand/{hand.pk}/replay.json")
    states = replay_hand(hand)
    seats = [s["seat"] for s in hand.seats]
    for frame, state in zip(frames, states, strict=True):
        assert frame["view"] == own_view(engine, state, None)
        assert frame["views"] == {str(n): own_view(engine, state, n) for n in seats}
    assert data["deck_log"] == states[-1]["deck_log"] and data["start_draws"] == hand.start_draws
    steps = list(hand.steps.order_by("seq"))
    assert [s["draws"] for s in data["steps"]] == [s.draws for s in steps]
    assert all(s["lines"] and all(isinstance(x, str) and x for x in s["lines"]) for s in data["steps"])
    assert data["chapters"][0]["index"] == 0


def test_steps_read_as_sentences_for_poker_and_scopa(client):
    hand, _users = played_hand("poker5", seed=7)
    sign_in(client, UserFactory(role=roles.STAFF))
    data = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json").json()
    words = [line for s in data["steps"] for line in s["lines"]]
    names = {s["nickname"] for s in hand.seats}
    assert any(re.fullmatch(r".+ mette l'invito di € \d+,\d\d", w) for w in words), words
    assert any(w.split(" ")[0] in names for w in words)
    assert not any("Posto" in w for w in words)
    hand, _users = played_hand("scopa", seed=7)
    data = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json").json()
    words = [line for s in data["steps"] for line in s["lines"]]
    # a 40-card Italian deck: its cards by name, never a French suit symbol (RULINGS G3)
    card = r"(asso|[2-7]|fante|cavallo|re) di (coppe|denari|bastoni|spade)"
    assert any(re.fullmatch(rf".+ gioca {card}( e prende .+)?( — Scopa!)?", w) for w in words), words
    assert not any(symbol in w for w in words for symbol in "♥♦♣♠"), words
    assert any(w.startswith("Smazzata 1") for w in (c["label"] for c in data["chapters"]))


def test_the_steps_are_english_in_english(client):
    hand, _users = played_hand("poker5", seed=7)
    sign_in(client, UserFactory(role=roles.STAFF))
    data = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json", HTTP_ACCEPT_LANGUAGE="en").json()
    words = [line for s in data["steps"] for line in s["lines"]]
    assert any(" puts in the invito of € " in w for w in words), words


def test_a_player_cannot_open_another_players_hand(client):
    hand, users = played_hand("poker5")
    stranger = funded_player()
    sign_in(client, stranger)
    assert client.get(f"/lobby/le-mie-mani/{hand.pk}/").status_code == 404
    assert client.get(f"/lobby/le-mie-mani/{hand.pk}/replay.json").status_code == 404
    assert client.get(f"/lobby/le-mie-mani/{hand.pk}/replay.json", {"start": "x"}).status_code == 404
    assert client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json").status_code == 302  # not staff: login
    sign_in(client, users[0])
    assert client.get(f"/lobby/le-mie-mani/{hand.pk}/").status_code == 200
    assert client.get(f"/backoffice/lobby/hand/{hand.pk}/replay/").status_code == 302
    client.logout()
    assert client.get(f"/lobby/le-mie-mani/{hand.pk}/replay.json").status_code == 302


def test_a_moderator_cannot_open_the_staff_replay_and_staff_can(client):
    hand, _ = played_hand("poker5")
    sign_in(client, UserFactory(role=roles.MODERATORS))
    assert client.get(f"/backoffice/lobby/hand/{hand.pk}/replay/").status_code == 403
    res = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json")
    assert res.status_code == 403 and "frames" not in res.content.decode()
    sign_in(client, UserFactory(role=roles.STAFF))
    page = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay/")
    assert page.status_code == 200 and 'data-viewer="staff"' in page.content.decode()
    assert client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json").status_code == 200


@pytest.mark.parametrize(
    "params",
    [
        {"start": "abc"},
        {"start": "-1"},
        {"start": "9" * 5000},
        {"start": "\u00b2"},
        {"count": "0"},
        {"count": "201"},
        {"count": "x"},
        {"start": "99999"},
    ],
)
def test_a_bad_window_is_a_clean_error(client, params):
    hand, users = played_hand("poker5")
    sign_in(client, users[0])
    res = client.get(f"/lobby/le-mie-mani/{hand.pk}/replay.json", params)
    assert res.status_code == 400 and res.json()["code"] == "bad_step" and res.json()["message"]
    sign_in(client, UserFactory(role=roles.STAFF))
    res = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json", params)
    assert res.status_code == 400 and res.json()["code"] == "bad_step"


def test_the_replay_page_starts_at_the_step_asked_and_a_junk_one_at_the_deal(client):
    hand, users = played_hand("poker5")
    sign_in(client, users[0])
    assert 'data-step="3"' in client.get(f"/lobby/le-mie-mani/{hand.pk}/", {"step": "3"}).content.decode()
    assert 'data-step="0"' in client.get(f"/lobby/le-mie-mani/{hand.pk}/", {"step": "x²"}).content.decode()


def test_a_hand_seated_players_left_is_still_replayed(client):
    hand, users = played_hand("poker5")
    for seat in Seat.objects.filter(table=hand.table):
        door.table_leave(table_id=hand.table_id, user=seat.user)
    sign_in(client, users[1])
    assert client.get(f"/lobby/le-mie-mani/{hand.pk}/replay.json").status_code == 200


def test_every_line_of_the_replay_has_its_english():
    """Each Italian template the narration and the chapters use is translated in locale/en."""
    import gettext
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    with (root / "locale/en/LC_MESSAGES/django.mo").open("rb") as mo:
        po = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]  # the compiled catalogue
    found = []
    for name in ("lobby/narration.py", "lobby/replay.py"):
        found += re.findall(r'\b(?:_|N_)\(\s*"((?:[^"\\]|\\.)*)"\s*\)', (root / name).read_text())
    assert len(found) > 150
    missing = [m for m in found if not po.get(m.replace('\\"', '"'))]
    assert missing == []


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (
            {"type": "gioca", "seat": 1, "card": "7d", "take": ["3c", "4s"], "scopa": True},
            "Mario gioca 7♦ e prende 3♣ 4♠ — Scopa!",
        ),
        ({"type": "punto", "seat": 2, "amount": 200}, "Giulia punta € 2,00"),
        ({"type": "rilancio", "seat": 1, "amount": 1550, "resto": True}, "Mario rilancia a € 15,50 (resto)"),
        ({"type": "scoperte", "cards": {"1": "Kc", "2": "Td"}}, "Carte scoperte: Mario K♣, Giulia 10♦"),
        (
            {"type": "fine_partita", "winner": 1, "points": [8, 11]},
            "Fine della partita: vince Giulia (8 – 11)",
        ),
        ({"type": "cala", "seat": 2, "cards": ["X1", "5h", "6h"]}, "Giulia cala jolly 5♥ 6♥"),
        ({"type": "mai_visto", "seat": 1}, "Mario: mai visto"),
        ({"type": "mai_visto"}, None),
    ],
)
def test_events_in_words(event, line):
    from lobby.narration import Namer, event_line

    assert event_line(event, Namer({1: "Mario", 2: "Giulia"}, [[1], [2]])) == line


def test_a_private_record_replaces_its_public_twin():
    from lobby.narration import Namer, step_lines

    events = [
        {"type": "pesca", "pos": 0, "seat": 1},
        {"type": "carta_pescata", "pos": 0, "card": "Js", "seat": 1, "to": [1]},
    ]
    namer = Namer({1: "Mario"})
    assert step_lines(seat=1, action={"type": "pesca"}, events=events, namer=namer) == ["Mario pesca J♠"]
    public = [e for e in events if "to" not in e]
    assert step_lines(seat=1, action={"type": "pesca"}, events=public, namer=namer) == [
        "Mario pesca dal tallone"
    ]


def test_an_italian_decks_cards_are_named_not_french_symbols():
    from lobby.narration import Namer, event_line

    namer = Namer({1: "Mario", 2: "Giulia"}, [[1], [2]], italian=True)
    event = {"type": "gioca", "seat": 1, "card": "7d", "take": ["Qc", "As"], "scopa": True}
    said = "Mario gioca 7 di denari e prende cavallo di bastoni, asso di spade — Scopa!"
    assert event_line(event, namer) == said
    assert event_line({"type": "gioca", "seat": 2, "card": "Kh"}, namer) == "Giulia gioca re di coppe"


def test_a_showdown_reads_cards_first_then_who_wins():
    """A step that settles an uncontested pot and shows the winner's hand reads show, then win."""
    from lobby.narration import Namer, step_lines

    events = [
        {"type": "passo", "seat": 1},
        {"type": "piatti", "pots": [{"amount": 600, "winners": [2]}], "uncontested": True},
        {"type": "mostro", "seat": 2, "cards": ["Ah", "Ad", "Kc", "Qs", "9h"], "auto": True},
        {"type": "fine", "chips": {}, "carried": 0},
    ]
    lines = step_lines(
        seat=1, action={"type": "passo"}, events=events, namer=Namer({1: "Mario", 2: "Giulia"})
    )
    assert lines == ["Mario passa", "Giulia mostra A♥ A♦ K♣ Q♠ 9♥", "Giulia vince € 6,00", "Fine della mano"]


def poker_hand_won_uncontested_then_shown() -> Hand:
    """A poker hand where the last seat in wins the pot, is asked MOSTRO / NASCONDO and shows."""
    for seed in range(1, 12):
        hand, _users = played_hand("poker5", seed=seed)
        steps = list(hand.steps.order_by("seq"))
        if steps[-1].action.get("type") == "mostro" and any(
            e.get("type") == "piatti" and e.get("uncontested") for e in steps[-2].events
        ):
            return hand
    raise AssertionError("no poker hand won uncontested and then shown")


def test_the_replay_tells_the_win_with_the_showdown_not_a_step_before(client):
    hand = poker_hand_won_uncontested_then_shown()
    winner = next(s["nickname"] for s in hand.seats if s["seat"] == hand.steps.order_by("-seq").first().seat)
    sign_in(client, UserFactory(role=roles.STAFF))
    data = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json").json()
    *before, showdown = data["steps"]
    assert not any(" vince " in line for s in before for line in s["lines"]), before[-1]
    assert showdown["lines"][0].startswith(f"{winner} mostra "), showdown["lines"]
    assert showdown["lines"][1].startswith(f"{winner} vince € "), showdown["lines"]
    assert showdown["lines"][-1] == "Fine della mano"


def replay_queries(client, url: str, **params) -> tuple[int, dict | None]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        res = client.get(url, params)
    assert res.status_code == 200, res.content[:300]
    return len(queries.captured_queries), res.json() if url.endswith(".json") else None


def test_the_replay_costs_the_same_queries_for_a_short_hand_and_a_long_match(client):
    """The page and each window of frames read the hand and its steps in a fixed number of queries,
    whatever the hand's length; a later window (the hand's words and chapters cached) equals the
    same window built from scratch."""
    from django.core.cache import cache

    short, short_users = played_hand("scopa", abandon_after=4)  # abandoned after four cards
    long, long_users = played_hand("scopa", seed=4)
    assert long.steps.count() > 10 * short.steps.count()
    staff = UserFactory(role=roles.STAFF)
    counts = {}
    for hand, users in ((short, short_users), (long, long_users)):
        cache.clear()
        sign_in(client, staff)
        base = f"/backoffice/lobby/hand/{hand.pk}/replay"
        page, _ = replay_queries(client, f"{base}/")
        first, _ = replay_queries(client, f"{base}.json", start=0, count=100)
        later, cached = replay_queries(client, f"{base}.json", start=3, count=100)
        cache.clear()
        fresh, built = replay_queries(client, f"{base}.json", start=3, count=100)
        assert cached == built
        sign_in(client, users[0])
        client.get("/lobby/le-mie-mani/")  # the site's own reads (site hours) warm, as on any page
        own_page, _ = replay_queries(client, f"/lobby/le-mie-mani/{hand.pk}/")
        own, _ = replay_queries(client, f"/lobby/le-mie-mani/{hand.pk}/replay.json", start=0, count=100)
        counts[hand.pk] = (page, first, later, fresh, own_page, own)
    assert counts[short.pk] == counts[long.pk], counts


@pytest.mark.parametrize("game", ["poker5", "scopa", "burraco"])
def test_a_stretchs_heading_comes_before_its_first_move_not_the_step_that_led_to_it(client, game):
    """The step list heads "Giro 2" before the first move made in it: the step that closed the
    round before (and dealt the next) stays under its own round's heading."""
    from lobby.replay import _chapter

    hand, _users = played_hand(game, seed=7)
    engine = registry.get(game)
    sign_in(client, UserFactory(role=roles.STAFF))
    _frames, data = fetch_all(client, f"/backoffice/lobby/hand/{hand.pk}/replay.json")
    states = replay_hand(hand)
    assert len(data["chapters"]) > 1
    assert data["chapters"][0]["step"] == 0
    for chapter in data["chapters"][1:]:
        step = chapter["step"]
        assert step == chapter["index"] + 1
        # the move numbered ``step`` is made from the state that opens the stretch ...
        assert _chapter(own_view(engine, states[step - 1], None))[1] == chapter["label"]
        # ... and the one before it from a state of the stretch before
        assert _chapter(own_view(engine, states[step - 2], None))[1] != chapter["label"]


def test_each_recorded_action_is_named_in_italian_words(client):
    hand, users = played_hand("poker5", seed=7)
    sign_in(client, UserFactory(role=roles.STAFF))
    data = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json").json()
    words = [s["action_words"] for s in data["steps"]]
    assert all(w and "{" not in w and "_" not in w for w in words), words
    amounts = [s for s in data["steps"] if isinstance(s["action"].get("amount"), int)]
    assert amounts and all(re.search(r"€ \d+,\d\d$", s["action_words"]) for s in amounts), amounts
    # a player reads another seat's action by its button only
    number = next(s["seat"] for s in hand.seats if s["nickname"] == users[0].nickname)
    client.force_login(users[0])
    mine = client.get(f"/lobby/le-mie-mani/{hand.pk}/replay.json").json()
    for step in mine["steps"]:
        if step["seat"] != number:
            assert "€" not in step["action_words"], step
