"""Play money (the training realm) is never shown as euro: gettoni, in one rule
(``wallet.money.format_play``, the ``money`` template filter, the table client's playMoneyText)."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from lobby.narration import Namer, event_line
from lobby.selectors import stakes_label
from tests.lobby.factories import poker_table
from tests.piattaforma.factories import UserFactory
from wallet.money import format_money, format_play


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (100_000, "1.000 gettoni"),
        (150, "1,50 gettoni"),
        (100, "1 gettone"),
        (50, "0,50 gettoni"),
        (123_456_700, "1.234.567 gettoni"),
        (-500, "-5 gettoni"),
        (0, "0 gettoni"),
    ],
)
def test_play_money_reads_as_gettoni(cents, text):
    assert format_play(cents) == text
    assert format_money(cents, "play") == text


def test_real_money_stays_euro():
    assert format_money(123_450, "real") == "€ 1.234,50"
    with pytest.raises(TypeError):
        format_play(True)


def test_the_money_filter_follows_the_realm():
    template = Template(
        "{% load wallet_money %}{{ c|money:'play' }} | {{ c|money:'real' }} | {{ 'play'|money_unit }}"
    )
    assert template.render(Context({"c": 2_000})) == "20 gettoni | € 20,00 | gettoni"


@pytest.mark.django_db
def test_a_training_table_shows_gettoni_in_the_lobby_and_at_the_table(client):
    training = poker_table(name="Allenamento Test", realm="play")
    poker_table(name="Soldi Veri")
    assert stakes_label(training, "puntate") == "Invito 1 gettone · PL"
    client.force_login(UserFactory())
    assert f'data-table="{training.pk}"' not in client.get("/lobby/").content.decode()  # the money lobby
    lobby = client.get("/lobby/allenamento/").content.decode()
    row = lobby[lobby.index(f'data-table="{training.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "10\u00a0gettoni – 200\u00a0gettoni" in row and "€" not in row, row
    page = client.get(f"/lobby/tavolo/{training.pk}/").content.decode()
    info = page[page.index('class="card table-info"') : page.index('id="table"')]
    assert "10\u00a0gettoni – 200\u00a0gettoni" in info and "€" not in info, info
    assert 'data-realm="play"' in page


def test_the_replay_of_a_training_hand_tells_gettoni():
    namer = Namer({1: "Mario"}, realm="play")
    pots = {"type": "piatti", "pots": [{"amount": 600, "winners": [1]}]}
    assert event_line(pots, namer) == "Mario vince 6 gettoni"
    assert event_line(pots, Namer({1: "Mario"})) == "Mario vince € 6,00"


@pytest.mark.django_db
def test_an_entry_range_breaks_between_its_amounts_never_inside_one(client):
    """ "Entrata € 10,00 – € 200,00" in a narrow cell: the symbol stays with its number (no-break
    spaces inside each amount), the line may wrap only around the dash."""
    table = poker_table(name="Soldi Veri")
    client.force_login(UserFactory())
    lobby = client.get("/lobby/").content.decode()
    row = lobby[lobby.index(f'data-table="{table.pk}"') :]
    assert "€\u00a010,00 – €\u00a0200,00" in row[: row.index("</tr>")]
    page = client.get(f"/lobby/tavolo/{table.pk}/").content.decode()
    assert (
        "€\u00a010,00 – €\u00a0200,00"
        in page[page.index('class="card table-info"') : page.index('id="table"')]
    )
