"""The API's docs page in a real browser: Swagger UI runs from our own static files under the
site's Content-Security-Policy (no inline script or style, nothing from the internet)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.markup_only]

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def test_the_docs_page_runs_swagger_ui_under_the_csp(page: Page, live_catalog) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.add_init_script(RECORD_VIOLATIONS)
    response = page.goto(live_catalog.url + "/api/docs")
    assert response is not None and response.status == 200
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy
    # Swagger UI drew the operations from /api/v1/openapi.json.
    expect(page.get_by_text("/api/v1/fleet-files/validate")).to_be_visible()
    expect(page.get_by_role("button", name="Authorize")).to_be_visible()
    page.get_by_text("/api/v1/catalog").first.click()
    expect(page.get_by_role("button", name="Try it out")).to_be_visible()
    assert page.evaluate("window.__csp") == []
    outside = [u for u in requests if not u.startswith(live_catalog.url)
               and not u.startswith("data:")]
    assert outside == []
    assert any(u.startswith(live_catalog.url + "/static/ninja/swagger-ui-bundle") for u in requests)
