"""Sign-up, login and account forms: Django's own, with an email and a reset-mail cap."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm

from fleetbuilder.text import FollowsR94  # username and email follow R-94

from . import throttle

User = get_user_model()

EMAIL_HELP = "Optional. Only used to send you a link if you forget your password."


def _email_taken(email: str, exclude_pk: int | None = None) -> bool:
    users = User._default_manager.filter(email__iexact=email)
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return users.exists()


class SignUpForm(FollowsR94, UserCreationForm):
    email = forms.EmailField(required=False, help_text=EMAIL_HELP)

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data.get("email", "").strip()
        # One account per address, so a reset link reaches the account the player means.
        if email and _email_taken(email):
            raise forms.ValidationError(
                "An account already uses this email address. Log in, or reset its password.",
                code="email_taken",
            )
        return email


class LoginForm(FollowsR94, AuthenticationForm):
    """Django's login form; django-axes refuses a locked-out login (see lockout.py)."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": "Too many failed attempts to log in as this user. Wait a few minutes, "
        "or reset your password.",
    }


class LockedOutLoginForm(LoginForm):
    """The login form as shown to a locked-out login: what was typed, and why it was refused.

    It never authenticates (the attempt was already refused and counted by axes).
    """

    def clean(self) -> dict[str, Any]:
        raise forms.ValidationError(self.error_messages["throttled"], code="throttled")


class EmailForm(FollowsR94, forms.Form):
    """A new email address, confirmed by the current password (it is where resets go)."""

    email = forms.EmailField(required=False, help_text="Leave empty to remove it.")
    password = forms.CharField(
        label="Current password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["email"].initial = user.email

    def clean_email(self) -> str:
        email = self.cleaned_data.get("email", "").strip()
        if email and _email_taken(email, exclude_pk=self.user.pk):
            raise forms.ValidationError(
                "Another account already uses this email address.", code="email_taken"
            )
        return email

    def clean_password(self) -> str:
        password = self.cleaned_data.get("password", "")
        if not self.user.check_password(password):
            raise forms.ValidationError(
                "That is not your current password.", code="password_incorrect"
            )
        return password

    def save(self) -> None:
        self.user.email = self.cleaned_data["email"]
        self.user.save(update_fields=["email"])


class ResetForm(FollowsR94, PasswordResetForm):
    """Django's reset form, with a cap on mails to one address (see throttle)."""

    def get_users(self, email: str) -> Any:
        if not throttle.allow_reset_mail(email):
            return iter(())
        return super().get_users(email)


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data.get("password", "")
        if not self.user.check_password(password):
            raise forms.ValidationError(
                "That is not your password; nothing was deleted.", code="password_incorrect"
            )
        return password
