"""The Hypothesis profile never depends on the machine's speed (no deadline, no too_slow health check)."""

from hypothesis import HealthCheck, settings

from lawcode.tests.hypothesis_profiles import PROFILES


def test_every_profile_ignores_speed() -> None:
    for name in PROFILES:
        profile = settings.get_profile(name)
        assert profile.deadline is None
        assert HealthCheck.too_slow in profile.suppress_health_check


def test_the_loaded_profile_is_one_of_ours() -> None:
    assert settings.default is not None and settings.default.deadline is None
