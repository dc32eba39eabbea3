from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _checkpoints_in_tmp(settings: Any, tmp_path: Path) -> Path:
    """Checkpoints of test databases never land in (or are checked against) the developer's var/."""
    settings.AUDIT_CHECKPOINT_DIR = tmp_path / "checkpoints"
    settings.AUDIT_CHECKPOINT_RECIPIENTS = []
    return Path(settings.AUDIT_CHECKPOINT_DIR)
