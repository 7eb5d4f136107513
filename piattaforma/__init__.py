"""The Django project and the platform core (users, roles, preferences, audit, health).

The design card calls this package ``platform/``; it is ``piattaforma/`` because a package named
``platform`` would shadow Python's standard-library module that Twisted/Daphne and Celery import.
"""
