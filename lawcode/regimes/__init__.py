"""Regime folders: one sub-package per municipality (see docs/lawcode/design.md and new-regime.md)."""
