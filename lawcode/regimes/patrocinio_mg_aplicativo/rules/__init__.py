"""Rules of Lei 5.832/2025 (Patrocínio-MG); importing this package registers every @rule."""

from . import documents, driver, enforcement, fees, notices, procedures, standing, vehicle, vigencia

__all__ = ["documents", "driver", "enforcement", "fees", "notices", "procedures", "standing", "vehicle", "vigencia"]
