"""Which entry of the site's navigation is the current page, from the resolved URL's name.

A context processor (settings.TEMPLATES): templates/base.html marks the entry whose key is
``nav_active`` with ``aria-current="page"``. The names, not the paths, decide: a URL can move
without the navigation forgetting it.
"""

from __future__ import annotations

from django.http import HttpRequest

# view name (namespace:name) -> navigation entry
BY_VIEW = {
    "catalog:factions": "ships",
    "catalog:faction": "ships",
    "catalog:ship": "ships",
    "catalog:rules": "rules",
    "fleets:builder": "builder",
    "fleets:list": "fleets",
    "gunnery:calculator": "gunnery",
    "balance:page": "balance",
    "editions:list": "editions",
    "editions:edition": "editions",
    "accounts:account": "account",
    "accounts:login": "login",
    "accounts:signup": "signup",
}
# every page of these namespaces belongs to one entry
BY_NAMESPACE = {"simulator": "simulator", "events": "events"}


def active_entry(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None:  # a page for a URL that did not resolve (404)
        return ""
    return BY_VIEW.get(match.view_name) or BY_NAMESPACE.get(match.namespace, "")


def nav(request: HttpRequest) -> dict[str, str]:
    return {"nav_active": active_entry(request)}
