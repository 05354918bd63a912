"""How django-axes sees our logins: the username, the client address, and the lockout page.

Axes (settings: "login throttling") counts failed logins per (username, client address) in the
default cache and refuses that pair past the limit. These three callables are all we add:

- ``username``: the username as axes keys it, casefolded, so "Rhaine" and "rhaine" share a count.
- ``fleetbuilder.http.client_address`` (shared with the rate limits): REMOTE_ADDR, or with
  ``TRUSTED_PROXY_COUNT`` = N > 0 the address the Nth-closest proxy saw, read from
  X-Forwarded-For (axes would use django-ipware for this, but it is not installed, and without it
  axes reads REMOTE_ADDR only).
- ``lockout_response``: our login page with its form and a plain message, status 429, in place
  of axes' bare text; also for the admin's login form.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase


def username(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str | None:
    """The username axes counts failures for: from the credentials, else the POSTed form."""
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")  # axes' setting
    value = (credentials or {}).get(field)
    if value is None and request is not None:
        value = request.POST.get(field)
    return value.casefold() if isinstance(value, str) and value else value


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponseBase:
    """Our login page again, with what was typed, saying why the login was refused (429)."""
    from .forms import LockedOutLoginForm
    from .views import LoginView

    response = LoginView.as_view(form_class=LockedOutLoginForm, redirect_authenticated_user=False)(
        request
    )
    response.status_code = getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429)  # axes' setting
    if hasattr(response, "render"):
        response.render()
    return response
