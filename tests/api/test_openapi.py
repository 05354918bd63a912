"""The OpenAPI document lists every endpoint; /api/docs is a page of the site drawn from it,
under the site's strict Content-Security-Policy (no exemption, no 'unsafe-inline'), and
/api/v1/ is a JSON index of the API."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.security.conftest import walk

pytestmark = pytest.mark.django_db


def _api_paths() -> set[str]:
    """Every operation URL of the API, from Django's resolver (as the access matrix walks it)."""
    return {
        "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", r.route)
        for r in walk()
        if r.name.startswith("api:") and r.name not in ("api:openapi-json", "api:api-root")
    }


def test_the_document_is_openapi_json_listing_every_path() -> None:
    response = Client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    doc = json.loads(response.content)
    assert doc["openapi"].startswith("3.")
    assert doc["info"]["version"] == "1"
    assert set(doc["paths"]) == _api_paths()
    assert {
        "/api/v1/catalog",
        "/api/v1/fleet-files/validate",
        "/api/v1/share-codes",
        "/api/v1/share-codes/{code}",
        "/api/v1/fleets",
        "/api/v1/fleets/{fleet_id}",
        "/api/v1/runs",
        "/api/v1/runs/{public_id}",
        "/api/v1/runs/{public_id}/cancel",
    } <= set(doc["paths"])
    methods = {(p, m) for p, ops in doc["paths"].items() for m in ops}
    assert {("/api/v1/fleets/{fleet_id}", m) for m in ("get", "put", "delete")} <= methods
    # Every operation documents itself and its answers; the bearer scheme is declared.
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op.get("summary") and op.get("description"), (method, path)
            assert (
                "200" in op["responses"] or "201" in op["responses"] or "204" in op["responses"]
            ), (method, path)
    assert doc["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"
    # Posted fleet files are documented as contract 1.
    body = doc["paths"]["/api/v1/fleet-files/validate"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"]["$ref"].endswith("/FleetFile")
    assert set(doc["components"]["schemas"]["Report"]["properties"]) == {
        "legal",
        "points",
        "band",
        "problems",
        "edition",
        "edition_note",
    }


def test_the_docs_page_is_a_page_of_the_site_listing_every_operation() -> None:
    """No longer Swagger UI (no header, no way back, 7 axe rules failing) but a
    page of the site drawn from the OpenAPI document, with no script of its own."""
    response = Client().get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "nonce" not in policy
    assert 'class="site-header"' in html and 'aria-label="Main"' in html
    assert "swagger" not in html.lower() and "style=" not in html
    doc = json.loads(Client().get("/api/v1/openapi.json").content)
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert f'id="{op["operationId"]}"' in html, (method, path)
            assert f"<code>{path}</code>" in html
    for name in doc["components"]["schemas"]:
        assert f'id="schema-{name}"' in html
    assert 'href="#schema-FleetFile"' in html  # a body links to its schema
    assert 'href="/api/v1/openapi.json"' in html and 'href="/api/v1/"' in html


def test_the_api_root_is_a_json_index_of_the_api() -> None:
    """issue 29 §11: ``GET /api/v1/`` was an HTML 404."""
    response = Client().get("/api/v1/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    index = response.json()
    assert index["version"] == "1"
    assert index["docs"] == "/api/docs" and index["openapi"] == "/api/v1/openapi.json"
    doc = json.loads(Client().get("/api/v1/openapi.json").content)
    assert {(o["method"].lower(), o["path"]) for o in index["operations"]} == {
        (m, p) for p, ops in doc["paths"].items() for m in ops
    }
    ops = {(o["method"], o["path"]): o for o in index["operations"]}
    assert ops[("GET", "/api/v1/catalog")]["token"] == "optional"
    assert ops[("POST", "/api/v1/runs")]["token"] == "required"


@pytest.mark.parametrize("path", ["/", "/fleets/new/", "/api/v1/catalog", "/accounts/login/"])
def test_the_rest_of_the_site_keeps_its_policy(path: str) -> None:
    policy = Client().get(path)["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/v1/catalog", 200),
        ("/api/v1/openapi.json", 200),
        ("/api/v1/", 200),
        ("/api/v1/fleets", 401),
        ("/api/v1/runs/nothing", 404),
    ],
)
def test_api_answers_carry_the_security_headers(path: str, status: int) -> None:
    response = Client().get(path)
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in response["Content-Security-Policy"]
