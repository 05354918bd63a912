"""API players: each with a personal token, and a client that sends it (and no cookie)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from fleetbuilder.api.models import ApiToken
from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core.sample_fleets import sample_fleet

PASSWORD = "a long password for tests 9"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


class Api(Client):
    """A program calling the API: JSON in and out, its token (if any) on every request."""

    def __init__(self, token: str | None = None, **kwargs: Any) -> None:
        super().__init__(enforce_csrf_checks=True, **kwargs)
        self.token = token

    def _auth(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        if self.token is not None and "HTTP_AUTHORIZATION" not in kwargs:
            kwargs["HTTP_AUTHORIZATION"] = f"Bearer {self.token}"
        return kwargs

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: str | bytes | None = None,
        **kwargs: Any,
    ) -> Any:
        data = raw if raw is not None else (json.dumps(body) if body is not None else "")
        return self.generic(
            method, path, data, content_type="application/json", **self._auth(kwargs)
        )

    def get(self, path: str, data: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        return super().get(path, data, **self._auth(kwargs))


@dataclass
class ApiUser:
    user: Any
    token: str
    api: Api


@pytest.fixture
def make_player(db) -> Callable[[str], ApiUser]:
    def make(username: str) -> ApiUser:
        user = get_user_model().objects.create_user(username, password=PASSWORD)
        _, raw = ApiToken.issue(user, f"{username}'s script")
        return ApiUser(user, raw, Api(raw))

    return make


@pytest.fixture
def player(make_player: Callable[[str], ApiUser]) -> ApiUser:
    return make_player("rhaine")


@pytest.fixture
def rival(make_player: Callable[[str], ApiUser]) -> ApiUser:
    return make_player("vorn")


@pytest.fixture
def anonymous(db) -> Api:
    return Api()


@pytest.fixture
def patrol(catalog) -> dict[str, Any]:
    """The Imperial Navy Patrol sample as a fleet file (contract 1): legal."""
    return rf.fleet_to_dict(sample_fleet(catalog, "imperial-navy", "patrol"))


@pytest.fixture
def named_patrol(patrol: dict[str, Any]) -> dict[str, Any]:
    """``patrol`` naming the edition its prices are (R-160); ``patrol`` names none, so the API
    reads it under the first edition (R-161)."""
    return {**patrol, "edition": editions.current_number()}


@pytest.fixture
def saved(catalog, patrol: dict[str, Any]) -> Callable[[ApiUser], Fleet]:
    def save(owner: ApiUser, doc: dict[str, Any] | None = None) -> Fleet:
        return Fleet.from_core(rf.parse_fleet(doc or patrol), catalog, owner=owner.user)

    return save
