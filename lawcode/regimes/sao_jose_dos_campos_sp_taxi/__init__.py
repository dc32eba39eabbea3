"""São José dos Campos-SP taxi service (Lei 8.698/2012; Lei 9.093/2014, armoured cabin): importing registers its
rules."""

from .rules import (  # noqa: F401  (imported for their @rule side effect)
    inspection,
    law,
    permit,
    procedures,
    registration,
    sanctions,
    standing,
    validity,
)
