"""Settings: ``base`` reads the environment; ``embedded`` (make run), ``test`` and ``production``."""
