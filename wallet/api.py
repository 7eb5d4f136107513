"""REST API of the conto di gioco: balance and statement (session authentication, read-only)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from piattaforma.api import ErrorSerializer
from piattaforma.models import User
from wallet import selectors
from wallet.models import TransactionKind
from wallet.money import format_eur


class BalanceSerializer(serializers.Serializer[dict[str, Any]]):  # type: ignore[misc]  # DRF: no stubs
    currency = serializers.CharField(help_text="Sempre EUR.")
    cash = serializers.IntegerField(help_text="Saldo del conto di gioco, in centesimi.")
    held = serializers.IntegerField(
        help_text="Parte vincolata (prelievi e ricariche in attesa), in centesimi."
    )
    available = serializers.IntegerField(help_text="Saldo disponibile, in centesimi.")
    bonus = serializers.IntegerField(help_text="Bonus non prelevabile, in centesimi.")
    formatted = serializers.DictField(
        child=serializers.CharField(), help_text='Importi in italiano ("€ 1.234,50").'
    )


class SourceSerializer(serializers.Serializer[dict[str, Any]]):  # type: ignore[misc]  # DRF: no stubs
    name = serializers.CharField(help_text="Nome del tavolo o del torneo.")
    url = serializers.CharField(help_text="La sua pagina.")


class MovementSerializer(serializers.Serializer[dict[str, Any]]):  # type: ignore[misc]  # DRF: no stubs
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    kind = serializers.ChoiceField(choices=TransactionKind.choices)
    kind_label = serializers.CharField()
    account = serializers.ChoiceField(choices=[("cash", "cash"), ("bonus", "bonus")])
    amount = serializers.IntegerField(help_text="Centesimi: positivo = accredito, negativo = addebito.")
    balance_after = serializers.IntegerField(help_text="Saldo del conto dopo il movimento, in centesimi.")
    transaction_id = serializers.UUIDField()
    memo = serializers.CharField()
    ticket = serializers.CharField(
        allow_blank=True, help_text="Il biglietto AAMS/ADM di un versamento al tavolo (vuoto: nessuno)."
    )
    source = SourceSerializer(
        allow_null=True, help_text="Il tavolo o il torneo da cui viene il movimento (null: nessuno)."
    )


class StatementSerializer(serializers.Serializer[dict[str, Any]]):  # type: ignore[misc]  # DRF: no stubs
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    num_pages = serializers.IntegerField()
    results = MovementSerializer(many=True)


MAX_PAGE = 1_000_000  # far past any statement's last page (25 movements a page)


class StatementQuerySerializer(serializers.Serializer[dict[str, Any]]):  # type: ignore[misc]  # DRF: no stubs
    """The statement's query parameters: the schema's parameters are generated from these fields,
    bounds and choices included, so what it documents is what the view checks."""

    page = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_PAGE,
        default=1,
        help_text="Pagina (da 1); oltre l'ultima: l'ultima.",
    )
    kind = serializers.ChoiceField(
        choices=TransactionKind.choices, required=False, help_text="Tipo di movimento."
    )
    account = serializers.ChoiceField(
        choices=[("cash", "cash"), ("bonus", "bonus")], required=False, help_text="Conto o bonus."
    )
    date_from = serializers.DateField(required=False, help_text="Dal giorno (incluso), AAAA-MM-GG.")
    date_to = serializers.DateField(required=False, help_text="Al giorno (incluso), AAAA-MM-GG.")


NOT_SIGNED_IN = OpenApiResponse(ErrorSerializer, description="Non autenticato (`not_authenticated`).")


def _user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


class BalanceView(APIView):  # type: ignore[misc]  # DRF ships no type stubs
    """The player's balance."""

    @extend_schema(
        operation_id="conto_saldo",
        responses={200: BalanceSerializer, 403: NOT_SIGNED_IN},
        tags=["conto"],
    )
    def get(self, request: Request) -> Response:
        b = selectors.balance_get(user=_user(request))
        data = {
            "currency": "EUR",
            **{k: b[k] for k in ("cash", "held", "available", "bonus")},
            "formatted": {k: format_eur(b[k]) for k in ("cash", "held", "available", "bonus")},
        }
        return Response(BalanceSerializer(data).data)


class StatementView(APIView):  # type: ignore[misc]  # DRF ships no type stubs
    """The player's movimenti on conto and bonus, newest first, 25 per page.

    A parameter with an empty value counts as not given; any other value outside the documented
    bounds or choices is a 400 ``invalid`` with the parameter's errors in ``details``."""

    @extend_schema(
        operation_id="conto_movimenti",
        parameters=[StatementQuerySerializer],
        responses={
            200: StatementSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="Parametri non validi (`invalid`; per parametro in `details`): pagina "
                "fuori dai limiti, tipo o conto sconosciuto, data non valida.",
            ),
            403: NOT_SIGNED_IN,
        },
        tags=["conto"],
    )
    def get(self, request: Request) -> Response:
        query = StatementQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        q = query.validated_data
        page = selectors.statement_page(
            user=_user(request),
            page=q.get("page", 1),
            kind=q.get("kind"),
            account=q.get("account"),
            date_from=q.get("date_from"),
            date_to=q.get("date_to"),
        )
        data = {"count": page.count, "page": page.number, "num_pages": page.num_pages, "results": page.items}
        return Response(StatementSerializer(data).data)
