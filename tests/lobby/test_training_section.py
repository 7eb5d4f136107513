"""The training section's lobby: its own page with the training tables and tournaments, the
player's gettoni and their refill; the money lobby shows money tables only."""

from __future__ import annotations

import pytest

from lobby import door
from lobby.models import Table
from piattaforma import roles
from tests.lobby.factories import poker_table
from tests.piattaforma.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_each_lobby_shows_its_own_tables_and_the_json_follows(client):
    from tests.piattaforma.factories import UserFactory

    training = poker_table(name="Allenamento Uno", realm="play")
    money = poker_table(name="Soldi Veri")
    client.force_login(UserFactory())
    page = client.get("/lobby/").content.decode()
    assert f'data-table="{money.pk}"' in page and f'data-table="{training.pk}"' not in page
    assert 'data-testid="to-training"' in page
    page = client.get("/lobby/allenamento/").content.decode()
    assert f'data-table="{training.pk}"' in page and f'data-table="{money.pk}"' not in page
    assert "tavoli.json?sezione=allenamento" in page
    assert [t["id"] for t in client.get("/lobby/tavoli.json").json()["tables"]] == [money.pk]
    assert [t["id"] for t in client.get("/lobby/tavoli.json?sezione=allenamento").json()["tables"]] == [
        training.pk
    ]


def test_the_training_lobby_lists_training_tournaments_only(client):
    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory
    from tests.tournaments.factories import make_tournament

    staff = UserFactory(role=roles.STAFF)
    free = make_tournament(staff, name="Scopa di prova", training=True)
    paid = make_tournament(staff, name="Scopa a soldi")
    page = client.get("/lobby/allenamento/").content.decode()
    assert f'href="/tornei/{free.pk}/">Scopa di prova</a>' in page
    assert paid.name not in page
    assert "Registrati e ricevi 1.000 gettoni" in page  # signed out: the way in


def test_signing_up_gives_the_gettoni_and_the_refill_works_from_the_page(client):
    from piattaforma.models import User
    from tests.piattaforma.test_accounts import signup_data
    from wallet import actions

    response = client.post("/account/registrati/", signup_data(nickname="nuovo_giocatore"), follow=True)
    user = User.objects.filter(nickname="nuovo_giocatore").first()
    assert user is not None, response.content.decode()[:3000]
    assert actions.play_gettoni(user=user) == actions.PLAY_GRANT
    assert "1.000 gettoni gratis" in response.content.decode()
    page = client.get("/lobby/allenamento/").content.decode()
    assert 'data-testid="gettoni">1.000 gettoni' in page and 'data-testid="refill"' not in page
    # refused while he has the grant: a message, nothing moved
    page = client.post("/lobby/allenamento/ricarica/", follow=True).content.decode()
    assert "Hai ancora almeno 1.000 gettoni" in page
    assert actions.play_gettoni(user=user) == actions.PLAY_GRANT


def test_the_refill_needs_a_signed_in_player_and_a_post(client):
    assert client.get("/lobby/allenamento/ricarica/").status_code in (302, 405)
    response = client.post("/lobby/allenamento/ricarica/")
    assert response.status_code == 302 and "/account/accedi/" in response["Location"]


@pytest.mark.parametrize("rake", [{"rake_bp": 500}, {"rake_bp": 0, "rake_cap": 100}])
def test_a_training_table_takes_no_rake(rake):
    """Gettoni have no house share (the play realm has no rake account): a training table with a
    rake would fail at its first settlement, so it is refused when it is set up."""
    from lobby.errors import RakeAtTrainingTable

    with pytest.raises(RakeAtTrainingTable) as refused:
        poker_table(name="Allenamento Rake", realm="play", **rake)
    assert refused.value.code == "rake_at_training_table" and "allenamento" in refused.value.message
    assert not Table.objects.filter(name="Allenamento Rake").exists()
    money = poker_table(name="Roma Rake", rake_bp=500)
    with pytest.raises(RakeAtTrainingTable):
        door.table_update(table_id=money.pk, actor=UserFactory(role=roles.STAFF), realm="play")
    money.refresh_from_db()
    assert money.realm == "real"
