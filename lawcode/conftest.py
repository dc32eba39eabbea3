"""Settings for every test under lawcode/ (core and regime folders), with or without Django."""

from lawcode.tests.hypothesis_profiles import load_profile

load_profile()
