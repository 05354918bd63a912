"""Docker cannot run here, so the compose file and the Dockerfile are checked for what they
promise: web and worker run the same entry points as scripts/serve, beside PostgreSQL and
Redis, and everything shared goes through those two."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.own_database  # reads files; starts nothing

ROOT = Path(__file__).resolve().parents[2]


def test_compose_runs_web_and_worker_through_scripts_serve_beside_postgres_and_redis() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"web", "worker", "db", "redis"}
    assert services["web"]["command"] == ["scripts/serve", "web"]
    assert services["worker"]["command"] == ["scripts/serve", "worker"]
    for name in ("web", "worker"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@db:" in env["DATABASE_URL"]
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert "SECRET_KEY" in env and services[name]["build"] == "."
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    serve = (ROOT / "scripts" / "serve").read_text()
    assert "web)" in serve and "worker)" in serve  # the parts compose names exist


def test_the_image_installs_with_the_setup_script_and_starts_the_web_part() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "bash scripts/setup.sh" in dockerfile
    assert 'CMD ["scripts/serve", "web"]' in dockerfile
    assert "SERVE_SKIP_SETUP=1" in dockerfile
