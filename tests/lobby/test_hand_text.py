"""A player's hand history as text to download: one hand, or one day's hands, in Italian, one line
per action; only his own hands, and never another seat's covered card."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import options, registry
from games.engine import private_to
from lobby.models import Hand
from lobby.narration import card_text
from lobby.replay import replay_hand
from tests.lobby.test_replay import CARD, played_hand, seen_by
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def italian():
    from django.utils import translation

    with translation.override("it"):
        yield


def download(client, hand: Hand) -> str:
    response = client.get(reverse("lobby:my_hand_text", args=[hand.pk]))
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="mano-{hand.table_id}-{hand.number}.txt"'
    return response.content.decode("utf-8")


def test_a_hand_reads_as_lines_of_italian(client):
    hand, users = played_hand("poker5")
    player = users[0]
    sign_in(client, player)
    text = download(client, hand)
    assert f"Storico della mano di {player.nickname}" in text
    assert f"Mano n. {hand.number} · {hand.table.name} · Poker 5 carte all'italiana" in text
    assert "Tipo: tavolo cash (euro)" in text
    assert f"{player.nickname} (tu), credito € 200,00" in text
    assert "Giocate:" in text and "   1. " in text
    assert "Il tuo risultato: " in text
    payload = client.get(reverse("lobby:my_hand_replay", args=[hand.pk])).json()
    for step in payload["steps"]:  # every line of his replay, in its order
        assert step["lines"][0] in text


def seen_until_each_step(hand: Hand, seat: int) -> list[set[str]]:
    """The cards this seat had been shown after the deal (0) and after each step (its views and
    the events private to it, as ``seen_by`` counts them)."""
    engine = registry.get(hand.game)
    states = replay_hand(hand)
    seen = set(CARD.findall(json.dumps(engine.view(states[0], seat))))
    out = [set(seen)]
    for state, step in zip(states[1:], hand.steps.order_by("seq"), strict=True):
        seen |= set(CARD.findall(json.dumps(engine.view(state, seat))))
        seen |= set(CARD.findall(json.dumps([e for e in step.events if private_to(e, seat)])))
        out.append(set(seen))
    return out


def text_by_step(text: str) -> list[str]:
    """The download's lines before the plays (0), then each step's lines (1, 2, ...)."""
    head, _, plays = text.partition("Giocate:")
    parts = [head]
    for line in plays.splitlines():
        if re.match(r"^ *\d+\. ", line):
            parts.append(line)
        elif parts:
            parts[-1] += "\n" + line
    return parts


@pytest.mark.parametrize(
    "game", ["poker5", "telesina", "bestia", "settemezzo", "scopa", "briscola", "burraco"]
)
def test_another_seats_covered_cards_never_reach_the_download(client, game):
    """Line by line: a card appears only once his seat had been shown it (a card another seat holds
    covered appears only when it is turned up for everyone, if ever)."""
    hand, users = played_hand(game)
    player = users[0]
    mine = next(s["seat"] for s in hand.seats if s["user_id"] == player.pk)
    italian = "stile_mazzo" in options.defaults(game)
    every = set().union(*(seen_by(hand, s["seat"]) for s in hand.seats))
    every_card = {c for c in every if not c.startswith("X")}  # the four jokers all read "jolly"
    sign_in(client, player)
    parts = text_by_step(download(client, hand))
    seen = seen_until_each_step(hand, mine)
    assert len(parts) == len(seen)
    for k, (part, shown) in enumerate(zip(parts, seen, strict=True)):
        named = {code for code in every_card if card_text(code, italian) in part}
        assert named <= shown, (k, named - shown)
    assert any(card_text(code, italian) in "".join(parts) for code in seen[-1] - {"X1", "X2", "X3", "X4"})
    if game in {"poker5", "telesina", "bestia", "burraco"}:  # some card of another seat stays covered
        assert every_card - seen[-1]


def test_only_his_own_hands(client):
    hand, _users = played_hand("scopa")
    sign_in(client, UserFactory())
    assert client.get(reverse("lobby:my_hand_text", args=[hand.pk])).status_code == 404
    client.logout()
    response = client.get(reverse("lobby:my_hand_text", args=[hand.pk]))
    assert response.status_code == 302 and "/account/accedi/" in response["Location"]


def test_a_day_of_hands_in_one_file(client):
    hand, users = played_hand("poker5")
    player = users[0]
    sign_in(client, player)
    today = timezone.localdate(hand.ended_at)
    response = client.get(reverse("lobby:my_day_text"), {"giorno": today.isoformat()})
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="mani-{today.isoformat()}.txt"'
    text = response.content.decode()
    ended = Hand.objects.filter(players__user=player, ended_at__isnull=False).order_by("ended_at", "id")
    assert f"del {today.strftime('%d/%m/%Y')}: {ended.count()} mani" in text
    numbers = [f"Mano n. {h.number} · " for h in ended]
    assert [text.index(n) for n in numbers] == sorted(text.index(n) for n in numbers)  # oldest first
    other_day = (today - timedelta(days=1)).isoformat()
    assert ": 0 mani" in client.get(reverse("lobby:my_day_text"), {"giorno": other_day}).content.decode()


@pytest.mark.parametrize("bad", ["2026-13-01", "oggi", "2026-1-1", "9" * 5000, "２０２６-01-01"])
def test_a_bad_day_is_refused_in_words(client, bad):
    sign_in(client, UserFactory())
    response = client.get(reverse("lobby:my_day_text"), {"giorno": bad})
    assert response.status_code == 400
    assert "Data non valida" in response.content.decode()


def test_the_history_page_links_each_hand_to_its_replay_and_its_text(client):
    hand, users = played_hand("scopa")
    sign_in(client, users[0])
    html = client.get(reverse("lobby:my_hands")).content.decode()
    assert reverse("lobby:my_hand", args=[hand.pk]) in html
    assert reverse("lobby:my_hand_text", args=[hand.pk]) in html
    assert reverse("lobby:my_day_text") in html
