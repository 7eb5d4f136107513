"""URL configuration: pages, auth, back office, API, health."""

from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

import piattaforma.converters  # noqa: F401  # registers <id:...>
from piattaforma import views, views_twofa
from piattaforma.backoffice import site as backoffice
from piattaforma.forms import LoginForm

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", views.metrics_view, name="metrics"),
    path("favicon.ico", views.favicon),
    path("backoffice/", backoffice.urls),
    path("account/registrati/", views.signup, name="signup"),
    path(
        "account/accedi/",
        auth_views.LoginView.as_view(authentication_form=LoginForm, redirect_authenticated_user=True),
        name="login",
    ),
    path("account/esci/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/due-passaggi/", views_twofa.verify, name="twofa_verify"),
    path("account/due-passaggi/attiva/", views_twofa.enrol, name="twofa_enrol"),
    path("account/password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("account/password/fatto/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("account/password/reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "account/password/reset/inviata/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "account/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "account/password/reset/completato/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("profilo/", views.profile, name="profile"),
    path("profilo/opzioni/<slug:game>/", views.game_options_edit, name="game_options"),
    path("profilo/identita/", views.identity, name="identity"),
    path(
        "backoffice-documenti/<id:document_id>/", views.identity_document_file, name="identity_document_file"
    ),
    path("conto/", include("wallet.urls")),
    path("lobby/", include("lobby.urls")),
    path("moderazione/", include("moderation.urls")),
    path("tornei/", include("tournaments.urls")),
    path("regole/", include("rules.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("i18n/", include("django.conf.urls.i18n")),
]
