"""API routes of finance, included by outorga/urls.py under /api/v1/finance/."""

from rest_framework.routers import SimpleRouter

from apps.finance.api.views import PaymentGuideViewSet

router = SimpleRouter()
router.register("guides", PaymentGuideViewSet, basename="finance-guide")

urlpatterns = router.urls
