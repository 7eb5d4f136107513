"""Two-factor sign-in for staff and moderators, and the idle timeout of their sessions.

Whoever may open the back office or the moderators' pages (``is_staff`` or ``is_superuser``: staff,
moderators, superusers) signs in with his password and then a second factor before any page, API
or socket treats him as signed in: a TOTP code from an authenticator app (django-otp's
``TOTPDevice``) or one of ten single-use recovery codes (``StaticDevice``). A session is verified
once ``django_otp.login`` stored the device in it; ``StaffSessionMiddleware`` sends an unverified
one to enrol or verify, and the socket stack treats it as anonymous (``StaffSocketGuard``).

The same sessions end after ``TWOFA_IDLE_MINUTES`` without a request. Players are untouched.

Wrong codes: each is a failed login of the account for the lockout (django-axes: the same 5 per
account or address in 15 minutes as a wrong password), the device's own throttle slows down the
next try (django-otp), and after ``TWOFA_MAX_FAILURES`` in one session the session is signed out.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from base64 import b32encode
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db import transaction
from django.http import HttpRequest
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp import login as otp_login
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from games.engine import CodedError
from piattaforma import roles
from piattaforma.actions import audit_record
from piattaforma.models import User

RECOVERY_CODES = 10
SEEN_KEY = "twofa_seen"  # the session's last request, Unix seconds
FAILURES_KEY = "twofa_failures"  # wrong codes typed in this session
PENDING_KEY = "twofa_pending"  # the device being enrolled (its id), until confirmed
CLOSE_SIGNED_OUT = 4401  # the close code of a staff socket whose session ended (as a refused one)
TOTP_NAME = "Autenticatore"
RECOVERY_NAME = "Codici di recupero"

logger = logging.getLogger(__name__)


class TwoFactorError(CodedError):
    """A refused two-factor operation (stable ``code``, Italian ``message``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code  # type: ignore[misc]  # one class, several stable codes


def required(user: Any) -> bool:
    """Tell whether ``user`` must sign in with a second factor (staff, moderators, superusers)."""
    return bool(getattr(user, "is_authenticated", False)) and bool(user.is_staff or user.is_superuser)


def enrolled(user: Any) -> bool:
    """Tell whether ``user`` has a confirmed authenticator."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def session_verified(user: Any, session: Any) -> bool:
    """Tell whether ``session`` was verified with a second factor of ``user``'s (for sockets)."""
    persistent_id = session.get(DEVICE_ID_SESSION_KEY)
    if not persistent_id:
        return False
    device = Device.from_persistent_id(persistent_id)
    return device is not None and device.user_id == user.pk and bool(device.confirmed)


# --- idle timeout ----------------------------------------------------------------------------------


def idle_expired(session: Any, *, now: float | None = None) -> bool:
    """Tell whether the session's last request is older than ``TWOFA_IDLE_MINUTES``."""
    seen = session.get(SEEN_KEY)
    if seen is None:
        return False
    now = time.time() if now is None else now
    return now - float(seen) > settings.TWOFA_IDLE_MINUTES * 60


def touch(session: Any, *, now: float | None = None) -> None:
    """Record a request on the session (written at most every 10 seconds: not one save per request)."""
    now = time.time() if now is None else now
    seen = session.get(SEEN_KEY)
    if seen is None or now - float(seen) >= 10:
        session[SEEN_KEY] = int(now)


# --- enrolment -------------------------------------------------------------------------------------


def enrolment_start(*, user: User) -> TOTPDevice:
    """A new, unconfirmed authenticator for ``user`` (any earlier unconfirmed one is dropped).

    Its secret is shown once, on the page that asks for the first code; a confirmed device is
    replaced only by a staff member's reset.
    """
    if enrolled(user):
        raise TwoFactorError("twofa_enrolled", "La verifica in due passaggi è già attiva.")
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=False)


