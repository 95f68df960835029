#!/usr/bin/env python
"""The tracker's command line: python manage.py --help."""

from tracker.cli import main

if __name__ == "__main__":
    main()
