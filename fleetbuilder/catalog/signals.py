"""An admin edit changes the catalogue's version, so cached rules_core catalogues are rebuilt
and the next ``load_catalog`` restores the files (the source of truth)."""

import uuid

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import Signal

from . import models, pagecache

loading = False  # set by the loader, which writes CatalogState itself

# Sent by the loader after a new catalogue version has been committed, with ``catalog`` (the
# rules_core values): apps that cache anything priced by the catalogue refresh it (the fleets
# app re-validates saved fleets, so "My fleets" shows the totals the validator now gives).
catalogue_loaded = Signal()


def catalogue_edited(sender, **kwargs) -> None:
    if loading or sender is models.CatalogState:
        return
    base = models.CatalogState.current_version().split("~")[0]
    version = f"{base}~edited-{uuid.uuid4().hex[:8]}"
    models.CatalogState.objects.update(version=version)
    pagecache.version_changed(version)


def connect() -> None:
    for model in (
        models.Faction,
        models.Variant,
        models.AttackCraft,
        models.ShipProfile,
        models.Weapon,
        models.Upgrade,
        models.AdmiralRank,
        models.CompositionRule,
    ):
        post_save.connect(catalogue_edited, sender=model, dispatch_uid=f"edit-{model.__name__}")
        post_delete.connect(catalogue_edited, sender=model, dispatch_uid=f"del-{model.__name__}")
    m2m_changed.connect(
        catalogue_edited,
        sender=models.ShipProfile.attack_craft.through,
        dispatch_uid="edit-craft-m2m",
    )