def enrolment_confirm(*, request: HttpRequest, user: User, device_id: int, code: str) -> list[str]:
    """Confirm the pending authenticator with its first code; return the ten recovery codes.

    The session is verified with it; the codes exist only as the list returned (shown once).
    """
    check_not_locked(request=request, user=user)
    device = TOTPDevice.objects.filter(pk=device_id, user=user, confirmed=False).first()
    if device is None:
        raise TwoFactorError("twofa_no_enrolment", "La registrazione è scaduta: ricomincia.")
    allowed, _ = device.verify_is_allowed()
    if not allowed:
        raise TwoFactorError("twofa_throttled", "Troppi codici errati: attendi qualche secondo e riprova.")
    if not device.verify_token(_digits(code)):  # a wrong code is counted by the device (committed)
        failed(request=request, user=user)
        raise TwoFactorError("twofa_wrong_code", "Codice errato: controlla l'ora del telefono e riprova.")
    with transaction.atomic():
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        StaticDevice.objects.filter(user=user).delete()
        static = StaticDevice.objects.create(user=user, name=RECOVERY_NAME, confirmed=True)
        codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
        StaticToken.objects.bulk_create([StaticToken(device=static, token=c) for c in codes])
        audit_record(actor=user, action="twofa.enrol", target=user)
    _verified(request, user, device)
    return codes


# --- verification ----------------------------------------------------------------------------------


def _digits(code: str) -> str:
    return "".join(ch for ch in str(code) if not ch.isspace())[:16]


def _recovery(code: str) -> str:
    return "".join(ch for ch in str(code).lower() if ch.isalnum())[:16]


def verify(*, request: HttpRequest, user: User, code: str) -> Device:
    """Verify the session with a TOTP code or a recovery code (which is used up); audited.

    A wrong code counts as a failed login (``failed``); a device throttled by recent wrong codes
    refuses even a right one until its wait is over. No transaction around it: the failures it
    counts must stay written when it refuses.
    """
    check_not_locked(request=request, user=user)
    totp = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if totp is None:
        raise TwoFactorError("twofa_not_enrolled", "Attiva prima la verifica in due passaggi.")
    allowed, _ = totp.verify_is_allowed()
    if not allowed:
        raise TwoFactorError("twofa_throttled", "Troppi codici errati: attendi qualche secondo e riprova.")
    digits = _digits(code)
    if digits.isdigit() and len(digits) == totp.digits:
        if totp.verify_token(digits):  # a wrong code is counted by the device itself
            _verified(request, user, totp)
            audit_record(actor=user, action="twofa.verify", target=user)
            return totp
    else:
        static = StaticDevice.objects.filter(user=user, confirmed=True).first()
        if static is not None and _use_recovery(static, _recovery(code)):
            _verified(request, user, static)
            left = static.token_set.count()
            audit_record(actor=user, action="twofa.recovery_used", target=user, data={"left": left})
            return static
        totp.throttle_increment()
    failed(request=request, user=user)
    raise TwoFactorError("twofa_wrong_code", "Codice errato.")


def _use_recovery(static: StaticDevice, code: str) -> bool:
    """Use up one recovery code: deleted by one request only, however many race for it."""
    if not code:
        return False
    deleted, _ = StaticToken.objects.filter(device=static, token=code).delete()
    return deleted > 0


def _verified(request: HttpRequest, user: User, device: Device) -> None:
    request.session.cycle_key()  # a fresh session key once the second factor is in
    otp_login(request, device)
    request.session.pop(FAILURES_KEY, None)
    request.session.pop(PENDING_KEY, None)
    touch(request.session)


def check_not_locked(*, request: HttpRequest, user: User) -> None:
    """Refuse every code, right or wrong, while the lockout holds the account or the address."""
    from axes.handlers.proxy import AxesProxyHandler

    if AxesProxyHandler.is_locked(request, credentials={"username": user.nickname}):
        raise TwoFactorError("twofa_locked", "Troppi tentativi non riusciti: accesso bloccato per 15 minuti.")


def failed(*, request: HttpRequest, user: User) -> int:
    """Count a wrong code: a failed login of the account for the lockout, and one more this session."""
    user_login_failed.send(sender=__name__, credentials={"username": user.nickname}, request=request)
    count = int(request.session.get(FAILURES_KEY, 0)) + 1
    request.session[FAILURES_KEY] = count
    return count


