"""``manage.py ship_cards FILE -o OUT.pdf [--layout …]`` (contract 3): exit 0 written — an illegal
fleet too, with a warning on stderr — and 2 for unusable input with a one-line reason."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command

from fleetbuilder.catalog import editions
from rules_core.fleet import dump_fleet_json
from rules_core.sample_fleets import sample_fleet

from .conftest import Pdf

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("ship_cards", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def fleet_file(tmp_path: Path, catalog) -> Path:
    path = tmp_path / "necrons.json"
    # Naming the edition its prices are: a file naming none prints under the first.
    fleet = replace(sample_fleet(catalog, "necrons", "skirmish"), edition=editions.current_number())
    path.write_text(dump_fleet_json(fleet))
    return path


def test_writes_the_pdf_in_the_chosen_layout(fleet_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "cards.pdf"
    code, stdout, stderr = run(str(fleet_file), "-o", str(out), "--layout", "letter")
    assert (code, stderr) == (0, "")
    units = len(json.loads(fleet_file.read_text())["units"])
    assert stdout.startswith(f"{out}: roster and {units} cards (letter,")
    pdf = Pdf(out.read_bytes())
    assert pdf.page_size_mm == (215.9, 279.4)
    assert "Necrons Skirmish Fleet" in pdf.page_texts[0]


def test_an_illegal_fleet_prints_with_a_warning(fleet_file: Path, tmp_path: Path) -> None:
    data = json.loads(fleet_file.read_text())
    data["units"] = data["units"][:1]
    fleet_file.write_text(json.dumps(data))
    out = tmp_path / "cards.pdf"
    code, _, stderr = run(str(fleet_file), "-o", str(out))
    assert code == 0
    assert stderr.startswith("warning: Necrons Skirmish Fleet is not legal: ")
    assert "(first: points.under_band)" in stderr and stderr.count("\n") <= 1
    assert "Not legal" in Pdf(out.read_bytes()).page_texts[0]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "cannot read"),
        ("{not json", "is not a usable fleet file"),
        ('{"format": "void-command-fleet", "version": 2}', "is not a usable fleet file"),
    ],
)
def test_unusable_input_exits_2_with_one_line(
    tmp_path: Path, content: str | None, reason: str
) -> None:
    path = tmp_path / "fleet.json"
    if content is not None:
        path.write_text(content)
    out = tmp_path / "cards.pdf"
    code, stdout, stderr = run(str(path), "-o", str(out))
    assert code == 2 and reason in stderr
    assert "\n" not in stderr.strip()
    assert not out.exists()


def test_an_unwritable_output_exits_2(fleet_file: Path, tmp_path: Path) -> None:
    code, _, stderr = run(str(fleet_file), "-o", str(tmp_path / "no" / "such" / "dir.pdf"))
    assert code == 2 and stderr.startswith("cannot write ")


def test_an_unknown_layout_exits_2(fleet_file: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "ship_cards",
            str(fleet_file),
            "-o",
            str(tmp_path / "x.pdf"),
            "--layout",
            "tarot",
        ],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "invalid choice: 'tarot'" in done.stderr


def test_the_cards_are_the_edition_the_file_names(fleet_file: Path, tmp_path: Path) -> None:
    """R-160: the file's edition prints on every card; R-161: one naming none prints under
    the first, with the note on stderr; an unknown one exits 2 naming the known editions."""
    data = json.loads(fleet_file.read_text())
    out = tmp_path / "cards.pdf"
    data["edition"] = 6
    fleet_file.write_text(json.dumps(data))
    assert run(str(fleet_file), "-o", str(out))[0] == 0
    assert Pdf(out.read_bytes()).text.count("Edition 6") == len(data["units"]) + 1
    del data["edition"]
    fleet_file.write_text(json.dumps(data))
    code, _, stderr = run(str(fleet_file), "-o", str(out))
    assert code == 0 and stderr.startswith("note: This list names no edition")
    assert "Edition 1" in Pdf(out.read_bytes()).text
    data["edition"] = 99
    fleet_file.write_text(json.dumps(data))
    out.unlink()
    code, stdout, stderr = run(str(fleet_file), "-o", str(out))
    assert (code, stdout) == (2, "") and not out.exists()
    assert stderr.strip().endswith("the known editions are 1, 2, 3, 4, 5, 6, 7.")
