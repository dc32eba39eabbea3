from __future__ import annotations

from typing import cast

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.models import User
from apps.finance import services
from apps.finance.api.serializers import PaymentGuideSerializer, PaymentRegisterSerializer
from apps.finance.models import PaymentGuide


def _actor(request: Request) -> User:
    """The authenticated staff member (the API's default permission is IsAuthenticated)."""
    return cast(User, request.user)


@extend_schema_view(
    list=extend_schema(
        parameters=[
            OpenApiParameter("municipality", str, description="Código IBGE do município (7 dígitos)"),
            OpenApiParameter("status", str, enum=["open", "paid", "cancelled", "refunded"]),
        ]
    )
)
class PaymentGuideViewSet(viewsets.ReadOnlyModelViewSet[PaymentGuide]):
    """Payment guides of the municipalities where the user may read them; others answer 404.

    The payer's CPF/CNPJ is not part of the API (personal data: read it on the audited guide page).
    """

    lookup_value_regex = r"[0-9]+"  # a non-numeric id is an unknown address (404), never a 500

    serializer_class = PaymentGuideSerializer
    queryset = PaymentGuide.objects.none()  # schema generation only; real reads go through get_queryset

    def get_queryset(self) -> QuerySet[PaymentGuide]:
        guides = PaymentGuide.objects.for_user(self.request.user, "view").select_related(
            "municipality", "payment"
        )
        municipality = self.request.query_params.get("municipality")
        status_filter = self.request.query_params.get("status")
        if municipality:
            guides = guides.filter(municipality__ibge_code=municipality)
        if status_filter:
            guides = guides.filter(status=status_filter)
        return guides.order_by("-year", "-sequence")

    @extend_schema(request=PaymentRegisterSerializer, responses={201: PaymentGuideSerializer})
    @action(detail=True, methods=["post"])
    def payment(self, request: Request, pk: str | None = None) -> Response:
        """Register the payment of an open guide (finance role); refusals answer 400 naming the field."""
        guide = self._guide_for_change(pk)
        data = PaymentRegisterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            services.payment_register(
                actor=_actor(request),
                guide=guide,
                as_of=timezone.localdate(),
                **data.validated_data,
            )
        except DjangoValidationError as exc:
            return Response(
                exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages},
                status=status.HTTP_400_BAD_REQUEST,
            )
        guide.refresh_from_db()
        return Response(PaymentGuideSerializer(guide).data, status=status.HTTP_201_CREATED)

    def _guide_for_change(self, pk: str | None) -> PaymentGuide:
        guide = PaymentGuide.objects.for_user(self.request.user, "change").filter(pk=str(pk)).first()
        if guide is None:
            raise NotFound("Registro não encontrado.")
        return guide
