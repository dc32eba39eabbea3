from apps.licensing.tests.conftest import (  # noqa: F401  (fixture reuse)
    _media_root,
    _votuporanga_fleet_cap,
    analyst_votuporanga,
    olimpia_pf,
)
