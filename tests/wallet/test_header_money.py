"""The header shows the money of the place the player is at: at a play-money (training) table his
gettoni, labelled as training money, never the conto's euro; elsewhere the conto's available euro.
The conto page shows the gettoni too."""

from __future__ import annotations

import re

import pytest

from tests.lobby.factories import poker_table
from tests.wallet.factories import funded_player
from wallet import actions

pytestmark = pytest.mark.django_db


def header_balance(html: str) -> str:
    found = re.search(r'data-testid="header-balance">(.*?)</span>\s*</a>', html, re.S)
    assert found, html[:2000]
    return re.sub(r"<[^>]+>", "", found.group(1))


@pytest.fixture
def player():
    user = funded_player(12_345)
    actions.play_money_top_up(user=user, amount=100_000, idempotency_key=f"play-{user.pk}")
    return user


def test_a_training_table_shows_the_gettoni_in_the_header(client, player):
    training = poker_table(name="Allenamento Test", realm="play")
    client.force_login(player)
    html = client.get(f"/lobby/tavolo/{training.pk}/").content.decode()
    text = header_balance(html)
    assert "Allenamento" in text and "1.000 gettoni" in text, text
    assert "€" not in text and "123,45" not in text, text
    assert 'data-realm="play"' in html[: html.index("</header>")]


def test_a_cash_table_and_the_other_pages_show_the_euro(client, player):
    cash = poker_table(name="Soldi veri")
    client.force_login(player)
    for url in (f"/lobby/tavolo/{cash.pk}/", "/lobby/", "/conto/"):
        text = header_balance(client.get(url).content.decode())
        assert "€ 123,45" in text and "gettoni" not in text, (url, text)


def test_the_conto_shows_the_gettoni(client, player):
    client.force_login(player)
    html = client.get("/conto/").content.decode()
    found = re.search(r'data-testid="play-balance">([^<]*)<', html)
    assert found and found.group(1) == "1.000 gettoni", html
    assert "Gettoni di allenamento" in html
