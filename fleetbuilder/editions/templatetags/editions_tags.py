"""Filters for the editions' pages."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def signed(value: int) -> str:
    """A change with its sign: +10, −20 (a true minus), ±0."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "±0"
