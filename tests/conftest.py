"""Suite-wide test configuration."""

import os

from hypothesis import HealthCheck, settings

# "ci" keeps the whole suite inside CI's budget; "thorough" is for a long local run:
#   HYPOTHESIS_PROFILE=thorough make test
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
