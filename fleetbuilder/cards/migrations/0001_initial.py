# Big prints on the task queue.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PrintJob",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("public_id", models.CharField(editable=False, max_length=32, unique=True)),
                ("session_key", models.CharField(blank=True, db_index=True, max_length=64)),
                ("document", models.JSONField(help_text="The fleet file (contract 1) as it was asked for.")),
                ("name", models.CharField(max_length=200)),
                ("filename", models.CharField(max_length=200)),
                ("layout", models.CharField(max_length=10)),
                ("ink_saver", models.BooleanField(default=False)),
                ("share_url", models.TextField(blank=True)),
                ("cards", models.PositiveIntegerField()),
                ("cache_key", models.CharField(db_index=True, help_text="Where the PDF is kept in the shared cache.", max_length=100)),
                ("status", models.CharField(choices=[("queued", "waiting for a worker"), ("running", "rendering"), ("done", "ready"), ("failed", "failed")], default="queued", max_length=10)),
                ("error", models.TextField(blank=True, help_text="Why it failed, for the player.")),
                ("seconds", models.FloatField(blank=True, help_text="How long the worker took.", null=True)),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("started", models.DateTimeField(blank=True, null=True)),
                ("finished", models.DateTimeField(blank=True, null=True)),
                ("owner", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="print_jobs", to=settings.AUTH_USER_MODEL)),
            ],
            options={"ordering": ["-created", "-pk"]},
        ),
    ]
