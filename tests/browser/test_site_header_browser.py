"""The site's header on a wide screen: the brand, the main navigation and the account links on
one row, every link on one line, at every width from 1408 px (the navigation
wrapped onto two lines at every width of 1408 px or more)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.markup_only]
PASSWORD = "Ironclad-Lunar-1138"

ROW = """() => {
  const items = [...document.querySelectorAll(
      '.site-header .brand, .site-nav a, .account-nav a, .account-nav button')];
  return items.map(e => { const r = e.getBoundingClientRect();
    return {text: e.textContent.trim(), top: r.top, bottom: r.bottom, height: r.height,
            lines: Math.round(r.height / parseFloat(getComputedStyle(e).lineHeight || 20))}; });
}"""


@pytest.mark.parametrize(
    ("width", "signed_in"),
    [
        *((w, False) for w in (1200, 1366, 1407, 1408, 1440, 1600, 1920, 2560)),
        *((w, True) for w in (1200, 1408, 1920)),
    ],
)
def test_the_header_is_one_row_of_one_line_links(
    browser: Browser, live_catalog, width: int, signed_in: bool
) -> None:
    page = browser.new_page(viewport={"width": width, "height": 900})
    if signed_in:  # a long name (shown up to its width limit) and Log out
        from django.contrib.auth.models import User

        User.objects.create_user("Admiral_Longname_Of_Bakka", password=PASSWORD)
        page.goto(live_catalog.url + "/accounts/login/")
        page.get_by_label("Username").fill("Admiral_Longname_Of_Bakka")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").last.click()
        page.get_by_role("button", name="Log out").wait_for()
    page.goto(live_catalog.url + "/gunnery/")
    items = page.evaluate(ROW)
    links = [i for i in items if i["text"]]
    assert len(links) >= 11, links
    middle = [(i["top"] + i["bottom"]) / 2 for i in links]
    assert max(middle) - min(middle) < 4, f"{width} px: not one row: {links}"
    nav = links[1:]
    tallest = max(i["height"] for i in nav)
    shortest = min(i["height"] for i in nav)
    assert tallest < shortest * 1.3, f"{width} px: a link wraps inside: {nav}"
    inner = page.evaluate(
        "(() => { const e = document.querySelector('.site-header__inner');"
        " const last = [...e.querySelectorAll('a, button')].pop()"
        ".getBoundingClientRect(); const box = e.getBoundingClientRect();"
        " const pad = parseFloat(getComputedStyle(e).paddingRight);"
        " return {right: last.right, limit: box.right - pad + 1}; })()"
    )
    assert inner["right"] <= inner["limit"], f"{width} px: the row overflows: {inner}"
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 80, f"{width} px: {header}"
    page.screenshot(
        path=str(
            Path(tempfile.gettempdir())
            / f"fleetbuilder-header-{width}{'-signed-in' * signed_in}.png"
        ),
        clip={"x": 0, "y": 0, "width": width, "height": 160},
    )
    page.close()
