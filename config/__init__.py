"""The Django project's wiring: settings, URLs, the ASGI entry point, WebSocket routes, the Celery app.

It holds no domain code: the apps (``piattaforma`` the core, ``wallet``, ``lobby``, ``tournaments``,
``moderation``) hold that. Importing the project, as Django does with ``config.settings``, loads the
Celery app first, so that every ``@shared_task`` binds to it.
"""

from config.celery import app as celery_app

__all__ = ["celery_app"]
