"""Who owns a record: a signed-in player, or the browser session holding an owner token.

Saved fleets, simulator runs, what-if analyses and big prints follow the same rule, so it is
written once here; ``fleetbuilder.fleets.models.session_owner_token`` gives a browser its token.
"""

from __future__ import annotations

from typing import Any, Self

from django.db import models


class OwnedQuerySet(models.QuerySet[Any]):
    """For models with ``owner`` (a user, or null) and ``session_key`` (an owner token)."""

    def owned_by(self, user: Any, owner_token: str | None) -> Self:
        """Records of a signed-in ``user``, or of the browser session holding ``owner_token``."""
        mine = models.Q(pk__in=[])
        if user is not None and user.is_authenticated:
            mine |= models.Q(owner=user)
        if owner_token:
            mine |= models.Q(owner=None, session_key=owner_token)
        return self.filter(mine)

    def adopt(self, user: Any, owner_token: str | None) -> int:
        """Give ``user`` the records of the anonymous browser holding ``owner_token`` (at
        login): only those with no owner and exactly this token move, in one statement.
        Returns how many moved; ``updated`` fields are left alone (adopting is no change)."""
        if not owner_token or user is None or not user.is_authenticated:
            return 0
        return self.filter(owner=None, session_key=owner_token).update(owner=user)
