"""The site's navigation marks the page you are on, found from the resolved URL's name
(fleetbuilder/nav.py), on every page of a section and on no entry for a page it does not list."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

CURRENT = re.compile(r'<a href="([^"]*)" aria-current="page">')


def current_entries(client: Client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    head = response.content.decode().split("</header>", 1)[0]
    return CURRENT.findall(head)


@pytest.mark.parametrize(
    ("url", "entry"),
    [
        ("/ships/", "/ships/"),
        ("/ships/imperial-navy/", "/ships/"),
        ("/ships/imperial-navy/lunar-class-cruiser/", "/ships/"),
        ("/rules/", "/rules/"),
        ("/fleets/new/", "/fleets/new/"),
        ("/fleets/", "/fleets/"),
        ("/gunnery/", "/gunnery/"),
        ("/simulator/", "/simulator/"),
        ("/balance/", "/balance/"),
        ("/accounts/login/", "/accounts/login/"),
        ("/accounts/signup/", "/accounts/signup/"),
    ],
)
def test_each_section_marks_its_own_entry_and_only_it(client: Client, url: str, entry: str) -> None:
    assert current_entries(client, url) == [entry]


def test_a_page_outside_the_sections_marks_none(client: Client) -> None:
    assert current_entries(client, "/") == []
    assert current_entries(client, "/fleets/trash/") == []


def test_the_account_page_marks_the_account_entry(client: Client) -> None:
    client.force_login(User.objects.create_user("nav-tester", password="x" * 12))
    assert current_entries(client, "/accounts/") == ["/accounts/"]
