#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fleetbuilder.settings")
    from django.core.management import execute_from_command_line

    from fleetbuilder.config import load_settings_or_exit

    # A bad environment value is one line on stderr and status 2, not a traceback.
    load_settings_or_exit()
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
