"""Patrocínio-MG, Lei 5.832/2025 — app ride-hailing (transporte remunerado privado individual)."""

from . import rules

__all__ = ["rules"]
