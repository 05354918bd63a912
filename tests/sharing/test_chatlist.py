"""A fleet list for a chat: Markdown for Discord or a forum, and one line; and
squadrons read "3× Sword Frigate" in the text export too, which still reads back exactly."""

from __future__ import annotations

from dataclasses import replace

from pytest_django.asserts import assertInHTML

from rules_core import fleet as rf
from rules_core.catalog import Catalog
from rules_core.chatlist import lineup, one_line, to_markdown
from rules_core.textlist import from_text, to_text
from rules_core.validator import ValidationReport, catalog_index, validate


def patrol() -> rf.Fleet:
    return rf.Fleet(
        faction="imperial-navy",
        game_size=rf.GameSize.SKIRMISH,
        name="Gothic Sector Patrol",
        units=(
            rf.ShipUnit(
                ship="lunar-class-cruiser",
                name="Emperor's Wrath",
                flagship=True,
                admiral="commodore",
                upgrades=("veteran-crew",),
            ),
            rf.ShipUnit(ship="gothic-class-cruiser"),
            rf.ShipUnit(ship="gothic-class-cruiser"),
            rf.Squadron(ships=(rf.SquadronShip("sword-class-frigate"),) * 3, name="Sword Squadron"),
            rf.Squadron(
                ships=(
                    rf.SquadronShip("sword-class-frigate", upgrades=("improved-thrusters",)),
                    rf.SquadronShip("firestorm-class-frigate"),
                )
            ),
        ),
    )


def pts(report: ValidationReport) -> list[int]:
    """Each unit's points (the catalogue's prices may change; the layout may not)."""
    return [u.points for u in report.units]


def upgrade_pts(catalog: Catalog, slug: str) -> int:
    return catalog_index(catalog).upgrades[slug].points


def test_the_markdown_list_reads_well_in_a_chat(real_catalog) -> None:
    fleet = patrol()
    report = validate(fleet, real_catalog)
    assert report.legal
    p = pts(report)
    crew, thrusters = (upgrade_pts(real_catalog, u) for u in ("veteran-crew", "improved-thrusters"))
    assert to_markdown(real_catalog, fleet, report) == (
        f"**Gothic Sector Patrol** · Imperial Navy · Skirmish · {report.points}/1000 pts · Legal\n"
        f'- **Lunar Class Cruiser** "Emperor\'s Wrath" · Flagship · Admiral: Commodore'
        f" · {p[0]} pts\n"
        f"  - Veteran Crew +{crew}\n"
        f"- **Gothic Class Cruiser** · {p[1]} pts\n"
        f"- **Gothic Class Cruiser** · {p[2]} pts\n"
        f'- **3× Sword Frigate** "Sword Squadron" · {p[3]} pts\n'
        f"- **1× Sword Frigate, 1× Firestorm Frigate** · {p[4]} pts\n"
        f"  - Sword Frigate: Improved Thrusters +{thrusters}\n"
    )


def test_the_one_line_summary_counts_alike_ships(real_catalog) -> None:
    fleet = patrol()
    report = validate(fleet, real_catalog)
    assert one_line(real_catalog, fleet, report) == (
        f"Gothic Sector Patrol · Imperial Navy · Skirmish · {report.points}/1000 pts · Legal: "
        "Lunar Class Cruiser, 2× Gothic Class Cruiser, 3× Sword Frigate, "
        "1× Sword Frigate + 1× Firestorm Frigate"
    )
    empty = rf.Fleet(faction="orks", game_size=rf.GameSize.PATROL)
    assert one_line(real_catalog, empty, validate(empty, real_catalog)) == (
        "Untitled Fleet · Orks · Patrol · 0/750 pts · Not legal (4 problems): no ships yet"
    )


