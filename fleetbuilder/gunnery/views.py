"""The gunnery calculator: one GET view, a pure function of its query string.

The URL is the link that reproduces a calculation. With htmx the form asks for the same URL and
gets only the result partial (plus the weapon or ship select, out of band, when the attacker or
faction changed); without JavaScript the form submits and the whole page renders.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from fleetbuilder.catalog import loader
from fleetbuilder.http import HtmxHttpRequest

from .chart import build_chart, shown_rows
from .forms import GunneryForm
from .volley import ORDER_LABELS, Calculation, calculate

TEMPLATE = "gunnery/calculator.html"


@require_GET
def calculator(request: HtmxHttpRequest) -> HttpResponse:
    changed = (request.htmx.trigger_name or "") if request.htmx else ""
    form = GunneryForm(request.GET, catalog=loader.core_catalog(), changed=changed)
    ctx: dict[str, Any] = {"form": form, "calc": None}
    if form.is_valid():
        calc = calculate(form.attack(), form.target_values(), form.circumstances())
        query = form.canonical_query().urlencode()
        ctx.update(_result_context(calc))
        ctx["attacker_name"] = form.attacker_name()
        ctx["link"] = request.build_absolute_uri(f"{request.path}?{query}")

    if request.htmx and not request.htmx.history_restore_request:
        html = render_to_string(f"{TEMPLATE}#result", ctx, request)
        ctx["oob"] = True  # the rest is swapped out of band, so focus stays where it is
        html += render_to_string(f"{TEMPLATE}#status", ctx, request)  # read out by readers
        if changed in ("faction", "attacker"):  # the linked selects change with it
            if changed == "faction":
                html += render_to_string(f"{TEMPLATE}#attacker-select", ctx, request)
            html += render_to_string(f"{TEMPLATE}#weapon-select", ctx, request)
        response = HttpResponse(html)
    else:
        response = render(request, TEMPLATE, ctx)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _result_context(calc: Calculation) -> dict[str, Any]:
    rows, hidden = shown_rows(calc.rows)
    circ = calc.circumstances
    return {
        "calc": calc,
        "rows": rows,
        "hidden_tail": hidden,
        "chart": build_chart(rows) if rows else None,
        "summary": calc.summary,
        "order_label": ORDER_LABELS.get(circ.order, "") if circ.order else "",
        "most_likely": max(rows, key=lambda r: r.exactly) if rows else None,
    }
