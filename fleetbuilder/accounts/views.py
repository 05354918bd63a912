"""Accounts: sign up, the account page, and Django's auth views with our templates."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from fleetbuilder import ratelimit
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.http import AuthenticatedHttpRequest
from fleetbuilder.ownership import browser_owner_token
from fleetbuilder.ratelimit import rate_limit

from .forms import DeleteAccountForm, EmailForm, LoginForm, ResetForm, SignUpForm


def browser_fleet_count(request: HttpRequest) -> int:
    """How many fleets this browser built before logging in (they move at login)."""
    token = browser_owner_token(request)
    if not token:
        return 0
    return Fleet.objects.filter(owner=None, session_key=token).count()


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return resolve_url(settings.LOGIN_REDIRECT_URL)


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    if request.method == "POST" and (wait := ratelimit.peek(request, "signup")):
        return ratelimit.refused(request, "signup", wait)  # accounts made at this address
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        ratelimit.hit(request, "signup")  # counted as the visitor it is before logging in
        user = form.save(commit=False)  # the password is hashed here, outside the transaction
        # login() fires user_logged_in, which moves this browser's fleets to the account and
        # clears axes' counts in Redis: if Redis fails there, the account, the session and the
        # fleets are all as they were (a 503 page says so: fleetbuilder/sharedstate.py).
        with transaction.atomic():
            user.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}: your account is ready.")
        return redirect(_next_url(request))
    ctx = {"form": form, "next": _next_url(request), "browser_fleets": browser_fleet_count(request)}
    return render(request, "accounts/signup.html", ctx, status=400 if form.errors else 200)


@login_required
@sensitive_post_parameters("password")
@require_http_methods(["GET", "POST"])
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = EmailForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(
            request,
            "Your email address is saved."
            if request.user.email
            else "Your email address is removed.",
        )
        return redirect("accounts:account")
    fleets = Fleet.objects.filter(owner=request.user)
    ctx = {
        "form": form,
        "fleet_count": fleets.alive().count(),
        "trash_count": fleets.trashed().count(),
    }
    return render(request, "accounts/account.html", ctx, status=400 if form.errors else 200)


@login_required
@sensitive_post_parameters("password")
@require_http_methods(["GET", "POST"])
@rate_limit("password", methods=("POST",))  # each sending checks the current password
def delete_account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Delete the account and everything it owns, after the password is given again."""
    form = DeleteAccountForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        user = request.user
        logout(request)
        user.delete()  # its fleets and matchups go with it (their owner keys cascade)
        messages.success(request, "Your account and its fleets are deleted.")
        return redirect("fleets:list")  # a page that shows the message, to a visitor now
    ctx = {"form": form, "fleet_count": Fleet.objects.filter(owner=request.user).count()}
    return render(request, "accounts/delete.html", ctx, status=400 if form.errors else 200)


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {
            **super().get_context_data(**kwargs),
            "browser_fleets": browser_fleet_count(self.request),
        }

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Failed log-ins from one address, whatever the usernames; axes counts
        # them per username and address.
        if wait := ratelimit.peek(request, "login"):
            return ratelimit.refused(request, "login", wait)
        response: HttpResponse = super().post(request, *args, **kwargs)
        return response

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        ratelimit.hit(self.request, "login")
        return super().form_invalid(form)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        # As at sign-up: a Redis outage in user_logged_in leaves the session and the browser's
        # fleets as they were, and the player sees a 503 page saying so.
        with transaction.atomic():
            return super().form_valid(form)


# Each sending checks the current password: limited as guesses are.
password_change = rate_limit("password", methods=("POST",))(
    auth_views.PasswordChangeView.as_view(  # type: ignore[arg-type]
        success_url=reverse_lazy("accounts:password_change_done")
    )
)
password_change_done = auth_views.PasswordChangeDoneView.as_view()
password_reset = auth_views.PasswordResetView.as_view(
    form_class=ResetForm,
    email_template_name="registration/password_reset_email.txt",
    subject_template_name="registration/password_reset_subject.txt",
    success_url=reverse_lazy("accounts:password_reset_done"),
)
password_reset_done = auth_views.PasswordResetDoneView.as_view()
password_reset_confirm = auth_views.PasswordResetConfirmView.as_view(
    post_reset_login=True,
    post_reset_login_backend="django.contrib.auth.backends.ModelBackend",
    success_url=reverse_lazy("accounts:password_reset_complete"),
)
password_reset_complete = auth_views.PasswordResetCompleteView.as_view()
