"""Votuporanga-SP school transport (Lei 5.722/2015, amended by Lei 6.151/2018): importing registers its rules."""

from .rules import (  # noqa: F401  (imported for their @rule side effect)
    drivers,
    inspection,
    operator,
    permit,
    procedures,
    sanctions,
    service,
    standing,
    validity,
)
