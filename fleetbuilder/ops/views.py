"""/healthz: 200 when this process can serve players, 503 naming what is broken."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from . import health


@never_cache
@csrf_exempt  # it changes nothing; a POST gets 405, not a CSRF page
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers and container health checks: no session, no CSRF, never cached."""
    checks = health.run_checks()
    failed = any(result.startswith("fail") for result in checks.values())
    response = JsonResponse(
        {"status": "fail" if failed else "ok", "checks": checks}, status=503 if failed else 200
    )
    # A failing check is reported here and logged once by health; it is not a server error, so
    # Django's request logger must not log the 503 as one.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response
