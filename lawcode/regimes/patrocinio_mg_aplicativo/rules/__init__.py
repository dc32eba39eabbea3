"""Rules of Lei 5.832/2025 (Patrocínio-MG); importing this package registers every @rule."""

from . import driver, procedures, vehicle, vigencia

__all__ = ["driver", "procedures", "vehicle", "vigencia"]
