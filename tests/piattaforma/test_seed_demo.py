"""The demo data of `make run`: accounts, money and tables, loaded twice without duplicates."""

import io

import pytest
from django.core.management import call_command
from django.utils import timezone

from lobby.models import Table
from piattaforma.models import User
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent_and_prints_credentials():
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=io.StringIO())
    text = out.getvalue()
    assert "Tavolo-Verde-2026" in text and "moderatore" in text and "staff" in text
    mario = User.objects.get(nickname="mario")
    assert mario.check_password("Tavolo-Verde-2026") and mario.has_role("players")
    assert User.objects.get(nickname="staff").is_staff and User.objects.get(nickname="moderatore").is_staff
    assert wallet_selectors.balance_get(user=mario)["cash"] == 50_000  # once, not twice
    assert wallet_selectors.balance_get(user=mario)["play"] == 100_000
    assert Table.objects.filter(game="poker5").count() == 2
    assert Table.objects.filter(game="scopa").count() == 2  # Napoli, and the training one
    from games import registry

    training = Table.objects.filter(realm="play", is_open=True)
    assert set(training.values_list("game", flat=True)) == set(registry.names())  # every game
    assert not training.filter(rake_bp__gt=0).exists()
    from lobby.models import Seat

    bots = Seat.objects.filter(user__is_bot=True)
    assert bots.filter(table__realm="real").count() == 4 and bots.filter(table__name="Roma").count() == 2
    assert not User.objects.get(nickname="bot.scopa").has_usable_password()


def test_seed_demo_again_after_bots_stood_up_or_lost_their_seat():
    """A second `make run` after play: a bot that stood up sits again (a new buy-in, refilled when
    broke); a bot whose seat a person took stays out; nothing raises."""
    from lobby import actions as lobby_actions
    from lobby.models import Seat
    from wallet import actions as wallet_actions

    call_command("seed_demo", stdout=io.StringIO())
    scopa = User.objects.get(nickname="bot.scopa")
    napoli = Table.objects.get(name="Napoli")
    lobby_actions.table_leave(table_id=napoli.pk, user=scopa)
    assert not Seat.objects.filter(user=scopa).exists()
    # the bot's conto emptied, so the next seed must refill it to buy in
    cash = wallet_selectors.balance_get(user=scopa)["available"]
    scopa.identity_verified_at = timezone.now()  # a withdrawal needs a verified identity
    scopa.save(update_fields=["identity_verified_at"])
    wallet_actions.withdrawal_request(user=scopa, amount=cash, idempotency_key="empty-bot")
    assert wallet_selectors.balance_get(user=scopa)["available"] == 0
    # a person took the Bari bot's seat after it stood up
    briscola = User.objects.get(nickname="bot.briscola")
    bari = Table.objects.get(name="Bari")
    seat_no = Seat.objects.get(user=briscola).number
    lobby_actions.table_leave(table_id=bari.pk, user=briscola)
    mario = User.objects.get(nickname="mario")
    lobby_actions.table_sit(
        table_id=bari.pk, user=mario, seat_no=seat_no, buy_in=bari.min_buy_in, idempotency_key="mario-bari"
    )

    call_command("seed_demo", stdout=io.StringIO())

    assert Seat.objects.get(user=scopa).table_id == napoli.pk
    assert not Seat.objects.filter(user=briscola).exists()
    assert Seat.objects.get(table=bari, number=seat_no).user_id == mario.pk


def test_the_training_table_has_bots_holding_play_money_only():
    from lobby.models import Seat

    call_command("seed_demo", stdout=io.StringIO())
    training = Table.objects.get(name="Allenamento Milano")
    assert training.realm == "play"
    seats = Seat.objects.filter(table=training, user__is_bot=True).select_related("user")
    assert seats.count() == 2
    for seat in seats:
        money = wallet_selectors.balance_get(user=seat.user)
        assert money["cash"] == 0 and money["bonus"] == 0 and money["play"] > 0
        assert not Seat.objects.filter(user=seat.user).exclude(table=training).exists()


def test_a_training_bot_that_stood_up_broke_sits_again_on_play_money():
    from lobby import actions as lobby_actions
    from lobby.models import Seat
    from wallet.models import Account, AccountKind, Realm

    call_command("seed_demo", stdout=io.StringIO())
    bot = User.objects.get(nickname="bot.pratica")
    training = Table.objects.get(name="Allenamento Milano")
    lobby_actions.table_leave(table_id=training.pk, user=bot)
    # the bot lost its play money: move it back to the play bank (ledger-neutral, test set-up)
    play = Account.objects.get(owner=bot, kind=AccountKind.PLAYER_CASH, realm=Realm.PLAY)
    bank = Account.objects.get(kind=AccountKind.PLAY_BANK, realm=Realm.PLAY)
    from wallet import actions as wallet_actions

    wallet_actions.ledger_transfer(
        source_id=play.pk, destination_id=bank.pk, amount=play.balance, idempotency_key="broke"
    )
    assert wallet_selectors.balance_get(user=bot)["play"] == 0

    call_command("seed_demo", stdout=io.StringIO())

    assert Seat.objects.get(user=bot).table_id == training.pk
    assert wallet_selectors.balance_get(user=bot)["cash"] == 0


def test_the_demo_tables_and_tournaments_take_their_games_tempo_giocata():
    from games import registry
    from tournaments.models import Tournament

    call_command("seed_demo", stdout=io.StringIO())
    for table in Table.objects.filter(tournament_id__isnull=True):
        assert table.tempo_giocata == registry.get(table.game).default_tempo_giocata, table
    assert Table.objects.get(game="burraco", realm="real").tempo_giocata == 90
    for tournament in Tournament.objects.exclude(game="slot"):  # the slot is no table game: no giocata
        assert tournament.tempo_giocata == registry.get(tournament.game).default_tempo_giocata, tournament
    assert Tournament.objects.filter(game="slot").exists()


def test_every_training_table_is_playable_by_one_person():
    """Each demo training table has a bot holding play money only, so the first person who sits
    down is dealt a hand (poker's table has two bots and plays on its own)."""
    from games import registry
    from lobby import door
    from lobby.models import Hand, Seat

    call_command("seed_demo", stdout=io.StringIO())
    mario = User.objects.get(nickname="mario")
    training = Table.objects.filter(realm="play", is_open=True, tournament_id__isnull=True)
    assert training.count() > 2
    for table in training.exclude(name="Allenamento Milano"):
        bots = Seat.objects.filter(table=table, user__is_bot=True).select_related("user")
        assert bots.count() == 1, table
        money = wallet_selectors.balance_get(user=bots[0].user)
        assert money["cash"] == 0 and money["bonus"] == 0, table
        taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
        free = min(set(range(1, table.seats + 1)) - taken)
        door.table_sit(
            table_id=table.pk, user=mario, seat_no=free, buy_in=table.min_buy_in, idempotency_key=table.name
        )
        if table.game in registry.names() and registry.get(table.game).family == "partite":
            door.table_ready(table_id=table.pk, user=mario)  # "Sono pronto per iniziare"; bots always are
        else:
            door.table_start_hand(table_id=table.pk)
        assert Hand.objects.filter(table=table).exists(), table
