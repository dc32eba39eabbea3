"""API routes of licensing, included by outorga/urls.py under /api/v1/licensing/."""

from rest_framework.routers import SimpleRouter

from apps.licensing.api.views import ApplicationViewSet, PermitViewSet

router = SimpleRouter()
router.register("applications", ApplicationViewSet, basename="licensing-application")
router.register("permits", PermitViewSet, basename="licensing-permit")

urlpatterns = router.urls
