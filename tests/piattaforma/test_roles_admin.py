"""Roles in the back office: only superusers change roles or staff accounts, and it is all audited.

Staff manage players (their data and status, never their password); they cannot promote anybody (themselves
included), touch another staff member's or a superuser's account, delete accounts, or edit the
records the platform keeps as evidence (audit log, ledger, table chat, role groups).
"""

import pytest
from django.contrib.auth.models import Group

from lobby.models import ChatMessage, Hand, Table
from piattaforma import roles
from piattaforma.actions import audit_record
from piattaforma.models import AuditLog, User
from tests.lobby.factories import poker_table
from tests.lobby.helpers import seat_players
from tests.piattaforma.factories import PASSWORD, UserFactory, sign_in
from tests.wallet.factories import funded_player
from wallet.models import Transaction

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Chiave-Nuova-2026!"


def superuser():
    return User.objects.create_superuser("capo", "capo@example.invalid", PASSWORD)


def change_url(user):
    return f"/backoffice/piattaforma/user/{user.pk}/change/"


def password_url(user):
    return f"/backoffice/piattaforma/user/{user.pk}/password/"


def user_form(user, **overrides):
    """The user's change form as the back office posts it, with ``overrides``."""
    data = {
        "nickname": user.nickname,
        "email": user.email,
        "date_of_birth": user.date_of_birth.isoformat(),
        "is_active": "on",
    }
    return {**data, **overrides}


PROMOTION = {"is_staff": "on", "is_superuser": "on"}


