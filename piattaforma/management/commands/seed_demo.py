"""Load the demo accounts of ``make run`` (idempotent) and print their credentials."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from piattaforma import actions, roles
from piattaforma.models import User

DEMO_PASSWORD = "Tavolo-Verde-2026"  # noqa: S105  (demo accounts of the embedded default only)
DEMO_USERS = (
    ("mario", "mario@demo.invalid", roles.PLAYERS),
    ("giulia", "giulia@demo.invalid", roles.PLAYERS),
    ("luca", "luca@demo.invalid", roles.PLAYERS),
    ("anna", "anna@demo.invalid", roles.PLAYERS),
    ("moderatore", "moderatore@demo.invalid", roles.MODERATORS),
    ("staff", "staff@demo.invalid", roles.STAFF),
)
DEMO_BIRTH = date(1990, 5, 17)
# Invented people (born in Roma on DEMO_BIRTH) whose codici fiscali are computed by the library,
# so every demo account has a valid, consistent one; the demo players' identity is verified.
DEMO_IDENTITIES = {
    "mario": ("Mario", "Rossi", "M"),
    "giulia": ("Giulia", "Bianchi", "F"),
    "luca": ("Luca", "Esposito", "M"),
    "anna": ("Anna", "Romano", "F"),
    "moderatore": ("Marco", "Ferrari", "M"),
    "staff": ("Sara", "Colombo", "F"),
}


def demo_identity(nickname: str) -> dict[str, Any]:
    """The demo account's identity fields, with its codice fiscale."""
    from piattaforma.identity import codice_fiscale_base, codice_fiscale_for

    first, last, sex = DEMO_IDENTITIES[nickname]
    code = codice_fiscale_for(
        first_name=first, last_name=last, date_of_birth=DEMO_BIRTH, sex=sex, birthplace="Roma"
    )
    return {
        "first_name": first,
        "last_name": last,
        "sex": sex,
        "codice_fiscale": code,
        "codice_fiscale_base": codice_fiscale_base(code),
    }


DEMO_DEPOSIT = 50_000  # € 500,00 of sandbox money for each demo player
DEMO_PLAY_MONEY = 100_000
PARTITE = (
    ("asso", "Asso piglia tutto"), ("cirulla", "Cirulla"), ("tresette", "Tresette"), ("burraco", "Burraco"),
    ("scala40", "Scala 40"),
)  # fmt: skip
PUNTATE = (
    ("telesina", "Telesina", 5), ("bestia", "Bestia", 5), ("chemin", "Chemin de fer", 6),
    ("mazzetti", "Mazzetti", 6), ("settemezzo", "Sette e mezzo", 6),
)  # fmt: skip


def _partite(game: str, title: str) -> dict[str, Any]:
    """A demo template of a gioco a partite: 1 contro 1, € 1,00 a partita (RULINGS C1)."""
    return {
        "name": f"{title} · 1 contro 1 · € 1,00",
        "table_name": title,
        "game": game,
        "seats": 2,
        "min_buy_in": 2_000,
        "max_buy_in": 20_000,
        "rake_bp": 500,
        "posta_partita": 100,
        "posta_unitaria": 10,
        "perdita_massima": 2_000,
        "tempo_partita": 900,
    }


def _puntate(game: str, title: str, seats: int) -> dict[str, Any]:
    """A demo template of a gioco a puntate: € 10–200 at the table, 5 % rake capped at € 3 where the
    game caps it (the banking games take theirs uncapped: see the seeding below)."""
    return {
        "name": f"{title} · {seats} posti · € 10–200",
        "table_name": title,
        "game": game,
        "seats": seats,
        "min_buy_in": 1_000,
        "max_buy_in": 20_000,
        "rake_bp": 500,
        "rake_cap": 300,
    }


def _training(spec: dict[str, Any]) -> dict[str, Any]:
    """The training twin of a demo template: the same table in gettoni, without rake."""
    title = spec["table_name"]
    return {
        **spec,
        "name": f"{title} · allenamento",
        "table_name": f"Allenamento {title}",
        "realm": "play",
        "rake_bp": 0,
        "rake_cap": 0,
    }


