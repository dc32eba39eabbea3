"""Hypothesis profiles shared by every test run (lawcode without Django, and the Django suite).

No profile has a deadline or a health check that depends on the machine's speed: a loaded 2-core CI machine
must not fail a property for being slow. The profile comes from HYPOTHESIS_PROFILE, else ``ci`` when CI is
set, else ``dev``:

- ``dev``: the default number of examples, random seeds (finds new counterexamples over time);
- ``ci``: derandomized (the same examples every run, so CI is reproducible), examples printed on failure;
- ``thorough``: ten times the examples, for a deliberate long run (``HYPOTHESIS_PROFILE=thorough make test``).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

SPEED_CHECKS = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
PROFILES = ("dev", "ci", "thorough")


def load_profile() -> str:
    base = settings(deadline=None, suppress_health_check=SPEED_CHECKS)
    settings.register_profile("dev", base)
    settings.register_profile("ci", base, derandomize=True, print_blob=True)
    settings.register_profile("thorough", base, max_examples=1000)
    default = "ci" if os.environ.get("CI") else "dev"
    name = os.environ.get("HYPOTHESIS_PROFILE", default)
    if name not in PROFILES:
        raise ValueError(f"HYPOTHESIS_PROFILE={name!r}: choose one of {', '.join(PROFILES)}")
    settings.load_profile(name)
    return name
