"""Number formats for the calculator: probabilities as percentages with two decimals."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def pct(value: float) -> str:
    """0.123456 → "12.35 %" with a no-break space."""
    return f"{value * 100:.2f}\u00a0%"


@register.filter
def fixed3(value: float) -> str:
    return f"{value:.3f}"
