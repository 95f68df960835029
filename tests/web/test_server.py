"""The gunicorn settings `serve` starts the app with."""

import gc
import signal

from tracker.web import server


def test_a_worker_starts_with_the_collector_set_for_many_requests_in_flight():
    before, handler = gc.get_threshold(), signal.getsignal(signal.SIGTERM)
    try:
        gc.set_threshold(700, 10, 10)
        server.settings("127.0.0.1:0", 2)["post_worker_init"](object())
        assert gc.get_threshold() == server.COLLECTOR
        assert gc.get_threshold()[0] > 700
    finally:
        gc.set_threshold(*before)
        signal.signal(signal.SIGTERM, handler)
