"""Two-factor sign-in of staff and moderators, and the idle timeout of their sessions.

Staff and moderators reach no staff page, API or socket until their session is verified with a
second factor; players never see it. Every permission both ways.
"""

import re
import time
from html import unescape

import pytest
from axes.models import AccessAttempt
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from config.asgi import application
from piattaforma import roles, twofa
from piattaforma.consumers import CLOSE_UNAUTHENTICATED
from piattaforma.models import AuditLog, User
from tests.piattaforma.factories import UserFactory, sign_in, verified_device
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie

pytestmark = pytest.mark.django_db


def code_for(device):
    """The authenticator's code right now, as the staff member's phone shows it."""
    device.refresh_from_db()
    return f"{totp(device.bin_key, device.step, device.t0, device.digits, device.drift):0{device.digits}d}"


def fresh(device):
    """Forget the last code used and the throttle, so that the next test step may sign in again."""
    TOTPDevice.objects.filter(pk=device.pk).update(last_t=-1, throttling_failure_count=0)


def set_seen(client, seconds_ago):
    session = client.session
    session[twofa.SEEN_KEY] = int(time.time() - seconds_ago)
    session.save()


@pytest.fixture
def staff():
    return UserFactory(nickname="capo", role=roles.STAFF)


@pytest.fixture
def moderator():
    return UserFactory(nickname="vigile", role=roles.MODERATORS)


# --- the gate ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/backoffice/", "/moderazione/", "/backoffice/wallet/account/", "/profilo/"]
)
def test_a_staff_member_without_an_authenticator_is_sent_to_enrol_first(client, staff, path):
    client.force_login(staff)  # the password alone
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == reverse("twofa_enrol") + "?next=" + path.replace("/", "%2F")


def test_an_enrolled_staff_member_signed_in_with_the_password_only_is_sent_to_verify(client, staff):
    verified_device(staff)
    client.force_login(staff)
    response = client.get("/backoffice/")
    assert response.status_code == 302 and response["Location"].startswith(reverse("twofa_verify"))
    assert client.get(reverse("twofa_verify")).status_code == 200


@pytest.mark.parametrize("role", [roles.STAFF, roles.MODERATORS])
def test_an_unverified_session_gets_no_staff_api_and_a_verified_one_does(client, role):
    user = UserFactory(role=role)
    verified_device(user)
    client.force_login(user)
    response = client.get("/moderazione/api/avvisi/")
    assert response.status_code == 403 and response.json()["code"] == "twofa_required"
    response = client.post("/moderazione/api/segnala/", {}, content_type="application/json")
    assert response.status_code == 403 and response.json()["code"] == "twofa_required"
    sign_in(client, user)
    assert client.get("/moderazione/api/avvisi/").status_code == 200


@pytest.mark.parametrize("role", [roles.STAFF, roles.MODERATORS])
def test_a_verified_staff_member_or_moderator_reaches_his_pages(client, role):
    sign_in(client, UserFactory(role=role))
    assert client.get("/backoffice/").status_code == 200
    assert client.get("/moderazione/").status_code == 200


def test_a_superuser_needs_the_second_factor_too(client):
    boss = UserFactory(is_superuser=True, is_staff=True)
    client.force_login(boss)
    assert client.get("/backoffice/").status_code == 302
    sign_in(client, boss)
    assert client.get("/backoffice/").status_code == 200


def test_players_never_meet_the_second_factor(client):
    player = UserFactory()
    client.force_login(player)
    for path in ("/", "/profilo/", "/conto/", "/moderazione/api/avvisi/"):
        assert client.get(path).status_code == 200, path
    # the two-factor pages send a player home: there is nothing to enrol
    assert client.get(reverse("twofa_enrol"))["Location"] == reverse("home")
    assert client.get(reverse("twofa_verify"))["Location"] == reverse("home")
    assert not TOTPDevice.objects.filter(user=player).exists()


def test_the_exit_and_the_two_factor_pages_stay_open_to_an_unverified_session(client, staff):
    client.force_login(staff)
    assert client.get(reverse("twofa_enrol")).status_code == 200
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


# --- enrolment -----------------------------------------------------------------------------------