# Every demo table is opened from a template (lobby.models.TableTemplate), one per game at least;
# "tables" names the tables opened from it (none: one table named after the template's table_name).
DEMO_TEMPLATES: tuple[dict[str, Any], ...] = (
    {
        "name": "Poker 5 carte · Pot limit · invito € 1",
        "table_name": "Poker",
        "tables": ("Roma",),
        "game": "poker5",
        "seats": 5,
        "min_buy_in": 1_000,
        "max_buy_in": 20_000,
        "rake_bp": 500,
        "rake_cap": 300,
        "config": {"limit": "PL", "invito": 100},
        "time_bank": 60,
    },
    {
        "name": "Poker 5 carte · allenamento",
        "table_name": "Allenamento Poker",
        "tables": ("Allenamento Milano",),
        "game": "poker5",
        "seats": 6,
        "min_buy_in": 1_000,
        "max_buy_in": 50_000,
        "realm": "play",
        "config": {"limit": "NL", "invito": 50},
    },
    {
        "name": "Scopa · 1 contro 1 · € 1,00",
        "table_name": "Scopa",
        "tables": ("Napoli",),
        "game": "scopa",
        "seats": 2,
        "min_buy_in": 1_000,
        "max_buy_in": 10_000,
        "rake_bp": 500,
        "posta_partita": 100,
        "posta_unitaria": 50,
        "perdita_massima": 1_000,
        "config": {"mode": "punti", "target": 11},
    },
    {
        "name": "Briscola · 1 contro 1 · € 1,00",
        "table_name": "Briscola",
        "tables": ("Bari",),
        "game": "briscola",
        "seats": 2,
        "min_buy_in": 1_000,
        "max_buy_in": 10_000,
        "rake_bp": 500,
        "posta_partita": 100,
        "posta_unitaria": 20,
        "perdita_massima": 1_000,
        "config": {"mode": "punti", "target": 61},
    },
    *(_partite(game, title) for game, title in PARTITE),
    *(_puntate(game, title, seats) for game, title, seats in PUNTATE),
    # the training section has a table of every game (poker's, with its bots, is above)
    *(
        _training(_partite(game, title))
        for game, title in (("scopa", "Scopa"), ("briscola", "Briscola"), *PARTITE)
    ),
    *(_training(_puntate(game, title, seats)) for game, title, seats in PUNTATE),
)


# Bots (marked as bots to everyone) keep the demo tables playing: nickname -> (table, seat).
DEMO_BOTS = (
    ("bot.tavolo", "Roma", 4),
    ("bot.banco", "Roma", 5),
    ("bot.scopa", "Napoli", 2),
    ("bot.briscola", "Bari", 2),
)
# The training tables' bots, so a new player has someone to play with: they hold play money only
# (no conto), topped up with play money when they cannot buy in. Poker's table plays on its own
# (two bots); every other training table has one bot (``training_bot_nickname``) in its last seat,
# so one person sitting down makes the two players a table needs to start.
TRAINING_BOTS = (
    ("bot.allenamento", "Allenamento Milano", 5),
    ("bot.pratica", "Allenamento Milano", 6),
)
TRAINING_BOT_PLAY_MONEY = 100_000


def training_bot_nickname(game: str) -> str:
    """The nickname of the bot at a game's demo training table ("bot.prova.scopa")."""
    return f"bot.prova.{game}"[:20]


def training_bot_nicknames() -> list[str]:
    """Every training bot's nickname: they hold play money only, so no real-money tournament takes them."""
    from games import registry

    return [nickname for nickname, _table, _seat in TRAINING_BOTS] + [
        training_bot_nickname(game) for game in registry.names()
    ]


def seed_bots() -> int:
    """Create the demo bots, fund them and seat them at the demo tables (once)."""
    from lobby import door
    from lobby.models import Seat, Table
    from wallet import actions as wallet_actions
    from wallet import selectors as wallet_selectors

    seated = 0
    training = set(training_bot_nicknames())
    named = {name for _nickname, name, _seat in TRAINING_BOTS}
    places = [
        (nickname, Table.objects.filter(name=table_name).first(), seat_no)
        for nickname, table_name, seat_no in (*DEMO_BOTS, *TRAINING_BOTS)
    ]
    places += [
        (training_bot_nickname(table.game), table, table.seats)
        for table in Table.objects.filter(realm="play", is_open=True, tournament_id__isnull=True)
        .exclude(name__in=named)
        .order_by("pk")
    ]
    for nickname, table, seat_no in places:
        if table is None:
            continue
        play = nickname in training
        bot = User.objects.filter(nickname__iexact=nickname).first()
        if bot is None:
            bot = User.objects.create_user(
                nickname=nickname,
                email=f"{nickname}@demo.invalid",
                password=None,
                date_of_birth=date(2000, 1, 1),
            )
            bot.is_bot = True
            bot.save(update_fields=["is_bot"])
            if play:
                wallet_actions.play_money_top_up(
                    user=bot, amount=TRAINING_BOT_PLAY_MONEY, idempotency_key=f"demo-play-{bot.pk}"
                )
            else:
                fund(bot)
        taken = Seat.objects.filter(table=table, number=seat_no).exists()
        if not taken and not Seat.objects.filter(table=table, user=bot).exists():
            buy_in = min(table.max_buy_in, 10_000)
            # A second `make run`: the bot may have stood up (or gone broke) since the last seed, so
            # each sitting has its own key and the bot's money is refilled when it cannot pay.
            balance = wallet_selectors.balance_get(user=bot)
            if play and balance["play"] < buy_in:
                wallet_actions.play_money_top_up(
                    user=bot,
                    amount=TRAINING_BOT_PLAY_MONEY,
                    idempotency_key=f"demo-play-refill-{bot.pk}-{uuid.uuid4().hex}",
                )
            elif not play and balance["available"] < buy_in:
                wallet_actions.deposit_create(
                    user=bot, amount=DEMO_DEPOSIT, idempotency_key=f"demo-refill-{bot.pk}-{uuid.uuid4().hex}"
                )
            door.table_sit(
                table_id=table.pk,
                user=bot,
                seat_no=seat_no,
                buy_in=buy_in,
                idempotency_key=f"demo-bot-sit-{bot.pk}-{table.pk}-{uuid.uuid4().hex}",
            )
            seated += 1
    return seated


