"""Pages of the platform core: home, sign-up, profile and game options, health."""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods
from prometheus_client import CONTENT_TYPE_LATEST

from games import options as game_options
from games import registry
from piattaforma import actions, health, hooks, metrics
from piattaforma.forms import CheckedPasswordChangeForm, GameOptionsForm, IdentityDocumentForm, SignupForm
from piattaforma.models import IdentityDocument, User
from wallet import actions as wallet_actions
from wallet.forms import OpeningLimitsForm
from wallet.money import format_money


def home(request: HttpRequest) -> HttpResponse:
    """What the site offers, from live data: the registered games with their open tables right now."""
    counts = hooks.open_tables()  # the lobby counts its tables (the core does not import it)
    per_game = {game: tables for game, (tables, _) in counts.items()}
    seated = {game: players for game, (_, players) in counts.items()}
    games = []
    for name in registry.names():
        engine = registry.get(name)
        games.append(
            {
                "game": name,
                "title": engine.title,
                "family": engine.family,
                "min_seats": engine.min_seats,
                "max_seats": engine.max_seats,
                "tables": per_game.get(name, 0),
                "seated": seated.get(name, 0),
            }
        )
    games.sort(key=lambda g: (-g["tables"], g["title"]))
    return render(
        request,
        "home.html",
        {
            "games": games,
            "families": [(f, [g for g in games if g["family"] == f]) for f in ("puntate", "partite")],
            "open_tables": sum(per_game.values()),
            "seated_players": sum(seated.values()),
        },
    )


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    # the deposit limits are set (or the defaults explicitly accepted) as the account opens
    limits_form = OpeningLimitsForm(request.POST or None, prefix="limiti")
    if request.method == "POST" and all([form.is_valid(), limits_form.is_valid()]):
        data = form.cleaned_data
        try:
            with transaction.atomic():  # the account and its deposit limits, together
                user = actions.user_sign_up(
                    nickname=data["nickname"],
                    email=data["email"],
                    date_of_birth=data["date_of_birth"],
                    password=data["password1"],
                    first_name=data["first_name"],
                    last_name=data["last_name"],
                    sex=data["sex"],
                    codice_fiscale=data["codice_fiscale"],
                    city=data.get("city", ""),
                )
                wallet_actions.deposit_limits_open(user=user, limits=limits_form.limits())
                wallet_actions.play_money_welcome(user=user)  # the training section's gettoni
        except (IntegrityError, ValidationError):  # the same person or name signed up meanwhile
            form.add_error(
                None, _("Nickname, e-mail o codice fiscale già registrati: il conto non è stato aperto.")
            )
            return render(
                request,
                "registration/signup.html",
                {"form": form, "limits_form": limits_form, "default_limits": OpeningLimitsForm.defaults()},
            )
        login(request, user, backend="piattaforma.auth.NicknameOrEmailBackend")
        messages.success(
            request,
            _(
                "Benvenuto, %(nickname)s! Il tuo conto di gioco è aperto, e per l'allenamento hai"
                " %(gettoni)s gratis."
            )
            % {"nickname": user, "gettoni": format_money(wallet_actions.PLAY_GRANT, "play")},
        )
        return redirect("home")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "limits_form": limits_form, "default_limits": OpeningLimitsForm.defaults()},
    )


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change, with the old password checked through the login lockout."""

    form_class = CheckedPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "profile/profile.html", {"games": game_options.GAMES.values()})


@login_required
def game_options_edit(request: HttpRequest, game: str) -> HttpResponse:
    """The player's own options for a game: the profile's page, and the table's "Opzioni" dialog.

    The dialog posts here asking for JSON (``Accept: application/json``): the options saved and when
    they take effect, or a 400 ``invalid_options`` with each field's error and nothing stored.
    Without JavaScript it posts the form with ``next``, the table's page to come back to.
    """
    wants_json = "application/json" in request.headers.get("Accept", "")
    if game not in game_options.GAMES:
        if wants_json:
            return JsonResponse({"code": "unknown_game", "message": _("Gioco sconosciuto.")}, status=404)
        raise Http404
    current = actions.preferences_get(user=request.user, game=game)  # type: ignore[arg-type]  # login_required: request.user is a User
    form = GameOptionsForm(game, request.POST or None, initial_values=current)
    if request.method == "POST" and form.is_valid():
        values = actions.preferences_save(user=request.user, game=game, values=form.values)  # type: ignore[arg-type]  # login_required: request.user is a User
        if wants_json:
            saved = _("Opzioni di gioco salvate.")
            return JsonResponse({"values": values, "message": saved, "applies_from": form.applies_from})
        messages.success(request, _("Opzioni di gioco salvate."))
        target = request.POST.get("next", "")
        if url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
            return redirect(target)
        return redirect("game_options", game=game)
    if request.method == "POST" and wants_json:
        errors = {key: [str(e) for e in errs] for key, errs in form.errors.items()}
        message = _("Opzioni non salvate: controlla i campi evidenziati.")
        return JsonResponse({"code": "invalid_options", "message": message, "errors": errors}, status=400)
    return render(
        request,
        "profile/game_options.html",
        {"form": form, "game": game_options.GAMES[game], "games": game_options.GAMES.values()},
    )


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask /favicon.ico: send them to the SVG icon (resolved at request time)."""
    return redirect(static("favicon.svg"), permanent=True)


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    deep = request.GET.get("deep") == "1"
    if deep and not health.deep_allowed(request):
        message = _("Il controllo approfondito è riservato allo staff e alle sonde locali.")
        return JsonResponse({"code": "deep_check_forbidden", "message": message}, status=403)
    parts = health.report(deep=deep)
    ok = all(v == "ok" for v in parts.values())
    return JsonResponse({"status": "ok" if ok else "failing", **parts}, status=200 if ok else 503)


