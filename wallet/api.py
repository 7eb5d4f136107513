"""REST API of the conto di gioco: balance and statement (session authentication, read-only)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

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
    source = SourceSerializer(
        allow_null=True, help_text="Il tavolo o il torneo da cui viene il movimento (null: nessuno)."
    )


class StatementSerializer(serializers.Serializer[dict[str, Any]]):  # type: ignore[misc]  # DRF: no stubs
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    num_pages = serializers.IntegerField()
    results = MovementSerializer(many=True)


class StatementQuerySerializer(serializers.Serializer[dict[str, Any]]):  # type: ignore[misc]  # DRF: no stubs
    page = serializers.IntegerField(required=False, min_value=1, default=1)
    kind = serializers.ChoiceField(choices=TransactionKind.choices, required=False)
    account = serializers.ChoiceField(choices=[("cash", "cash"), ("bonus", "bonus")], required=False)
    date_from = serializers.DateField(required=False)
    date_to = serializers.DateField(required=False)


def _user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


class BalanceView(APIView):  # type: ignore[misc]  # DRF ships no type stubs
    """The player's balance."""

    @extend_schema(operation_id="conto_saldo", responses=BalanceSerializer, tags=["conto"])
    def get(self, request: Request) -> Response:
        b = selectors.balance_get(user=_user(request))
        data = {
            "currency": "EUR",
            **{k: b[k] for k in ("cash", "held", "available", "bonus")},
            "formatted": {k: format_eur(b[k]) for k in ("cash", "held", "available", "bonus")},
        }
        return Response(BalanceSerializer(data).data)


class StatementView(APIView):  # type: ignore[misc]  # DRF ships no type stubs
    """The player's movimenti on conto and bonus, newest first, 25 per page."""

    @extend_schema(
        operation_id="conto_movimenti",
        parameters=[
            OpenApiParameter("page", OpenApiTypes.INT, description="Pagina (da 1)."),
            OpenApiParameter(
                "kind", OpenApiTypes.STR, enum=TransactionKind.values, description="Tipo di movimento."
            ),
            OpenApiParameter(
                "account", OpenApiTypes.STR, enum=["cash", "bonus"], description="Conto o bonus."
            ),
            OpenApiParameter("date_from", OpenApiTypes.DATE, description="Dal giorno (incluso)."),
            OpenApiParameter("date_to", OpenApiTypes.DATE, description="Al giorno (incluso)."),
        ],
        responses=StatementSerializer,
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
