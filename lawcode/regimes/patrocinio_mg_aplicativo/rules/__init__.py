"""Rules of Lei 5.832/2025 (Patrocínio-MG); importing this package registers every @rule."""

from . import driver, vigencia

__all__ = ["driver", "vigencia"]