def seed_tables() -> int:
    """Create the demo table templates and open their tables, those that do not exist yet; return how many."""
    from games import registry
    from lobby import door
    from lobby.models import TABLE_SETTINGS_FIELDS, Table, TableTemplate

    created = 0
    for spec in DEMO_TEMPLATES:
        if spec["game"] not in registry.names():
            continue
        settings = {k: v for k, v in spec.items() if k in TABLE_SETTINGS_FIELDS}
        settings.setdefault("tempo_giocata", registry.get(spec["game"]).default_tempo_giocata)
        if "rake_cap" not in registry.get(spec["game"]).table_settings:
            settings["rake_cap"] = 0  # a cap the game does not apply is refused (tables.table_checked)
        template, _new = TableTemplate.objects.get_or_create(
            name=spec["name"], defaults={"table_name": spec["table_name"], **settings}
        )
        for name in spec.get("tables") or ("",):
            exists = (
                Table.objects.filter(name=name)
                if name
                else Table.objects.filter(name__startswith=template.table_name, game=template.game)
            )
            if not exists.exists():
                door.table_open_from_template(template_id=template.pk, actor=None, name=name)
                created += 1
    return created


def fund(user: User) -> None:
    """Give a demo player sandbox money and training money, once (idempotency keys)."""
    from wallet import actions as wallet_actions

    wallet_actions.deposit_create(user=user, amount=DEMO_DEPOSIT, idempotency_key=f"demo-deposit-{user.pk}")
    wallet_actions.play_money_top_up(
        user=user, amount=DEMO_PLAY_MONEY, idempotency_key=f"demo-play-{user.pk}"
    )


class Command(BaseCommand):
    help = "Crea i conti dimostrativi (giocatori, un moderatore, uno staff) e ne stampa le credenziali."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        for nickname, email, role in DEMO_USERS:
            user = User.objects.filter(nickname__iexact=nickname).first()
            if user is None:
                user = User.objects.create_user(
                    nickname=nickname, email=email, password=DEMO_PASSWORD, date_of_birth=DEMO_BIRTH
                )
                actions.user_set_role(user=user, role=role)
            if not user.codice_fiscale:  # accounts seeded before the identity fields existed
                User.objects.filter(pk=user.pk).update(
                    **demo_identity(nickname), date_of_birth=DEMO_BIRTH, identity_verified_at=timezone.now()
                )
            if role == roles.PLAYERS:
                fund(user)
        seed_tables()
        seed_bots()
        from tournaments.demo import seed_tournaments

        seed_tournaments(
            actor=User.objects.get(nickname="staff"),
            bots=list(  # real-money tournaments: the training bots hold play money only
                User.objects.filter(is_bot=True).exclude(nickname__in=training_bot_nicknames()).order_by("pk")
            ),
        )
        self.stdout.write(f"Conti dimostrativi (password per tutti: {DEMO_PASSWORD}):")
        for nickname, _email, role in DEMO_USERS:
            self.stdout.write(f"  {nickname:<12} {role}")
        self.stdout.write("Ogni giocatore ha € 500,00 di deposito di prova e 1.000 di gioco di allenamento.")
        self.stdout.write(
            "Ai tavoli Roma (poker), Napoli (scopa), Bari (briscola) e a ogni tavolo di allenamento"
            " giocano dei bot, segnalati come tali: a un tavolo di allenamento basta sedersi per giocare."
        )
        self.stdout.write(
            "Un tavolo per ognuno dei 13 giochi, aperto da un modello (back office: Modelli di tavolo)."
        )
        self.stdout.write("Tornei programmati e sit&go: /tornei/")
        self.stdout.write("Back office: /backoffice/ (utente 'staff'; 'moderatore' vede solo la moderazione)")
        self.stdout.write(
            "Staff e moderatore al primo accesso attivano la verifica in due passaggi (app sul telefono)."
        )