def test_an_illegal_list_quotes_its_problems(real_catalog) -> None:
    fleet = replace(patrol(), game_size=rf.GameSize.PATROL)
    report = validate(fleet, real_catalog)
    text = to_markdown(real_catalog, fleet, report)
    assert report.points > 750  # over the Patrol band
    assert text.splitlines()[0].endswith(f" · {report.points}/750 pts · Not legal (1 problem)")
    assert text.splitlines()[-1].startswith("> ") and "Patrol" in text.splitlines()[-1]


def test_a_players_markdown_and_mentions_stay_literal(real_catalog) -> None:
    fleet = replace(patrol(), name="*Waaagh* @everyone [link](x) `code` ||spoiler||")
    first = to_markdown(real_catalog, fleet, validate(fleet, real_catalog)).splitlines()[0]
    assert first.startswith(
        "**\\*Waaagh\\* @\u200beveryone \\[link\\](x) \\`code\\` \\|\\|spoiler\\|\\|** · "
    )
    summary = one_line(real_catalog, fleet, validate(fleet, real_catalog))
    assert summary.startswith("*Waaagh* @everyone")  # plain text: shown as typed


def test_the_text_export_names_a_squadrons_lineup_and_reads_back(real_catalog) -> None:
    fleet = patrol()
    report = validate(fleet, real_catalog)
    text = to_text(real_catalog, fleet, report)
    p = pts(report)
    assert f'* Squadron "Sword Squadron" · 3× Sword Frigate · {p[3]} pts' in text.splitlines()
    assert f"* Squadron · 1× Sword Frigate, 1× Firestorm Frigate · {p[4]} pts" in text.splitlines()
    assert from_text(real_catalog, text) == fleet
    # A hand-typed line-up that disagrees with the escorts below is only a remark.
    edited = text.replace("· 3× Sword Frigate ·", "· 4× Firestorm Frigate ·")
    assert from_text(real_catalog, edited) == fleet


def test_lineup_groups_by_type_in_order() -> None:
    assert lineup(["Sword", "Firestorm", "Sword"]) == "2× Sword, 1× Firestorm"
    assert lineup([]) == ""


# --- the pages ------------------------------------------------------------------------------


def test_the_share_page_offers_markdown_and_one_line(client, make_fleet, catalog) -> None:
    from html import escape, unescape

    fleet = make_fleet(patrol())
    raw = client.get(f"/fleets/{fleet.pk}/share/").content.decode()
    page = unescape(raw)
    listed = fleet.to_core()  # patrol(), on the edition the fleet was started on
    report = validate(listed, catalog)
    assertInHTML(
        '<textarea id="share-markdown" class="share-text" rows="8" readonly '
        f'spellcheck="false">{escape(to_markdown(catalog, listed, report))}</textarea>',
        raw,
    )
    assert f'value="{one_line(catalog, listed, report)}"' in page
    squadron = report.units[3].points
    assert f'**3× Sword Frigate** "Sword Squadron" · {squadron} pts' in page
    assert f'* Squadron "Sword Squadron" · 3× Sword Frigate · {squadron} pts' in page


def test_the_shared_view_names_a_squadrons_lineup(client, make_fleet) -> None:
    from pytest_django.asserts import assertContains

    fleet = make_fleet(patrol())
    fleet.share()
    page = client.get(fleet.share_url_path())
    assertContains(page, '<span class="unit__kind">3× Sword Frigate</span>', html=True)
    assertContains(
        page, '<span class="unit__kind">1× Sword Frigate, 1× Firestorm Frigate</span>', html=True
    )


def test_the_chat_list_names_the_lists_edition(real_catalog) -> None:
    """R-160: whoever reads the list in a chat sees whose prices it carries."""
    fleet = replace(patrol(), edition=7)
    report = validate(fleet, real_catalog)
    assert to_markdown(real_catalog, fleet, report).splitlines()[0].split(" · ")[3] == "Edition 7"
    assert " · Skirmish · Edition 7 · " in one_line(real_catalog, fleet, report)
    assert "Edition" not in one_line(real_catalog, patrol(), validate(patrol(), real_catalog))
