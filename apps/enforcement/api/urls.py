"""API routes of enforcement, included by outorga/urls.py under /api/v1/enforcement/."""

from rest_framework.routers import SimpleRouter

from apps.enforcement.api.views import CaseViewSet, NoticeViewSet

router = SimpleRouter()
router.register("cases", CaseViewSet, basename="enforcement-case")
router.register("notices", NoticeViewSet, basename="enforcement-notice")

urlpatterns = router.urls