def too_many_failures(request: HttpRequest, error: TwoFactorError) -> bool:
    """Tell whether a refusal signs the session out: the lockout holds, or too many wrong codes."""
    if error.code == "twofa_locked":
        return True
    return int(request.session.get(FAILURES_KEY, 0)) >= settings.TWOFA_MAX_FAILURES


def recovery_codes_left(user: User) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


# --- reset by another staff member -----------------------------------------------------------------


@transaction.atomic
def devices_reset(*, actor: User, target: User, reason: str) -> int:
    """Remove ``target``'s authenticator and recovery codes: he enrols again at his next sign-in.

    Only staff, never on their own account (another staff member does it, after checking who asks);
    a superuser's devices only by a superuser. Every session verified with them is no longer
    verified. Audited with the reason.
    """
    if not roles.has_staff_role(actor):
        raise TwoFactorError("twofa_forbidden", "Solo lo staff può azzerare la verifica in due passaggi.")
    if actor.pk == target.pk:
        raise TwoFactorError(
            "twofa_own_reset", "Non puoi azzerare la tua verifica: chiedilo a un altro membro dello staff."
        )
    if target.is_superuser and not actor.is_superuser:
        raise TwoFactorError("twofa_forbidden", "Solo un superutente può azzerare quella di un superutente.")
    if len(reason.strip()) < 5:
        raise TwoFactorError("twofa_reason", "La motivazione è obbligatoria.")
    removed = 0
    for model in (TOTPDevice, StaticDevice):
        count, _ = model.objects.filter(user=target).delete()
        removed += count
    audit_record(actor=actor, action="twofa.reset", target=target, reason=reason)
    sockets_close(user_id=target.pk)  # his sessions are no longer verified: their sockets close
    return removed


def secret_b32(device: TOTPDevice) -> str:
    """The authenticator's secret as typed by hand (base 32, in groups of four)."""
    secret = b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


# --- staff sockets: closed when their session ends ------------------------------------------------

SIGNOUT_EVENT = "staff.signout"  # the channel-layer message that closes a staff member's sockets


def session_group(session_key: str) -> str:
    """The channel-layer group of the staff sockets opened with one session (its key hashed: the
    key itself never leaves the database)."""
    return "staff-session." + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def user_group(user_id: int) -> str:
    """The channel-layer group of every staff socket of one account."""
    return f"staff-user.{user_id}"


def sockets_close(*, session_key: str | None = None, user_id: int | None = None) -> None:
    """Close the open staff sockets of a session, or of every session of an account, after commit
    (sign-out, idle sign-out, a reset of the second factor)."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    groups = []
    if session_key:
        groups.append(session_group(session_key))
    if user_id is not None:
        groups.append(user_group(user_id))
    layer = get_channel_layer()
    if layer is None or not groups:
        return

    def send() -> None:
        for group in groups:
            async_to_sync(layer.group_send)(group, {"type": SIGNOUT_EVENT})

    transaction.on_commit(send)


def signed_out(*, request: HttpRequest | None, user: Any) -> None:
    """A sign-out (``user_logged_out``, idle sign-outs included): the staff member's sockets opened
    with this session close now."""
    session = getattr(request, "session", None)
    if user is not None and required(user) and session is not None and session.session_key:
        sockets_close(session_key=session.session_key)


class StaffSocketGuard:
    """ASGI middleware inside ``socketauth.socket_auth``: a staff or moderator socket whose
    session is not verified with a second factor, or is idle past the timeout, is anonymous (the
    consumers close it with 4401). Player sockets pass untouched.

    A staff socket let through stays tied to its session: it joins the session's and the account's
    channel-layer groups, and is closed with 4401 (the consumer sees a disconnect) when the session
    is signed out (``sockets_close``) or reaches the idle timeout while the socket is open.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        from channels.db import database_sync_to_async
        from django.contrib.auth.models import AnonymousUser

        user = scope.get("user")
        if user is not None and required(user):
            session = scope.get("session")
            allowed = session is not None and await database_sync_to_async(_socket_allowed)(user, session)
            if not allowed:
                scope = {**scope, "user": AnonymousUser()}
            elif session.session_key:
                return await _StaffSocket(user, session.session_key).run(self.inner, scope, receive, send)
        return await self.inner(scope, receive, send)


