"""R-94 for text stored before the ruling: each character it forbids becomes U+FFFD.

Before R-94 a fleet file could bring a lone surrogate (a JSON ``"\\ud800"`` escape), NUL or
another control character into a stored fleet (SQLite kept them; PostgreSQL refused). Such a
fleet made its export, share page, link and "Download all" fail for everyone. This rewrites
the fleets' names, documents and undo entries, and the fleets kept by simulator runs, so that
every stored text follows R-94 again; a row that already does is not touched. Not reversible:
the characters were never readable.
"""

from django.db import migrations

from rules_core.text import scrub, scrub_tree


def clean(apps, schema_editor):  # noqa: ANN001, ANN201
    Fleet = apps.get_model("fleets", "Fleet")
    fields = ("name", "document", "last_removed")
    for fleet in Fleet.objects.only(*fields).iterator(chunk_size=500):
        new = {"name": scrub(fleet.name), "document": scrub_tree(fleet.document),
               "last_removed": scrub_tree(fleet.last_removed)}
        changed = {k: v for k, v in new.items() if v != getattr(fleet, k)}
        if changed:
            Fleet.objects.filter(pk=fleet.pk).update(**changed)
    Matchup = apps.get_model("simulator", "Matchup")
    fields = ("fleet_a", "fleet_b", "sources")
    for run in Matchup.objects.only(*fields).iterator(chunk_size=500):
        changed = {k: scrub_tree(getattr(run, k)) for k in fields}
        changed = {k: v for k, v in changed.items() if v != getattr(run, k)}
        if changed:
            Matchup.objects.filter(pk=run.pk).update(**changed)


class Migration(migrations.Migration):
    dependencies = [
        ("fleets", "0003_fleet_version"),
        ("simulator", "0003_requeued"),
    ]

    operations = [migrations.RunPython(clean, migrations.RunPython.noop, elidable=True)]