def metrics_allowed(request: HttpRequest) -> bool:
    """Tell whether a request may read ``/metrics``: it bears ``METRICS_TOKEN`` as a bearer token,
    or comes from an address (or network) of ``METRICS_ALLOWED_IPS``. Neither set: nobody may."""
    token = str(getattr(settings, "METRICS_TOKEN", "") or "")
    if token:
        given = request.META.get("HTTP_AUTHORIZATION", "")
        if given.startswith("Bearer ") and hmac.compare_digest(given[7:].strip().encode(), token.encode()):
            return True
    networks = getattr(settings, "METRICS_ALLOWED_IPS", ()) or ()
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR") or "")
    except ValueError:
        return False
    for net in networks:
        try:
            if address in ipaddress.ip_network(net, strict=False):
                return True
        except ValueError:  # not a network (system check piattaforma.E002): it allows nobody
            continue
    return False


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    """The Prometheus scrape (``piattaforma.metrics``); 403 to anyone ``metrics_allowed`` refuses."""
    if not metrics_allowed(request):
        message = _("Le metriche sono riservate al sistema di monitoraggio.")
        return JsonResponse({"code": "metrics_forbidden", "message": message}, status=403)
    return HttpResponse(metrics.exposition(), content_type=CONTENT_TYPE_LATEST)


@login_required
@require_http_methods(["GET", "POST"])
def identity(request: HttpRequest) -> HttpResponse:
    """The player's identity verification: its state, his documents, the upload of a new one."""
    user = request.user
    assert isinstance(user, User)
    form = IdentityDocumentForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            actions.identity_document_upload(
                user=user, kind=form.cleaned_data["kind"], upload=form.cleaned_data["file"]
            )
        except actions.IdentityError as exc:
            form.add_error("file", exc.message)
        else:
            messages.success(request, _("Documento caricato: lo staff lo esaminerà al più presto."))
            return redirect("identity")
    documents = IdentityDocument.objects.filter(user=user).order_by("-uploaded_at", "-id")
    pending = any(d.status == IdentityDocument.Status.PENDING for d in documents)
    return render(
        request,
        "profile/identity.html",
        {"form": form, "documents": documents, "pending": pending, "verified": user.identity_verified},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_GET
def identity_document_file(request: HttpRequest, document_id: int) -> FileResponse:
    """A document's file, for staff who review documents only (the storage has no public URL)."""
    if not request.user.has_perm("piattaforma.review_identitydocument"):
        raise PermissionDenied
    document = get_object_or_404(IdentityDocument, pk=document_id)
    # who looked at a person's identity document is on record (personal data)
    actions.audit_record(actor=request.user, action="identity.document_view", target=document)
    response = FileResponse(document.file.open("rb"), content_type=document.content_type)
    # images open in the browser; a PDF downloads (the site's CSP forbids the browser's PDF plugin)
    disposition = "attachment" if document.content_type == "application/pdf" else "inline"
    extension = {"application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png"}[document.content_type]
    response["Content-Disposition"] = f'{disposition}; filename="documento-{document.pk}.{extension}"'
    response["Cache-Control"] = "private, no-store"
    return response
