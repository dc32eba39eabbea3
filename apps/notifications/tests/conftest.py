"""Notification tests reuse the portal's personas (alice, bob, marcos) and the inspections' Patrocínio case."""

from apps.dueprocess.tests.conftest import _pix  # noqa: F401  (fixture reuse)
from apps.enforcement.tests.conftest import (  # noqa: F401  (fixture reuse)
    _media_root,
    agent_olimpia,
    judge_olimpia,
    olimpia_licensed,
    votuporanga_licensed,
)
from apps.inspections.tests.conftest import patrocinio_case  # noqa: F401  (fixture reuse)
from apps.licensing.tests.conftest import _votuporanga_fleet_cap  # noqa: F401  (fixture reuse)
from apps.portal.tests.conftest import (  # noqa: F401  (fixture reuse)
    alice,
    alice_case,
    alice_client,
    alice_permit,
    bob,
    bob_licensed,
    make_case,
    make_guide,
    marcos,
)
