"""Olímpia-SP, Lei 5.171/2025 (transporte coletivo escolar particular): the regime's rules register here."""

from .rules import law_in_force, procedures, registration, sanctions, standing, vehicle

__all__ = ["law_in_force", "procedures", "registration", "sanctions", "standing", "vehicle"]
