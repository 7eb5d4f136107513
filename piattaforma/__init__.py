"""The platform core: users and roles, identity, audit log, site operations, hooks, back office.

The domain every app builds on: the User model and the roles (players, moderators, staff), the
codice fiscale and identity documents, the tamper-evident audit log, game switches, site hours
and notices, the reports, and ``piattaforma.hooks``, the explicit extension points through which
the core and the apps call each other without import cycles or Django signals. The back office
(Django admin at /backoffice/) is assembled here. The design card calls this package ``platform/``;
a package named ``platform`` would shadow Python's standard-library module.
"""
