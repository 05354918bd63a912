"""Ruling R-94 at the Django boundary (the rule itself is ``rules_core/text.py``).

- Every form field that takes text refuses a character R-94 forbids, with an error on that
  field naming it ("Name contains a control character (U+0000)."): ``follow_r94(form)``.
- An address whose path or query string holds such a character is refused with a 400 before any
  view sees it (:class:`AddressTextMiddleware`): a NUL in a share link's id or ``?q=`` would
  otherwise reach PostgreSQL, which refuses NUL in text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.http import HttpRequest, HttpResponse
from django.utils.deconstruct import deconstructible

from rules_core import text as player_text


@deconstructible
class PlayerTextValidator:
    """Refuse text R-94 forbids; ``label`` names the field in the message."""

    code = "text.forbidden_character"

    def __init__(self, label: str = "This field", *, multiline: bool = False) -> None:
        self.label = label
        self.multiline = multiline

    def __call__(self, value: Any) -> None:
        if not isinstance(value, str):
            return
        if self.multiline:  # a browser sends a textarea's line ends as CR LF
            value = player_text.normalise_newlines(value)
        why = player_text.problem(value, multiline=self.multiline)
        if why:
            raise ValidationError(f"{self.label} {why}.", code=self.code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayerTextValidator) and (self.label, self.multiline) == (
            other.label,
            other.multiline,
        )


def follow_r94(form: forms.BaseForm, *, multiline: Iterable[str] = ()) -> None:
    """Give every text field of ``form`` the R-94 check (fields named in ``multiline`` allow tab
    and newline). Passwords are left alone: they are never shown or stored as text. Django's own
    NUL check is replaced, so a NUL gets one message, ours."""
    multiline = set(multiline)
    for name, field in form.fields.items():
        if not isinstance(field, forms.CharField) or isinstance(field.widget, forms.PasswordInput):
            continue
        label = str(field.label or name.replace("_", " ").capitalize())
        field.validators = [
            PlayerTextValidator(label, multiline=name in multiline),
            *(
                v
                for v in field.validators
                if not isinstance(v, ProhibitNullCharactersValidator)
                and not isinstance(v, PlayerTextValidator)
            ),
        ]


class FollowsR94:
    """Mixin for a form (put it first among the bases): its every text field follows R-94 (see
    :func:`follow_r94`); ``multiline_fields`` may hold tabs and newlines."""

    multiline_fields: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        follow_r94(self, multiline=self.multiline_fields)  # type: ignore[arg-type]


class PlayerTextForm(FollowsR94, forms.Form):
    """A plain form whose every text field follows R-94."""


class AddressTextMiddleware:
    """A 400 with the reason for a path, query key or query value holding a character R-94
    forbids (the query is already decoded: bad UTF-8 reads as U+FFFD, which is allowed)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        why = player_text.problem(request.path)
        if why is None:
            for key, values in request.GET.lists():
                why = next(filter(None, map(player_text.problem, [key, *values])), None)
                if why:
                    break
        if why:
            return HttpResponse(
                f"The address {why}, which no page of this site takes.",
                status=400,
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)
