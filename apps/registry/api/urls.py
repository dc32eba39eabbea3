"""API routes of the registry, included by outorga/urls.py under /api/v1/registry/."""

from rest_framework.routers import SimpleRouter

from apps.registry.api.views import DocumentViewSet, DriverViewSet, OperatorViewSet, VehicleViewSet

router = SimpleRouter()
router.register("operators", OperatorViewSet, basename="registry-operator")
router.register("vehicles", VehicleViewSet, basename="registry-vehicle")
router.register("drivers", DriverViewSet, basename="registry-driver")
router.register("documents", DocumentViewSet, basename="registry-document")

urlpatterns = router.urls
