"""The editions as an Atom feed (``/editions/feed/``): one entry per edition, newest first, so a
player's feed reader says when the points change (R-160)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.syndication.views import Feed
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from fleetbuilder.catalog import editions
from rules_core.editions import EditionInfo

from . import changelog


def _utc(moment: datetime) -> datetime:
    """Edition dates are UTC, naive when read from a file."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def price_line(info: EditionInfo) -> str:
    """One line: how many prices the edition changed against the one before it."""
    since = changelog.since_previous(info)
    if since is None:
        return "The first edition."
    count = since.price_changes
    prices = "1 price" if count == 1 else f"{count} prices"
    return f"{prices} changed since edition {since.against.number}."


class EditionsFeed(Feed):
    feed_type = Atom1Feed
    title = "Void Command Fleet Builder: catalogue editions"
    subtitle = (
        "Each published catalogue (points, profiles, refits and rules), newest first; "
        "every entry links to what changed."
    )

    def link(self) -> str:
        return reverse("editions:list")

    def items(self) -> list[EditionInfo]:
        return list(reversed(editions.known()))

    def item_title(self, item: EditionInfo) -> str:
        return item.title

    def item_link(self, item: EditionInfo) -> str:
        return reverse("editions:edition", args=[item.number])

    def item_description(self, item: EditionInfo) -> str:
        return f"{item.notes}\n\n{price_line(item)}" if item.notes else price_line(item)

    def item_updateddate(self, item: EditionInfo) -> datetime:
        return _utc(item.published)

    def item_pubdate(self, item: EditionInfo) -> datetime:
        return _utc(item.published)

    def item_guid(self, item: EditionInfo) -> str:
        # Its number and file: stable for good, since an edition never changes.
        return f"urn:void-command:edition:{item.number}:{item.sha256[:16]}"

    def item_guid_is_permalink(self, item: EditionInfo) -> bool:
        return False
