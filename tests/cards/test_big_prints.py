"""Prints of more than 30 cards render on the task queue, with a page that follows them."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest
from django.core.cache import cache
from django.test import Client

from fleetbuilder.cards.models import PrintJob
from fleetbuilder.cards.tasks import render_print
from fleetbuilder.fleets.models import Fleet
from rules_core.cards.bench import bench_fleet
from rules_core.fleet import Squadron, SquadronShip

from .conftest import Pdf

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


@pytest.fixture
def held_prints(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Print jobs sent to the queue are held; the test renders them with ``render_print``."""
    sent: list[int] = []
    monkeypatch.setattr(render_print, "apply_async", lambda args, **kwargs: sent.append(args[0]))
    return sent


def own_fleet(client: Client, catalog, fleet) -> Fleet:
    response = client.post(
        "/fleets/new/",
        {"name": "Big", "faction": "imperial-navy", "variant": "", "game_size": "armada"},
    )
    stored = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
    stored.store(fleet, catalog)
    stored.save()
    return stored


def thirty_one() -> object:
    fleet = bench_fleet()
    extra = Squadron((SquadronShip("sword-class-frigate"),) * 2, name="Patrol 17")
    return replace(fleet, units=(*fleet.units, extra), name="Thirty-one")


@pytest.fixture
def big(client: Client, catalog) -> Fleet:
    return own_fleet(client, catalog, thirty_one())


def test_a_print_of_31_cards_is_queued_and_its_page_follows_it(
    client: Client, big: Fleet, held_prints: list[int]
) -> None:
    response = client.get(f"/cards/fleet/{big.pk}/?layout=a4")
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert response["Location"] == job.get_absolute_url()
    assert held_prints == [job.pk] and job.status == "queued" and job.cards == 31
    page = client.get(job.get_absolute_url()).content.decode()
    assert "Waiting for a print worker" in page
    assert 'hx-trigger="every 1s"' in page  # htmx polls
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in page  # no JS
    assert "<script>" not in page and "style=" not in page  # the strict CSP
    assert client.get(f"{job.get_absolute_url()}cards.pdf").status_code == 404  # not yet

    assert render_print(job.pk) is True
    page = client.get(job.get_absolute_url()).content.decode()
    assert "Ready: 31 cards" in page and "hx-trigger" not in page and "refresh" not in page
    download = client.get(f"{job.get_absolute_url()}cards.pdf")
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert download["Content-Disposition"] == 'attachment; filename="thirty-one-cards.pdf"'
    pdf = Pdf(download.content)
    assert sum(pdf.page_texts[i].count("· Unit ") for i in pdf.card_pages) == 31


def test_the_htmx_poll_gets_the_progress_region_alone(
    client: Client, big: Fleet, held_prints: list[int]
) -> None:
    client.get(f"/cards/fleet/{big.pk}/")
    job = PrintJob.objects.get()
    part = client.get(
        job.get_absolute_url(), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="print-job"
    ).content.decode()
    assert part.lstrip().startswith('<section id="print-job"') and "<html" not in part


def test_asking_twice_queues_one_print(client: Client, big: Fleet, held_prints: list[int]) -> None:
    first = client.get(f"/cards/fleet/{big.pk}/?layout=a4")["Location"]
    assert client.get(f"/cards/fleet/{big.pk}/?layout=a4")["Location"] == first
    assert len(held_prints) == 1
    client.get(f"/cards/fleet/{big.pk}/?layout=poker")  # another layout: another print
    assert PrintJob.objects.count() == 2


def test_a_finished_print_is_answered_from_the_cache_at_once(
    client: Client, big: Fleet, held_prints: list[int]
) -> None:
    client.get(f"/cards/fleet/{big.pk}/")
    render_print(PrintJob.objects.get().pk)
    again = client.get(f"/cards/fleet/{big.pk}/")
    assert again.status_code == 200 and again["Content-Type"] == "application/pdf"
    assert len(held_prints) == 1


def test_only_the_requester_sees_or_downloads_a_print(
    client: Client, big: Fleet, held_prints: list[int]
) -> None:
    client.get(f"/cards/fleet/{big.pk}/")
    job = PrintJob.objects.get()
    render_print(job.pk)
    stranger = Client()
    assert stranger.get(job.get_absolute_url()).status_code == 404
    assert stranger.get(f"{job.get_absolute_url()}cards.pdf").status_code == 404
    assert stranger.get(f"/cards/fleet/{big.pk}/").status_code == 404  # the fleet, as before


def test_with_an_eager_queue_the_print_is_ready_on_arrival(client: Client, big: Fleet) -> None:
    page = client.get(f"/cards/fleet/{big.pk}/", follow=True)
    assert b"Download PDF" in page.content
    assert PrintJob.objects.get().status == "done"


def test_a_failed_print_says_so_and_logs_the_traceback(
    client: Client,
    big: Fleet,
    held_prints: list[int],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    from fleetbuilder.cards import models

    def broken(*args, **kwargs):
        raise RuntimeError("the printer caught fire")

    monkeypatch.setattr(models, "render_cards", broken)
    client.get(f"/cards/fleet/{big.pk}/")
    job = PrintJob.objects.get()
    with caplog.at_level(logging.ERROR, logger="fleetbuilder.cards"):
        assert render_print(job.pk) is False
    job.refresh_from_db()
    assert job.status == "failed"
    page = client.get(job.get_absolute_url()).content.decode()
    assert "The cards were not printed" in page and "print again" in page
    assert "fire" not in page  # the error is logged, not shown
    record = next(r for r in caplog.records if r.name == "fleetbuilder.cards")
    assert record.exc_info and "the printer caught fire" in str(record.exc_info[1])


def test_thirty_cards_stay_in_the_request(client: Client, catalog, held_prints: list[int]) -> None:
    fleet = own_fleet(client, catalog, bench_fleet())
    response = client.get(f"/cards/fleet/{fleet.pk}/?layout=a4")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert held_prints == [] and not PrintJob.objects.exists()


def test_the_options_page_says_a_big_print_goes_to_the_workers(client: Client, big: Fleet) -> None:
    page = client.get(f"/cards/fleet/{big.pk}/print/").content.decode()
    assert "made by the print workers" in page
