"""``{% api_tokens %}``: the account page's "API tokens" section (the player's tokens, the form
to make one, a button to revoke each)."""

from __future__ import annotations

from typing import Any

from django import template

from ..models import ApiToken
from ..views import TokenForm

register = template.Library()


@register.inclusion_tag("api/_tokens.html", takes_context=True)
def api_tokens(context: template.Context) -> dict[str, Any]:
    request = context["request"]
    tokens = ApiToken.objects.owned_by(request.user).active()
    return {"tokens": list(tokens), "form": TokenForm(), "csrf_token": context.get("csrf_token")}
