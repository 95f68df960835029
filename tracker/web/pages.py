"""The HTML pages (filled in by the web issue)."""


def init_app(app):
    pass
