"""An event-sourced campaign tracker for tabletop games."""

__version__ = "0.1.0"
