"""At most a few password-reset mails to one address an hour, so the form cannot flood an inbox.

The counts live in Django's cache: Redis, shared by every process, when REDIS_URL is set; per
process otherwise. (Failed logins are counted by django-axes: see lockout.py.)
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache

# Past the cap the page answers as always (it never says whether an address has an account).
MAX_RESET_MAILS = 3
RESET_WINDOW_SECONDS = 60 * 60


def allow_reset_mail(email: str) -> bool:
    key = "accounts:reset-mails:" + hashlib.sha256(email.casefold().encode()).hexdigest()
    cache.add(key, 0, RESET_WINDOW_SECONDS)
    try:
        sent = cache.incr(key)
    except ValueError:
        cache.set(key, 1, RESET_WINDOW_SECONDS)
        sent = 1
    return sent <= MAX_RESET_MAILS
