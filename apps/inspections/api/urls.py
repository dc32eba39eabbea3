"""API routes of inspections, included by outorga/urls.py under /api/v1/inspections/."""

from rest_framework.routers import SimpleRouter

from apps.inspections.api.views import InspectionViewSet

router = SimpleRouter()
router.register("inspections", InspectionViewSet, basename="inspections-inspection")

urlpatterns = router.urls
