"""Project URLs. Apps keep their own urls.py; the API router lists every app's viewsets."""

from django.urls import include, path
from drf_spectacular.views import SpectacularJSONAPIView
from rest_framework.routers import DefaultRouter

from apps.tenancy.api.views import MunicipalityViewSet

api_router = DefaultRouter()
api_router.register("municipalities", MunicipalityViewSet, basename="municipality")

urlpatterns = [
    # First: the public lookup is the busiest route by far, and Django tries the patterns in this order.
    path("", include("apps.public.urls")),
    path("", include("apps.accounts.urls")),
    path("", include("apps.web.urls")),
    path("", include("apps.tenancy.urls")),
    path("", include("apps.audit.urls")),
    path("", include("apps.privacy.urls")),
    path("", include("apps.registry.urls")),
    path("", include("apps.lawconfig.urls")),
    path("api/v1/registry/", include("apps.registry.api.urls")),
    path("", include("apps.finance.urls")),
    path("api/v1/finance/", include("apps.finance.api.urls")),
    path("", include("apps.licensing.urls")),
    path("api/v1/licensing/", include("apps.licensing.api.urls")),
    path("", include("apps.inspections.urls")),
    path("api/v1/inspections/", include("apps.inspections.api.urls")),
    path("", include("apps.enforcement.urls")),
    path("api/v1/enforcement/", include("apps.enforcement.api.urls")),
    path("", include("apps.dueprocess.urls")),
    path("api/v1/dueprocess/", include("apps.dueprocess.api.urls")),
    path("", include("apps.portal.urls")),
    path("", include("apps.platforms.urls")),
    path("", include("apps.jobs.urls")),
    path("", include("apps.notifications.urls")),
    path("", include("apps.reports.urls")),
    path("", include("apps.whatif.urls")),
    path("", include("apps.ops.urls")),
    path("", include("apps.replay.urls")),
    path("", include("apps.signing.urls")),
    path("api/v1/openapi.json", SpectacularJSONAPIView.as_view(), name="api-schema"),
    path("api/v1/", include((api_router.urls, "api"), namespace="v1")),
]

handler400 = "apps.web.errors.bad_request"
handler403 = "apps.web.errors.permission_denied"
handler404 = "apps.web.errors.page_not_found"
handler500 = "apps.web.errors.server_error"
