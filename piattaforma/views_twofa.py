"""The two-factor pages of staff and moderators: enrol an authenticator, verify a sign-in.

Mounted at ``/account/due-passaggi/`` (``StaffSessionMiddleware`` lets an unverified session reach
only these and the exit). The rules are in ``piattaforma.twofa``.
"""

from __future__ import annotations

import qrcode
import qrcode.image.svg
from django import forms
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from django_otp.plugins.otp_totp.models import TOTPDevice

from piattaforma import twofa
from piattaforma.models import User


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Codice"),
        max_length=32,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autofocus": True, "spellcheck": "false"}
        ),
    )


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure())
    return target if allowed and target.startswith("/") else "/"


def _qr_svg(uri: str) -> str:
    """The provisioning URI as an inline SVG (paths only: no script, no style, CSP-safe)."""
    image = qrcode.make(uri, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    return image.to_string(encoding="unicode")


def _signed_out_for_failures(request: HttpRequest) -> HttpResponse:
    logout(request)
    return render(request, "twofa/signed_out.html", status=403)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def enrol(request: HttpRequest) -> HttpResponse:
    """Staff and moderators without an authenticator: the QR code and the secret, then the first code."""
    user = request.user
    assert isinstance(user, User)
    if not twofa.required(user):
        return redirect("home")
    if twofa.enrolled(user):
        return redirect("twofa_verify")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            codes = twofa.enrolment_confirm(
                request=request,
                user=user,
                device_id=int(request.session.get(twofa.PENDING_KEY) or 0),
                code=form.cleaned_data["code"],
            )
        except twofa.TwoFactorError as exc:
            if twofa.too_many_failures(request, exc):
                return _signed_out_for_failures(request)
            form.add_error("code", exc.message)
        else:
            return render(request, "twofa/recovery_codes.html", {"codes": codes, "next": _next(request)})
    device = TOTPDevice.objects.filter(pk=request.session.get(twofa.PENDING_KEY) or 0, user=user).first()
    if device is None or request.method == "GET":
        device = twofa.enrolment_start(user=user)  # a new secret at every visit: shown once
        request.session[twofa.PENDING_KEY] = device.pk
    return render(
        request,
        "twofa/enrol.html",
        {
            "form": form,
            "qr": mark_safe(_qr_svg(device.config_url)),  # noqa: S308  (qrcode's own SVG of our URI)
            "secret": twofa.secret_b32(device),
            "next": _next(request),
        },
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def verify(request: HttpRequest) -> HttpResponse:
    """The second step of every sign-in: a code from the authenticator, or a recovery code."""
    user = request.user
    assert isinstance(user, User)
    if not twofa.required(user):
        return redirect("home")
    if not twofa.enrolled(user):
        return redirect("twofa_enrol")
    if user.is_verified():  # type: ignore[attr-defined]  # django_otp's OTPMiddleware
        return redirect(_next(request))
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            device = twofa.verify(request=request, user=user, code=form.cleaned_data["code"])
        except twofa.TwoFactorError as exc:
            if twofa.too_many_failures(request, exc):
                return _signed_out_for_failures(request)
            form.add_error("code", exc.message)
        else:
            if device.persistent_id.startswith("otp_static"):
                left = twofa.recovery_codes_left(user)
                return render(request, "twofa/recovery_used.html", {"left": left, "next": _next(request)})
            return redirect(_next(request))
    return render(request, "twofa/verify.html", {"form": form, "next": _next(request)})
