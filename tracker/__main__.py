"""`python -m tracker`: the command line, as `tracker` and `manage.py` run it."""

from tracker.cli import main

if __name__ == "__main__":
    main()