def set_password(client, user):
    form = {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"}
    return client.post(password_url(user), form)


def test_staff_cannot_make_himself_superuser(client):
    staff = UserFactory(role=roles.STAFF)
    sign_in(client, staff)
    staff_group = Group.objects.get(name=roles.STAFF).pk
    response = client.post(change_url(staff), user_form(staff, **PROMOTION, groups=[staff_group]))
    assert response.status_code == 403
    staff.refresh_from_db()
    assert not staff.is_superuser
    assert client.get(change_url(staff)).status_code == 200  # he still sees his account, read-only


def test_staff_edits_a_player_but_not_his_role(client):
    staff = UserFactory(role=roles.STAFF)
    player = UserFactory()
    sign_in(client, staff)
    staff_group = Group.objects.get(name=roles.STAFF).pk
    form = user_form(player, email="nuova@example.invalid", **PROMOTION, groups=[staff_group])
    response = client.post(change_url(player), form)
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.email == "nuova@example.invalid"  # the player's data: staff's job
    assert not player.is_staff and not player.is_superuser
    assert list(player.groups.values_list("name", flat=True)) == [roles.PLAYERS]
    assert not AuditLog.objects.filter(action="user.change_roles").exists()


def test_staff_cannot_set_a_superusers_or_another_staff_members_password(client):
    staff = UserFactory(role=roles.STAFF)
    boss = superuser()
    colleague = UserFactory(role=roles.STAFF)
    moderator = UserFactory(role=roles.MODERATORS)
    sign_in(client, staff)
    for target in (boss, colleague, moderator, staff):
        assert set_password(client, target).status_code == 403
        target.refresh_from_db()
        assert target.check_password(PASSWORD)
    for target in (boss, colleague, moderator):  # nor change their e-mail (the way to a reset link)
        response = client.post(change_url(target), user_form(target, email="mia@example.invalid"))
        assert response.status_code == 403
        target.refresh_from_db()
        assert target.email != "mia@example.invalid"
    assert not AuditLog.objects.filter(action="user.set_password").exists()


@pytest.mark.parametrize("who", ["staff", "superuser"])
def test_nobody_sets_a_players_password_in_the_back_office(client, who):
    """Not even a superuser: the player resets it himself by e-mail, so nobody signs in as him."""
    actor = UserFactory(role=roles.STAFF) if who == "staff" else superuser()
    player = UserFactory()
    sign_in(client, actor)
    assert client.get(password_url(player)).status_code == 403
    assert set_password(client, player).status_code == 403
    player.refresh_from_db()
    assert player.check_password(PASSWORD)
    assert not AuditLog.objects.filter(action="user.set_password").exists()
    # the player's page offers no password form either
    page = client.get(change_url(player)).content.decode()
    assert "password/" not in page


def test_a_refused_password_form_is_not_audited(client):
    sign_in(client, superuser())
    colleague = UserFactory(role=roles.STAFF)
    form = {"password1": NEW_PASSWORD, "password2": "diversa", "usable_password": "true"}
    assert client.post(password_url(colleague), form).status_code == 200
    colleague.refresh_from_db()
    assert colleague.check_password(PASSWORD)
    assert not AuditLog.objects.filter(action="user.set_password").exists()


def test_a_players_e_mail_changed_by_staff_is_audited_and_told_to_the_old_address(
    client, django_capture_on_commit_callbacks, mailoutbox
):
    staff = UserFactory(role=roles.STAFF)
    player = UserFactory(email="vecchia@example.invalid")
    sign_in(client, staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(change_url(player), user_form(player, email="nuova@example.invalid"))
    assert response.status_code == 302
    line = AuditLog.objects.get(action="user.change_email")
    assert line.actor == staff and line.data == {
        "from": "vecchia@example.invalid",
        "to": "nuova@example.invalid",
    }
    assert [m.to for m in mailoutbox] == [["vecchia@example.invalid"]]
    # a save that keeps the address adds nothing
    client.post(change_url(player), user_form(player, email="nuova@example.invalid", is_bot="on"))
    assert AuditLog.objects.filter(action="user.change_email").count() == 1


def test_superuser_changes_roles_and_every_change_is_audited(client):
    boss = superuser()
    player = UserFactory()
    sign_in(client, boss)
    staff_group = Group.objects.get(name=roles.STAFF).pk
    response = client.post(change_url(player), user_form(player, is_staff="on", groups=[staff_group]))
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.is_staff and player.has_role(roles.STAFF)
    log = AuditLog.objects.get(action="user.change_roles")
    assert log.actor == boss and log.target_id == str(player.pk)
    assert log.data["from"] == {**roles.NO_ROLE, "groups": [roles.PLAYERS]}
    assert log.data["to"] == {**roles.NO_ROLE, "is_staff": True, "groups": [roles.STAFF]}
    # a save that changes no role adds nothing
    client.post(change_url(player), user_form(player, is_staff="on", groups=[staff_group], is_bot="on"))
    assert AuditLog.objects.filter(action="user.change_roles").count() == 1


def test_superuser_sets_a_staff_members_password(client):
    sign_in(client, superuser())
    colleague = UserFactory(role=roles.STAFF)
    assert set_password(client, colleague).status_code == 302
    colleague.refresh_from_db()
    assert colleague.check_password(NEW_PASSWORD)
    assert AuditLog.objects.filter(action="user.set_password", target_id=str(colleague.pk)).exists()


def test_staff_cannot_suspend_staff_or_superusers(client):
    staff = UserFactory(role=roles.STAFF)
    boss = superuser()
    colleague = UserFactory(role=roles.STAFF)
    player = UserFactory()
    sign_in(client, staff)
    form = {
        "action": "suspend",
        "_selected_action": [boss.pk, colleague.pk, player.pk],
        "reason": "Prova di escalation",
    }
    client.post("/backoffice/piattaforma/user/", form)
    statuses = dict(User.objects.values_list("nickname", "status"))
    assert statuses[boss.nickname] == statuses[colleague.nickname] == User.Status.ACTIVE
    assert statuses[player.nickname] == User.Status.SUSPENDED  # players: staff's job
    assert AuditLog.objects.filter(action="user.set_status").count() == 1


def test_nobody_deletes_an_account_from_the_back_office(client):
    player = UserFactory()
    for actor in (UserFactory(role=roles.STAFF), superuser()):
        sign_in(client, actor)
        url = f"/backoffice/piattaforma/user/{player.pk}/delete/"
        assert client.post(url, {"post": "yes"}).status_code == 403
        form = {"action": "delete_selected", "_selected_action": [player.pk], "post": "yes"}
        client.post("/backoffice/piattaforma/user/", form)
        assert User.objects.filter(pk=player.pk).exists()


def test_role_groups_are_not_edited_in_the_back_office(client):
    sign_in(client, superuser())
    staff_group = Group.objects.get(name=roles.STAFF)
    before = set(staff_group.permissions.values_list("pk", flat=True))
    assert client.get(f"/backoffice/auth/group/{staff_group.pk}/change/").status_code == 200  # shown
    response = client.post(
        f"/backoffice/auth/group/{staff_group.pk}/change/", {"name": "staff", "permissions": []}
    )
    assert response.status_code == 403
    assert set(staff_group.permissions.values_list("pk", flat=True)) == before
    assert client.post(f"/backoffice/auth/group/{staff_group.pk}/delete/", {"post": "yes"}).status_code == 403


def test_audit_log_rows_cannot_be_changed_or_deleted(client):
    log = audit_record(actor=None, action="prova", reason="originale")
    for actor in (UserFactory(role=roles.STAFF), superuser()):
        sign_in(client, actor)
        base = f"/backoffice/piattaforma/auditlog/{log.pk}"
        assert client.get(f"{base}/change/").status_code == 200  # readable
        assert client.post(f"{base}/change/", {"reason": "riscritto"}).status_code == 403
        assert client.post(f"{base}/delete/", {"post": "yes"}).status_code == 403
    log.refresh_from_db()
    assert log.reason == "originale"


def test_ledger_rows_cannot_be_changed_or_deleted(client):
    funded_player()
    tx = Transaction.objects.first()
    for actor in (UserFactory(role=roles.STAFF), superuser()):
        sign_in(client, actor)
        base = f"/backoffice/wallet/transaction/{tx.pk}"
        assert client.get(f"{base}/change/").status_code == 200
        assert client.post(f"{base}/delete/", {"post": "yes"}).status_code == 403
    assert Transaction.objects.filter(pk=tx.pk).exists()


def test_table_chat_is_evidence_and_cannot_be_edited(client):
    table = poker_table()
    author = UserFactory()
    message = ChatMessage.objects.create(table=table, user=author, text="parole pesanti")
    sign_in(client, UserFactory(role=roles.STAFF))
    base = f"/backoffice/lobby/chatmessage/{message.pk}"
    assert client.get(f"{base}/change/").status_code == 200
    assert client.post(f"{base}/delete/", {"post": "yes"}).status_code == 403
    form = {"action": "delete_selected", "_selected_action": [message.pk], "post": "yes"}
    client.post("/backoffice/lobby/chatmessage/", form)
    assert ChatMessage.objects.filter(pk=message.pk, text="parole pesanti").exists()


def test_a_table_with_seated_players_cannot_be_deleted(client):
    table = poker_table()
    seat_players(table, [funded_player(), funded_player()])
    sign_in(client, UserFactory(role=roles.STAFF))
    assert client.post(f"/backoffice/lobby/table/{table.pk}/delete/", {"post": "yes"}).status_code == 403
    form = {"action": "delete_selected", "_selected_action": [table.pk], "post": "yes"}
    client.post("/backoffice/lobby/table/", form)
    assert Table.objects.filter(pk=table.pk).exists() and table.seat_rows.count() == 2
    assert client.get(f"/backoffice/lobby/table/{table.pk}/change/").status_code == 200  # still managed


def test_moderators_see_only_moderation(client):
    sign_in(client, UserFactory(role=roles.MODERATORS))
    for url in (
        "/backoffice/piattaforma/user/",
        "/backoffice/piattaforma/auditlog/",
        "/backoffice/wallet/transaction/",
        "/backoffice/wallet/account/",
        "/backoffice/lobby/table/",
        "/backoffice/lobby/hand/",
        "/backoffice/auth/group/",
    ):
        assert client.get(url).status_code == 403, url


@pytest.mark.parametrize("step", ["x", "-1", "9" * 5000, "١"])
def test_hand_replay_survives_a_bad_step(client, step):
    from games.rng import SeededRng
    from lobby import door
    from tests.lobby.helpers import everyone_puts_the_invito, play_hand_randomly

    table = poker_table()
    seat_players(table, [funded_player() for _ in range(3)])
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    play_hand_randomly(table, SeededRng(1))  # staff replay only ended hands
    hand = Hand.objects.get(table=table, number=1, ended_at__isnull=False)
    sign_in(client, UserFactory(role=roles.STAFF))
    response = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay/", {"step": step})
    assert response.status_code == 200


# --- staff and their own money: another staff member decides (four eyes) ----------------------------


def staff_with_money(nickname):
    """A player with € 500,00 on his conto made staff (staff deposit nothing: it is his from before)."""
    from piattaforma.actions import user_set_role

    user = funded_player(50_000, nickname=nickname)
    user_set_role(user=user, role=roles.STAFF)
    return user


def cash_account(user):
    from wallet.models import Account

    return Account.objects.get(owner=user, kind="player_cash", realm="real")


def test_staff_cannot_adjust_his_own_account():
    from wallet import actions as wallet_actions
    from wallet.errors import NotPermitted
    from wallet.models import Posting

    furbo, collega = staff_with_money("Furbo"), staff_with_money("Collega")
    account = cash_account(furbo)
    postings = Posting.objects.count()
    with pytest.raises(NotPermitted):
        wallet_actions.ledger_adjust(
            account_id=account.pk,
            amount=10_000,
            reason="Bonus a me stesso",
            actor=furbo,
            idempotency_key="a1",
        )
    assert Posting.objects.count() == postings and cash_account(furbo).balance == 50_000
    wallet_actions.ledger_adjust(
        account_id=account.pk, amount=-1_000, reason="Correzione errore", actor=collega, idempotency_key="a2"
    )
    assert cash_account(furbo).balance == 49_000


def test_staff_cannot_reverse_a_transaction_of_his_own_account():
    from wallet import actions as wallet_actions
    from wallet.errors import NotPermitted

    furbo, collega = staff_with_money("Furbo"), staff_with_money("Collega")
    terzo = UserFactory(role=roles.STAFF)
    deposit = Transaction.objects.filter(postings__account__owner=furbo).get()
    with pytest.raises(NotPermitted):
        wallet_actions.reversal_request(
            transaction_id=str(deposit.pk), reason="Storno a me", actor=furbo, idempotency_key="r1"
        )
    asked = wallet_actions.reversal_request(
        transaction_id=str(deposit.pk), reason="Deposito doppio", actor=collega, idempotency_key="r2"
    )
    with pytest.raises(NotPermitted):  # nor approve one another asked for him
        wallet_actions.reversal_approve(request_id=asked["request_id"], actor=furbo)
    assert not Transaction.objects.filter(reverses=deposit).exists()
    wallet_actions.reversal_approve(request_id=asked["request_id"], actor=terzo)
    assert Transaction.objects.filter(reverses=deposit).exists()


def test_staff_cannot_decide_his_own_withdrawal(client):
    from wallet import actions as wallet_actions
    from wallet.errors import NotPermitted
    from wallet.models import Payment

    furbo, collega = staff_with_money("Furbo"), staff_with_money("Collega")
    mine = wallet_actions.withdrawal_request(user=furbo, amount=20_000, idempotency_key="w1")["payment_id"]
    for decide in (
        lambda: wallet_actions.withdrawal_approve(payment_id=mine, actor=furbo),
        lambda: wallet_actions.withdrawal_reject(payment_id=mine, actor=furbo, reason="Ci ho ripensato"),
    ):
        with pytest.raises(NotPermitted):
            decide()
        assert Payment.objects.get(pk=mine).status == Payment.Status.PENDING
    sign_in(client, furbo)  # the back office says so instead of paying
    client.post("/backoffice/wallet/withdrawal/", {"action": "approve", "_selected_action": [mine]})
    assert Payment.objects.get(pk=mine).status == Payment.Status.PENDING
    wallet_actions.withdrawal_approve(payment_id=mine, actor=collega)
    assert Payment.objects.get(pk=mine).status == Payment.Status.SETTLED
