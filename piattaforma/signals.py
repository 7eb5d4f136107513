"""Keep the role groups' permissions in step after every migrate (permissions appear post-migrate);
close a staff member's open sockets when he signs out."""

from typing import Any

from django.apps import apps as global_apps
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_migrate
from django.dispatch import receiver

from piattaforma import twofa
from piattaforma.roles import sync_role_permissions


@receiver(post_migrate)
def sync_roles(sender: Any, apps: Any = global_apps, **kwargs: Any) -> None:
    try:
        group_model = apps.get_model("auth", "Group")
        permission_model = apps.get_model("auth", "Permission")
    except LookupError:
        return
    sync_role_permissions(group_model, permission_model)


@receiver(user_logged_out, dispatch_uid="twofa_sockets_close")
def staff_sockets_close(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    twofa.signed_out(request=request, user=user)
