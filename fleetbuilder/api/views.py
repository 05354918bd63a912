"""Pages around the API: the interactive docs, and making and revoking personal tokens.

The tokens are listed on the account page (``{% api_tokens %}``, templatetags/api_tokens.py);
these views are its forms' targets. A new token is shown once, on the answer to the form that
made it (never stored, never cached); afterwards only its first characters are.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from fleetbuilder.text import follow_r94

from . import docs as api_docs
from .api import openapi_document
from .models import MAX_TOKENS_PER_ACCOUNT, ApiToken


@require_GET
def docs(request: HttpRequest) -> HttpResponse:
    """The API's reference, a page of the site drawn from its OpenAPI document (api/docs.py):
    the site's header and way back, no script, axe clean in both themes."""
    doc = openapi_document()
    base = f"{request.scheme}://{request.get_host()}"
    ctx = {
        "info": doc["info"],
        "description": api_docs.prose(doc["info"].get("description", "")),
        "groups": api_docs.operations(doc),
        "schemas": api_docs.schemas(doc),
        "base": base,
    }
    return render(request, "api/docs.html", ctx)


class TokenForm(forms.Form):
    prefix = "token"  # the account page has other forms
    name = forms.CharField(
        max_length=60,
        required=False,
        label="What is it for?",
        help_text="A name to tell your tokens apart, e.g. 'list printer'.",
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        follow_r94(self)


@never_cache
@login_required
@require_POST
def make_token(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
        return redirect("accounts:account")
    if ApiToken.objects.owned_by(request.user).active().count() >= MAX_TOKENS_PER_ACCOUNT:
        messages.error(
            request,
            f"You have {MAX_TOKENS_PER_ACCOUNT} API tokens; revoke one before making another.",
        )
        return redirect("accounts:account")
    token, raw = ApiToken.issue(request.user, form.cleaned_data["name"])
    response = render(request, "api/token_made.html", {"token": token, "raw": raw})
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def revoke_token(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke one of your tokens; anyone else's is 404, as a token that does not exist."""
    token = ApiToken.objects.owned_by(request.user).filter(pk=pk).first()
    if token is None:
        raise Http404("No such token.")
    token.revoke()
    messages.success(
        request,
        f"The API token “{token.name}” ({token.prefix}…) is revoked: "
        "requests with it are refused from now on.",
    )
    return redirect("accounts:account")
