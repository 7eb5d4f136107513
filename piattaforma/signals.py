"""Keep the role groups' permissions in step after every migrate (permissions appear post-migrate)."""

from typing import Any

from django.apps import apps as global_apps
from django.db.models.signals import post_migrate
from django.dispatch import receiver

from piattaforma.roles import sync_role_permissions


@receiver(post_migrate)
def sync_roles(sender: Any, apps: Any = global_apps, **kwargs: Any) -> None:
    try:
        group_model = apps.get_model("auth", "Group")
        permission_model = apps.get_model("auth", "Permission")
    except LookupError:
        return
    sync_role_permissions(group_model, permission_model)
