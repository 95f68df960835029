"""Logging in as a browser does: through the real form, with its CSRF token."""

import re

from apiseed import PASSWORD


def csrf_of(page) -> str:
    """The CSRF token of a page's first form."""
    return re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def logged_in(app, name, password=PASSWORD, address="127.0.0.1"):
    """A client logged in through the real form (CSRF token and all)."""
    client = app.test_client()
    token = csrf_of(client.get("/login"))
    page = client.post(
        "/login",
        data={"name": name, "password": password, "csrf_token": token},
        environ_base={"REMOTE_ADDR": address},
    )
    assert page.status_code == 302, page.get_data(as_text=True)
    return client
