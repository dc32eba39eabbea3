"""Project-level management commands (the `outorga` app)."""
