"""Reports fixtures: the due-process ones (agents, judges, finance staff, a licensed vehicle, PIX settings, an
isolated MEDIA_ROOT), reused as they are."""

from apps.dueprocess.tests.conftest import _pix, finance_olimpia  # noqa: F401  (fixture reuse)
from apps.enforcement.tests.conftest import (  # noqa: F401  (fixture reuse)
    _media_root,
    agent_olimpia,
    judge_olimpia,
    olimpia_licensed,
)
from apps.licensing.tests.conftest import _votuporanga_fleet_cap  # noqa: F401