def test_enrolment_shows_the_qr_and_the_secret_then_ten_recovery_codes_once(client, staff):
    client.force_login(staff)
    page = client.get(reverse("twofa_enrol") + "?next=/backoffice/")
    html = unescape(page.content.decode())
    assert "<svg" in html and "<path" in html  # the QR code, inline SVG
    device = TOTPDevice.objects.get(user=staff, confirmed=False)
    assert twofa.secret_b32(device) in html
    # a wrong first code: refused, nothing confirmed
    response = client.post(reverse("twofa_enrol"), {"code": "000000", "next": "/backoffice/"})
    assert response.status_code == 200 and "Codice errato" in unescape(response.content.decode())
    assert not twofa.enrolled(staff) and not StaticToken.objects.filter(device__user=staff).exists()
    fresh(device)
    response = client.post(reverse("twofa_enrol"), {"code": code_for(device), "next": "/backoffice/"})
    assert response.status_code == 200
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", response.content.decode())
    assert len(codes) == twofa.RECOVERY_CODES == 10 and len(set(codes)) == 10
    assert sorted(StaticToken.objects.filter(device__user=staff).values_list("token", flat=True)) == sorted(
        codes
    )
    assert twofa.enrolled(staff)
    assert AuditLog.objects.filter(action="twofa.enrol", target_id=str(staff.pk)).count() == 1
    # the session is verified: the back office opens; the enrolment page is closed for good
    assert client.get("/backoffice/").status_code == 200
    assert client.get(reverse("twofa_enrol"))["Location"] == reverse("twofa_verify")


def test_every_visit_of_the_enrolment_page_makes_a_new_secret(client, staff):
    client.force_login(staff)
    client.get(reverse("twofa_enrol"))
    first = TOTPDevice.objects.get(user=staff).key
    client.get(reverse("twofa_enrol"))
    assert list(TOTPDevice.objects.filter(user=staff).values_list("key", flat=True)) != [first]
    assert TOTPDevice.objects.filter(user=staff).count() == 1


# --- verification --------------------------------------------------------------------------------


def test_the_code_of_the_authenticator_verifies_the_sign_in(client, staff):
    device = verified_device(staff)
    client.force_login(staff)
    response = client.post(reverse("twofa_verify"), {"code": code_for(device), "next": "/backoffice/"})
    assert response.status_code == 302 and response["Location"] == "/backoffice/"
    assert client.get("/backoffice/").status_code == 200
    assert AuditLog.objects.filter(action="twofa.verify", actor=staff).count() == 1


