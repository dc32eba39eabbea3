#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "outorga.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        # A deployment mistake (missing SECRET_KEY, bad DATABASE_URL…) deserves one clear line, not a traceback.
        sys.exit(f"Configuration error: {exc}")


if __name__ == "__main__":
    main()
