"""At login, this browser's analyses become the account's, as its fleets and matchups do."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from fleetbuilder.ownership import browser_owner_token

from .models import Analysis


@receiver(user_logged_in, dispatch_uid="analysis.adopt_browser_analyses")
def adopt_browser_analyses(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    Analysis.objects.adopt(user, browser_owner_token(request))
