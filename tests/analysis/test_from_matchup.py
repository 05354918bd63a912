"""Which ship matters? launched from a matchup plays that matchup's own opponent: the form a
player submits as it comes (every field as the page fills it in) starts an analysis whose
opponent is the fleet B that fought, points-matched sample included, and the results page names
the opponent with its points."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.analysis.models import Analysis
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from rules_core.validator import validate

pytestmark = pytest.mark.django_db


class SubmittedForm(HTMLParser):
    """What a browser sends for the page's first POST form left as it is: text, number and
    hidden inputs, checked radios and boxes, each select's selected option (or its first)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self.in_form = self.done = False
        self.select: str | None = None
        self.first_option: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and a.get("method") == "post" and not self.done:
            self.in_form = True
        if not self.in_form:
            return
        name = a.get("name") or ""
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox"):
                if "checked" in a:
                    self.data[name] = a.get("value") or "on"
            elif kind != "submit":
                self.data[name] = a.get("value") or ""
        elif tag == "select":
            self.select, self.first_option = name, None
        elif tag == "option" and self.select:
            value = a.get("value") or ""
            if self.first_option is None:
                self.first_option = value
            if "selected" in a:
                self.data[self.select] = value

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self.select:
            self.data.setdefault(self.select, self.first_option or "")
            self.select = None
        elif tag == "form" and self.in_form:
            self.in_form, self.done = False, True


def test_an_analysis_from_a_matchup_plays_its_points_matched_opponent(
    client: Client,
    saved_fleet: Fleet,
    held_chunks: list[Any],
    held_analysis_chunks: list[Any],
    catalog: Any,
) -> None:
    response = client.post(
        "/simulator/",
        {
            "a_source": "fleet",
            "a_fleet": str(saved_fleet.pk),
            "b_source": "sample",
            "b_faction": "orks",
            "b_size": "patrol",
            "b_variant": "",
            "b_points": "835",
            "battles": "4",
            "max_rounds": "10",
            "table": "",
            "scoring": "core",
            "terrain": "none",
            "movement": "advanced",
            "seed": "1",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    run = Matchup.objects.get()
    opponent_points = validate(run.core_fleet("b"), catalog).points
    assert abs(opponent_points - 835) <= 835 * 0.05

    form = client.get(f"/analysis/?from={run.public_id}").content.decode()
    data = SubmittedForm(form).data
    assert data["b_points"] == "835"
    data["battles"] = "3"
    started = client.post("/analysis/", data)
    assert started.status_code == 302, started.content.decode()[:3000]
    analysis = Analysis.objects.get()
    assert analysis.opponent == run.fleet_b  # the very fleet that fought, not the 985 sample
    assert analysis.options.get("movement") == "advanced"  # and the matchup's scenario

    page = client.get(analysis.get_absolute_url()).content.decode()
    label = run.label("b")
    assert f"{label}, {opponent_points} pts" in page


def test_from_the_builder_the_opponent_is_built_to_the_fleets_points(
    client: Client, saved_fleet: Fleet
) -> None:
    """The preview's points-matched choice: the sample is built to the fleet's points."""
    data = SubmittedForm(client.get(f"/analysis/?fleet={saved_fleet.pk}").content.decode()).data
    assert data["a_fleet"] == str(saved_fleet.pk)
    assert data["b_points"] == str(saved_fleet.points)