def test_the_next_address_may_not_leave_the_site(client, staff):
    device = verified_device(staff)
    client.force_login(staff)
    response = client.post(
        reverse("twofa_verify"), {"code": code_for(device), "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"


def test_a_recovery_code_verifies_once_and_is_used_up(client, staff):
    client.force_login(staff)
    client.get(reverse("twofa_enrol"))
    device = TOTPDevice.objects.get(user=staff)
    response = client.post(reverse("twofa_enrol"), {"code": code_for(device)})
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", response.content.decode())
    client.post(reverse("logout"))

    client.force_login(staff)
    response = client.post(reverse("twofa_verify"), {"code": codes[0].upper(), "next": "/backoffice/"})
    assert response.status_code == 200 and "Ti restano 9 codici" in unescape(response.content.decode())
    assert client.get("/backoffice/").status_code == 200
    assert twofa.recovery_codes_left(staff) == 9
    assert AuditLog.objects.get(action="twofa.recovery_used").data == {"left": 9}
    client.post(reverse("logout"))

    client.force_login(staff)
    fresh(device)
    response = client.post(reverse("twofa_verify"), {"code": codes[0]})
    assert response.status_code == 200 and "Codice errato" in unescape(response.content.decode())
    assert client.get("/backoffice/").status_code == 302


def test_wrong_codes_count_as_failed_logins_and_sign_the_session_out(client, staff, settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # the device's own wait is tested below
    verified_device(staff)
    client.force_login(staff)
    for _ in range(settings.TWOFA_MAX_FAILURES - 1):
        response = client.post(reverse("twofa_verify"), {"code": "123456"})
        assert response.status_code == 200 and "Codice errato" in unescape(response.content.decode())
    response = client.post(reverse("twofa_verify"), {"code": "123456"})
    assert response.status_code == 429  # the lockout's page: the account is locked out
    assert "_auth_user_id" not in client.session  # and the session signed out
    # each wrong code was a failed login of the account: the lockout now refuses the password
    attempt = AccessAttempt.objects.get(username="capo")
    assert attempt.failures_since_start == settings.TWOFA_MAX_FAILURES
    response = client.post(reverse("login"), {"username": "capo", "password": "Password-di-prova-1"})
    assert response.status_code == 429


def test_while_the_account_is_locked_out_even_a_right_code_signs_the_session_out(client, staff, settings):
    device = verified_device(staff)
    client.force_login(staff)
    elsewhere = client.__class__(REMOTE_ADDR="127.0.0.2")  # someone guessing the password meanwhile
    for _ in range(settings.AXES_FAILURE_LIMIT):
        elsewhere.post(reverse("login"), {"username": "capo", "password": "sbagliata-davvero"})
    response = client.post(reverse("twofa_verify"), {"code": code_for(device)})
    assert response.status_code == 403 and "Troppi codici errati" in unescape(response.content.decode())
    assert "_auth_user_id" not in client.session


def test_the_device_makes_a_wrong_code_wait_before_the_next_try(client, staff):
    device = verified_device(staff)
    client.force_login(staff)
    client.post(reverse("twofa_verify"), {"code": "123456"})
    response = client.post(reverse("twofa_verify"), {"code": code_for(device)})  # right, but too soon
    assert "attendi" in unescape(response.content.decode())
    assert client.get("/backoffice/").status_code == 302


# --- reset by another staff member ---------------------------------------------------------------


def reset(client, target, reason="telefono perso, verificato al telefono"):
    return client.post(
        "/backoffice/piattaforma/user/",
        {"action": "twofa_reset", "_selected_action": [target.pk], "reason": reason},
    )


def test_a_staff_member_resets_a_moderators_lost_authenticator(client, staff, moderator):
    device = verified_device(moderator)
    StaticToken.objects.create(
        device=moderator.staticdevice_set.create(name="Codici di recupero", confirmed=True), token="abcdefgh"
    )
    moderator_client = client.__class__()
    sign_in(moderator_client, moderator)
    assert moderator_client.get("/moderazione/").status_code == 200

    sign_in(client, staff)
    assert reset(client, moderator).status_code == 302
    assert not TOTPDevice.objects.filter(pk=device.pk).exists()
    assert twofa.recovery_codes_left(moderator) == 0
    line = AuditLog.objects.get(action="twofa.reset")
    assert (line.actor, line.target_id, line.reason) == (
        staff,
        str(moderator.pk),
        "telefono perso, verificato al telefono",
    )
    # his session verified with the old device is not verified any more: he enrols again
    response = moderator_client.get("/moderazione/")
    assert response.status_code == 302 and response["Location"].startswith(reverse("twofa_enrol"))


def test_nobody_resets_his_own_authenticator_nor_a_moderator_anyones(client, staff, moderator):
    device = verified_device(staff)
    sign_in(client, staff)
    reset(client, staff)
    assert TOTPDevice.objects.filter(pk=device.pk).exists()
    assert not AuditLog.objects.filter(action="twofa.reset").exists()
    with pytest.raises(twofa.TwoFactorError) as refused:
        twofa.devices_reset(actor=staff, target=staff, reason="lo rifaccio")
    assert refused.value.code == "twofa_own_reset"

    other = UserFactory(role=roles.MODERATORS)
    other_device = verified_device(other)
    mod_client = client.__class__()
    sign_in(mod_client, moderator)
    response = reset(mod_client, other)
    assert response.status_code in (302, 403)
    assert TOTPDevice.objects.filter(pk=other_device.pk).exists()
    with pytest.raises(twofa.TwoFactorError):
        twofa.devices_reset(actor=moderator, target=other, reason="non posso")


def test_only_a_superuser_resets_a_superusers_authenticator(staff):
    boss = UserFactory(is_superuser=True, is_staff=True)
    device = verified_device(boss)
    with pytest.raises(twofa.TwoFactorError):
        twofa.devices_reset(actor=staff, target=boss, reason="non posso farlo")
    assert TOTPDevice.objects.filter(pk=device.pk).exists()
    other_boss = UserFactory(is_superuser=True, is_staff=True)
    twofa.devices_reset(actor=other_boss, target=boss, reason="nuovo telefono")
    assert not TOTPDevice.objects.filter(pk=device.pk).exists()


# --- idle timeout --------------------------------------------------------------------------------


def test_a_staff_session_idle_past_the_timeout_is_signed_out(client, staff, settings):
    sign_in(client, staff)
    set_seen(client, settings.TWOFA_IDLE_MINUTES * 60 - 30)  # almost: still in
    assert client.get("/backoffice/").status_code == 200
    set_seen(client, settings.TWOFA_IDLE_MINUTES * 60 + 30)
    response = client.get("/backoffice/")
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert "_auth_user_id" not in client.session
    page = client.get(response["Location"])
    assert "Sessione scaduta per inattività" in unescape(page.content.decode())


def test_a_request_keeps_the_staff_session_alive(client, staff, settings):
    sign_in(client, staff)
    set_seen(client, settings.TWOFA_IDLE_MINUTES * 60 - 30)
    assert client.get("/backoffice/").status_code == 200  # this request counts as activity
    seen = client.session[twofa.SEEN_KEY]
    assert time.time() - seen < 5


def test_an_idle_staff_api_call_is_answered_401(client, moderator, settings):
    sign_in(client, moderator)
    set_seen(client, settings.TWOFA_IDLE_MINUTES * 60 + 30)
    response = client.get("/moderazione/api/avvisi/")
    assert response.status_code == 401 and response.json()["code"] == "session_expired"


def test_a_players_session_has_no_idle_timeout(client, settings):
    client.force_login(UserFactory())
    set_seen(client, settings.TWOFA_IDLE_MINUTES * 60 * 10)
    assert client.get("/profilo/").status_code == 200
    assert "_auth_user_id" in client.session


# --- sockets -------------------------------------------------------------------------------------


async def socket_code(path, cookie):
    ws = WebsocketCommunicator(application, path, headers=[ORIGIN, (b"cookie", cookie)])
    connected, code = await ws.connect(timeout=10)
    if not connected:
        return code
    first = await ws.receive_output(timeout=5)
    await ws.disconnect()
    return first["code"] if first["type"] == "websocket.close" else "open"


def bare_cookie(user):
    """A session signed in with the password only (no second factor)."""
    from django.conf import settings as dj
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "piattaforma.auth.NicknameOrEmailBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return f"{dj.SESSION_COOKIE_NAME}={store.session_key}".encode(), store


@pytest.mark.django_db(transaction=True)
async def test_the_staffs_help_socket_needs_the_second_factor_and_a_live_session():
    from asgiref.sync import sync_to_async

    @sync_to_async
    def people():
        staff = UserFactory(role=roles.STAFF)
        player = UserFactory()
        bare, _ = bare_cookie(staff)
        verified = session_cookie(staff)
        idle, store = bare_cookie(staff)
        from tests.piattaforma.factories import verify_session

        verify_session(store, staff)
        store[twofa.SEEN_KEY] = int(time.time()) - 3600
        store.save()
        return player, bare, verified, idle, session_cookie(player)

    player, bare, verified, idle, player_cookie = await people()
    path = f"/ws/chat/help/{player.pk}/"
    assert await socket_code(path, bare) == CLOSE_UNAUTHENTICATED
    assert await socket_code(path, idle) == CLOSE_UNAUTHENTICATED
    assert await socket_code(path, verified) == "open"
    assert await socket_code("/ws/chat/help/", player_cookie) == "open"  # players: as ever


def test_required_is_for_staff_moderators_and_superusers_only():
    assert twofa.required(UserFactory(role=roles.STAFF))
    assert twofa.required(UserFactory(role=roles.MODERATORS))
    assert twofa.required(User(is_superuser=True))
    assert not twofa.required(UserFactory())


def test_a_page_opens_no_socket_for_a_session_still_waiting_for_its_second_factor(client, staff):
    client.force_login(staff)
    assert 'data-ws="/ws/avvisi/"' not in client.get(reverse("twofa_enrol")).content.decode()
    sign_in(client, staff)
    assert 'data-ws="/ws/avvisi/"' in client.get("/").content.decode()
