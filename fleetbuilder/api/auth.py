"""Who is calling the API: a personal token (``Authorization: Bearer vc_…``), or nobody.

The API never reads the session cookie. So a page on another site cannot make a signed-in
browser act through the API (no CSRF is possible, and none is asked for), and what a request
may do depends on its token alone. The token's player becomes ``request.user``, so the pages'
rules apply unchanged: ``owned_by(request.user, …)`` for access, and ``ratelimit`` counting the
player, not the address.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer

from .models import ApiToken


class Anonymous:
    """request.auth of a public endpoint called without a token (truthy, so ninja goes on)."""

    user = AnonymousUser()

    def __bool__(self) -> bool:
        return True


def _token(request: HttpRequest, raw: str) -> ApiToken:
    token = ApiToken.authenticate(raw.strip())
    if token is None:
        raise AuthenticationError(message="This API token is not valid (unknown or revoked).")
    request.user = token.user
    return token


class TokenAuth(HttpBearer):
    """A personal API token is required."""

    def __call__(self, request: HttpRequest) -> Any:
        request.user = AnonymousUser()  # never the session's player
        header = request.headers.get("Authorization", "")
        if not header:
            raise AuthenticationError(
                message="This needs a personal API token: "
                "'Authorization: Bearer vc_…' (make one on your "
                "account page)."
            )
        return super().__call__(request)

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken:
        return _token(request, token)


class OptionalTokenAuth(TokenAuth):
    """Public: anyone may call it; a token, if sent, must be valid (and then counts the player
    for the rate limits)."""

    def __call__(self, request: HttpRequest) -> Any:
        request.user = AnonymousUser()
        if not request.headers.get("Authorization"):
            return Anonymous()
        result = HttpBearer.__call__(self, request)
        if not result:  # a scheme other than Bearer
            raise AuthenticationError(message="Send 'Authorization: Bearer vc_…', or nothing.")
        return result


token_auth = TokenAuth()
optional_token = OptionalTokenAuth()
