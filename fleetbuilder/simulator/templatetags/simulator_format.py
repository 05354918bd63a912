"""Number formats for the matchup results: rates as percentages, intervals as ranges."""

from __future__ import annotations

from collections.abc import Sequence

from django import template

register = template.Library()


@register.filter
def pct1(value: float) -> str:
    """0.5234 → "52.3 %" (a no-break space before the sign)."""
    return f"{value * 100:.1f}\u00a0%"


@register.filter
def pct0(value: float) -> str:
    """0.5234 → "52 %"; a rate that is not zero never shows as "0 %"."""
    percent = value * 100
    if 0 < percent < 0.5:
        return "<1\u00a0%"
    if 99.5 <= percent < 100:
        return ">99\u00a0%"
    return f"{percent:.0f}\u00a0%"


@register.filter
def ci(bounds: Sequence[float]) -> str:
    """[0.49, 0.55] → "49.0–55.0 %"."""
    lo, hi = bounds
    return f"{lo * 100:.1f}–{hi * 100:.1f}\u00a0%"
