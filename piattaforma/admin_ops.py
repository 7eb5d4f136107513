"""Back office of site operations: game switches (with a preview of their effects), site hours, notices."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from piattaforma import hooks, siteops
from piattaforma.actions import audit_record
from piattaforma.backoffice import site
from piattaforma.models import GameNotice, GameSwitch, SiteHours, User

if TYPE_CHECKING:
    SwitchAdminBase = admin.ModelAdmin[GameSwitch]
    HoursAdminBase = admin.ModelAdmin[SiteHours]
    NoticeAdminBase = admin.ModelAdmin[GameNotice]
else:
    SwitchAdminBase = HoursAdminBase = NoticeAdminBase = admin.ModelAdmin


def _actor(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # behind the back-office login
    return request.user


class SwitchForm(forms.Form):
    money_enabled = forms.BooleanField(label=_("Attivo nella sezione money"), required=False)
    training_enabled = forms.BooleanField(label=_("Attivo nella sezione allenamento"), required=False)
    reactivate_at = forms.DateTimeField(
        label=_("Riattivazione prevista (facoltativa)"),
        required=False,
        help_text=_("Si annullano i tornei programmati che sarebbero iniziati prima (tutti se vuota)."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%d/%m/%Y %H:%M"],
    )
    reason = forms.CharField(label=_("Motivazione"), widget=forms.Textarea(attrs={"rows": 3}), min_length=5)


@admin.register(GameSwitch, site=site)
class GameSwitchAdmin(SwitchAdminBase):
    """Every game with its switch; switching goes through a page that says what will happen first."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<str:game>/switch/",
                self.admin_site.admin_view(self.switch_view),
                name="piattaforma_gameswitch_switch",
            ),
            *super().get_urls(),
        ]

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        switches = {s.game: s for s in GameSwitch.objects.all()}
        rows = []
        for name, title in siteops.switchable_games().items():
            switch = switches.get(name) or GameSwitch(game=name)
            rows.append(
                {
                    "game": name,
                    "title": title,
                    "money": switch.money_enabled,
                    "training": switch.training_enabled,
                    "label": siteops.switch_label(switch),
                    "reason": switch.reason,
                    "changed_at": switch.changed_at if switch.pk else None,
                    "url": reverse("backoffice:piattaforma_gameswitch_switch", args=[name]),
                }
            )
        return render(
            request,
            "admin/piattaforma/game_switches.html",
            {
                **self.admin_site.each_context(request),
                "rows": rows,
                "can_change": self.has_change_permission(request),
                "opts": self.model._meta,
                "title": _("Attivazione giochi"),
            },
        )

    def switch_view(self, request: HttpRequest, game: str) -> HttpResponse:
        if not self.has_change_permission(request):
            raise PermissionDenied
        titles = siteops.switchable_games()
        if game not in titles:
            raise Http404
        switch = GameSwitch.objects.filter(game=game).first() or GameSwitch(game=game)
        initial = {"money_enabled": not switch.money_enabled, "training_enabled": switch.training_enabled}
        form = SwitchForm(request.POST if request.method == "POST" else None, initial=initial)
        preview: list[str] = []
        if form.is_valid():
            data = form.cleaned_data
            was_on = {
                r for r, on in (("real", switch.money_enabled), ("play", switch.training_enabled)) if on
            }
            now_on = {
                r for r, on in (("real", data["money_enabled"]), ("play", data["training_enabled"])) if on
            }
            if "confirm" in request.POST:
                try:
                    siteops.game_switch_set(
                        game=game,
                        money_enabled=data["money_enabled"],
                        training_enabled=data["training_enabled"],
                        actor=_actor(request),
                        reason=data["reason"],
                        reactivate_at=data["reactivate_at"],
                    )
                except siteops.SiteOpsError as exc:
                    self.message_user(request, exc.message, messages.ERROR)
                else:
                    self.message_user(request, _("Attivazione di %(g)s aggiornata.") % {"g": titles[game]})
                    return HttpResponseRedirect(reverse("backoffice:piattaforma_gameswitch_changelist"))
            off = was_on - now_on
            preview = hooks.switch_preview(game=game, realms=off, until=data["reactivate_at"]) if off else []
            if now_on - was_on and "real" in now_on - was_on:
                preview.append(
                    str(_("Riattivazione: le iscrizioni ai sit&go del gioco sono annullate e rimborsate."))
                )
            if not preview:
                preview.append(str(_("Nessun tavolo o torneo interessato.")))
        return render(
            request,
            "admin/piattaforma/game_switch_confirm.html",
            {
                **self.admin_site.each_context(request),
                "form": form,
                "game": game,
                "title_game": titles[game],
                "switch": switch,
                "label": siteops.switch_label(switch),
                "preview": preview,
                "previewed": form.is_bound and form.is_valid(),
                "opts": self.model._meta,
                "title": _("Attivazione di %(g)s") % {"g": titles[game]},
            },
        )


@admin.register(SiteHours, site=site)
class SiteHoursAdmin(HoursAdminBase):
    list_display = ("__str__", "no_registration_from", "no_registration_until", "warn_minutes", "enabled")
    fields = (
        "enabled",
        "closed_from",
        "closed_until",
        "no_registration_from",
        "no_registration_until",
        "warn_minutes",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) and not SiteHours.objects.exists()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        hours, _created = SiteHours.objects.get_or_create(pk=1)  # the one row: straight to its form
        return HttpResponseRedirect(reverse("backoffice:piattaforma_sitehours_change", args=[hours.pk]))

    def save_model(self, request: HttpRequest, obj: SiteHours, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        siteops.site_hours_forget()
        changed = {name: str(form.cleaned_data[name]) for name in form.changed_data}
        audit_record(actor=_actor(request), action="site.hours", target=obj, data=changed)


class NoticeForm(forms.ModelForm):  # type: ignore[type-arg]  # django-stubs generic; plain at run time
    class Meta:
        model = GameNotice
        fields = ("text", "level", "starts_at", "ends_at")


@admin.register(GameNotice, site=site)
class GameNoticeAdmin(NoticeAdminBase):
    form = NoticeForm
    list_display = ("text", "level", "starts_at", "ends_at", "sent_at", "created_by")
    list_filter = ("level",)
    search_fields = ("text",)

    def get_readonly_fields(self, request: HttpRequest, obj: GameNotice | None = None) -> Any:
        # once published only its end moves (to withdraw it early); what players read stays as it was
        return ("text", "level", "starts_at", "sent_at", "created_by") if obj is not None else ()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: GameNotice, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            audit_record(
                actor=_actor(request),
                action="notice.change",
                target=obj,
                data={"ends_at": obj.ends_at.isoformat()},
            )
            return
        data = form.cleaned_data
        created = siteops.notice_publish(
            text=data["text"],
            level=data["level"],
            starts_at=data["starts_at"] or timezone.now(),
            ends_at=data["ends_at"],
            actor=_actor(request),
        )
        obj.pk = created.pk
        obj._state.adding = False
