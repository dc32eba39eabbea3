"""Rules of Lei 5.171/2025 (Olímpia-SP), one module per subject; importing them registers the @rule functions."""
