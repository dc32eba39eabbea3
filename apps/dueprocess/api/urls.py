"""API routes of due process, included by outorga/urls.py under /api/v1/dueprocess/."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from apps.dueprocess.api.views import ActiveDebtView, AppealViewSet, SanctionViewSet

router = SimpleRouter()
router.register("appeals", AppealViewSet, basename="dueprocess-appeal")
router.register("sanctions", SanctionViewSet, basename="dueprocess-sanction")

urlpatterns = [*router.urls, path("active-debt/", ActiveDebtView.as_view(), name="dueprocess-active-debt")]
