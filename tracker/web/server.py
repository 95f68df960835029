"""A real WSGI server for the app: gunicorn, started from the command line."""

from gunicorn.app.base import BaseApplication


class _Gunicorn(BaseApplication):
    def __init__(self, app, options):
        self.application = app
        self.options = options
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return self.application


def run(app, host: str, port: int, workers: int = 2) -> None:
    _Gunicorn(
        app,
        {
            "bind": f"{host}:{port}",
            "workers": workers,
            "worker_class": "gthread",
            "threads": 4,
            "accesslog": "-",
            "timeout": 60,
        },
    ).run()
