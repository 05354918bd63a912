"""Personal API tokens: made on the account page, shown once, stored only as a hash, revocable.

A token is ``vc_`` and 43 URL-safe characters (256 random bits). Only its SHA-256 is stored:
a token this random needs no slow hash, and the lookup is one indexed query. The first
characters (``prefix``) are kept in clear so the account page can tell tokens apart.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

TOKEN_PREFIX = "vc_"
MAX_TOKENS_PER_ACCOUNT = 20
SHOWN_CHARS = 8  # "vc_" and five more: enough to recognise a token, far too few to use it
LAST_USED_EVERY = 60  # seconds: last_used is written at most this often per token


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at=None)

    def owned_by(self, user: Any) -> ApiTokenQuerySet:
        if user is None or not user.is_authenticated:
            return self.none()
        return self.filter(user=user)


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60, help_text="What the player uses it for.")
    prefix = models.CharField(max_length=SHOWN_CHARS, editable=False)
    digest = models.CharField(
        max_length=64,
        unique=True,
        editable=False,
        help_text="SHA-256 of the token; the token itself is never kept.",
    )
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @classmethod
    def issue(cls, user: Any, name: str) -> tuple[ApiToken, str]:
        """A new token of ``user``'s: the record, and the token itself (shown once)."""
        raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(
            user=user,
            name=name.strip() or "API token",
            prefix=raw[:SHOWN_CHARS],
            digest=token_hash(raw),
        )
        return token, raw

    @classmethod
    def authenticate(cls, raw: str) -> ApiToken | None:
        """The live token ``raw`` is, with its user; None for an unknown or revoked one."""
        if not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
            return None
        token = cls.objects.active().select_related("user").filter(digest=token_hash(raw)).first()
        if token is None or not token.user.is_active:
            return None
        token.touch()
        return token

    def touch(self) -> None:
        """Note when the token was last used (at most once a minute: no write per request)."""
        now = timezone.now()
        if self.last_used is None or (now - self.last_used).total_seconds() > LAST_USED_EVERY:
            ApiToken.objects.filter(pk=self.pk).update(last_used=now)
            self.last_used = now

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])
