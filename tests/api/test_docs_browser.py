"""The API's docs page in a real browser: a page of the site (its header, a way back), nothing
from the internet, no Content-Security-Policy violation, and axe clean in both colour schemes
(Swagger UI had no header and failed 7 axe rules on 103 nodes)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.test_axe_browser import axe_context, violations

pytestmark = [pytest.mark.browser, pytest.mark.markup_only]

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_docs_page_is_a_site_page_and_axe_clean(
    browser: Browser, live_catalog, scheme: str
) -> None:
    context = axe_context(browser, color_scheme=scheme, viewport={"width": 1366, "height": 900})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.add_init_script(RECORD_VIOLATIONS)
    response = page.goto(live_catalog.url + "/api/docs")
    assert response is not None and response.status == 200
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy
    expect(page.get_by_role("heading", level=1)).to_contain_text("The API")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.locator("#fleetbuilder_api_api_validate_file")).to_contain_text(
        "/api/v1/fleet-files/validate"
    )
    page.get_by_role("link", name="POST /api/v1/runs", exact=True).click()
    expect(page).to_have_url(live_catalog.url + "/api/docs#fleetbuilder_api_api_start_run")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__csp") == []
    outside = [
        u for u in requests if not u.startswith(live_catalog.url) and not u.startswith("data:")
    ]
    assert outside == []
    found = violations(page)
    assert not found, "\n".join(found)
    if scheme == "light":
        page.screenshot(path="/tmp/fleetbuilder-api-docs.png", full_page=False)
    context.close()
