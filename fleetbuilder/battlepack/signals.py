"""At login, this browser's battle packs become the account's, as its fleets do."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from fleetbuilder.ownership import browser_owner_token

from .models import BattlePack


@receiver(user_logged_in, dispatch_uid="battlepack.adopt_browser_packs")
def adopt_browser_packs(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    BattlePack.objects.adopt(user, browser_owner_token(request))