def _socket_allowed(user: Any, session: Any) -> bool:
    return not idle_expired(session) and session_verified(user, session)


def _session_still_live(user: Any, session_key: str) -> float | None:
    """Reload the session: None when it is signed out, idle past the timeout or no longer verified;
    else the moment (Unix seconds) it would reach the idle timeout."""
    from importlib import import_module

    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    if not store.exists(session_key) or not _socket_allowed(user, store):
        return None
    seen = store.get(SEEN_KEY)
    base = time.time() if seen is None else float(seen)
    return base + settings.TWOFA_IDLE_MINUTES * 60


class _StaffSocket:
    """One staff socket between the server and its consumer: closed from outside on a sign-out
    message or at its session's idle timeout."""

    DISCONNECT: ClassVar[dict[str, Any]] = {"type": "websocket.disconnect", "code": CLOSE_SIGNED_OUT}

    def __init__(self, user: Any, session_key: str) -> None:
        self.user = user
        self.session_key = session_key
        self.closed = asyncio.Event()
        self.pending: asyncio.Future[Any] | None = None

    async def run(self, inner: Any, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        if layer is None:
            return await inner(scope, receive, send)
        channel = await layer.new_channel()
        groups = (session_group(self.session_key), user_group(self.user.pk))
        for group in groups:
            await layer.group_add(group, channel)
        self.receive_from_client = receive
        self.send_to_client = send
        watcher = asyncio.ensure_future(self._watch(layer, channel, send))
        try:
            return await inner(scope, self._receive, self._send)
        finally:
            watcher.cancel()
            if self.pending is not None:
                self.pending.cancel()
            for group in groups:
                await layer.group_discard(group, channel)

    async def _watch(self, layer: Any, channel: str, send: Any) -> None:
        """Wait for a sign-out message or the idle timeout, then close the socket with 4401."""
        signout = asyncio.ensure_future(self._signout(layer, channel))
        idle = asyncio.ensure_future(self._idle())
        try:
            await asyncio.wait({signout, idle}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            signout.cancel()
            idle.cancel()
        for task in (signout, idle):
            if task.done() and not task.cancelled() and task.exception() is not None:
                # the channel layer or the database failed: the socket is closed all the same
                logger.warning("staff socket watcher failed: %r", task.exception())
        self.closed.set()
        try:
            await send({"type": "websocket.close", "code": CLOSE_SIGNED_OUT})
        except Exception:  # the client left first: there is nothing left to close
            logger.debug("staff socket already gone at its sign-out close")

    async def _signout(self, layer: Any, channel: str) -> None:
        while (await layer.receive(channel)).get("type") != SIGNOUT_EVENT:
            pass

    async def _idle(self) -> None:
        from channels.db import database_sync_to_async

        while True:
            deadline = await database_sync_to_async(_session_still_live)(self.user, self.session_key)
            if deadline is None:
                return
            await asyncio.sleep(max(deadline - time.time(), 0) + 1)

    async def _receive(self) -> Any:
        """The client's next message, or a disconnect once the socket was closed from here."""
        if self.closed.is_set():
            return self.DISCONNECT
        if self.pending is None:
            self.pending = asyncio.ensure_future(self.receive_from_client())
        closing = asyncio.ensure_future(self.closed.wait())
        try:
            await asyncio.wait({self.pending, closing}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closing.cancel()
        if self.pending.done():
            message, self.pending = self.pending.result(), None
            return message
        return self.DISCONNECT

    async def _send(self, message: dict[str, Any]) -> None:
        if not self.closed.is_set():  # nothing more reaches a socket closed for its sign-out
            await self.send_to_client(message)
