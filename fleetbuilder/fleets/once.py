"""A form that saves a fleet from outside (a copy of a shared fleet, a share code's, an
import) saves it once, however often it is sent.

The page gives the form a fresh ``once_token``; the first sending of that token saves, and a
second (a double click, a reload) leads to what the first one saved. The tokens live in
Django's cache, shared by every process in production, for ``ONCE_SECONDS``; when that cache is
away nothing is saved rather than twice (``ONCE_UNCHECKED``).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from redis.exceptions import RedisError

from fleetbuilder.ownership import owner_token
from rules_core import catalog as core
from rules_core import fleet as rf
from rules_core.validator import check_points_bound, validate

from .models import Fleet

log = logging.getLogger("fleetbuilder.fleets")

ONCE_FIELD = "once"  # the token of a form that saves a fleet (see save_copy)
ONCE_SECONDS = 60 * 60


def owner_kwargs(request: HttpRequest) -> dict[str, Any]:
    """The new fleet's owner: the signed-in player, else this browser (token made if need be)."""
    if request.user.is_authenticated:
        return {"owner": request.user, "owner_token": ""}
    return {"owner": None, "owner_token": owner_token(request, create=True) or ""}


def once_token() -> str:
    """A fresh token for a form that saves a fleet, so sending it twice saves it once."""
    return secrets.token_urlsafe(16)


def once_key(request: HttpRequest) -> str:
    token = request.POST.get(ONCE_FIELD, "")
    if not token or len(token) > 64:
        return ""
    return "fleets:once:" + hashlib.sha256(token.encode()).hexdigest()


# Said when a form's once-token cannot be checked because the shared cache is away.
ONCE_UNCHECKED = (
    "Nothing was saved: the server cannot check right now that this form is "
    "sent only once, because its shared store is not answering. Please send it "
    "again in a minute."
)


def forget_once(key: str) -> None:
    """Free a once-token whose save failed, so the form can be sent again."""
    if not key:
        return
    try:
        cache.delete(key)
    except RedisError:  # it expires after ONCE_SECONDS
        log.warning("once-token not freed after a failed save")


def save_copy(
    request: HttpRequest,
    fleet: rf.Fleet,
    catalog: core.Catalog,
    *,
    done: str,
    back: str,
    note: str = "",
) -> HttpResponse:
    """Save ``fleet`` as a new fleet of this player, or go ``back`` saying why it cannot be.

    ``catalog`` is the one of ``fleet.edition``, which the saved fleet keeps (R-160); ``note``
    (R-161's, for a list that named no edition) is shown again with the news that it is saved.

    A form sent twice (a double click, a reload) with the same ``once`` token saves one fleet:
    the second answer leads to the fleet the first one saved. The tokens live in Django's cache
    (per process with the default local-memory cache; a shared cache covers several workers),
    and the pages' script sends such forms once anyway.
    """
    if catalog.faction(fleet.faction) is None:
        messages.error(
            request,
            f"This catalogue has no faction {fleet.faction!r}; the fleet cannot be built here.",
        )
        return redirect(back)
    try:
        check_points_bound(validate(fleet, catalog))  # the saved file came from the form
    except rf.FleetFormatError as exc:
        messages.error(request, f"Nothing was saved: {exc.path} {exc.message}.")
        return redirect(back)
    key = once_key(request)
    try:
        first = not key or cache.add(key, 0, ONCE_SECONDS)
        earlier_pk = 0 if first else cache.get(key)
    except RedisError:  # the token cannot be checked: save nothing rather than twice
        messages.error(request, ONCE_UNCHECKED)
        return redirect(back)
    if not first:
        earlier = (
            Fleet.objects.alive()
            .owned_by(request.user, owner_token(request))
            .filter(pk=earlier_pk or 0)
            .first()
        )
        messages.info(request, "That was sent twice; the fleet is saved once.")
        return redirect(earlier or reverse("fleets:list"))
    try:
        with transaction.atomic():
            new = Fleet.from_core(fleet, catalog, **owner_kwargs(request))
    except BaseException:
        forget_once(key)
        raise
    if key:
        try:
            cache.set(key, new.pk, ONCE_SECONDS)
        except RedisError:  # saved; a second sending finds the list instead of the fleet
            log.warning("once-token not updated after saving fleet %s", new.pk)
    messages.success(request, done)
    if note:
        messages.info(request, note)
    return redirect(new)
