"""The race tests' harness (``run_in_threads``) reports a stuck worker and never hangs the run."""

from __future__ import annotations

import threading

import pytest

from tests.wallet.conftest import run_in_threads

pytestmark = pytest.mark.django_db  # on PostgreSQL each worker opens its session first


def test_a_stuck_worker_fails_fast_says_where_it_waits_and_cannot_keep_the_run_alive():
    release = threading.Event()

    def step(item: str) -> None:
        if item == "stuck":
            release.wait(30)  # a Python wait: no database session busy

    try:
        with pytest.raises(AssertionError) as info:
            run_in_threads([["ok"], ["stuck"]], step, timeout=1)
        message = str(info.value)
        assert "a worker is stuck" in message
        assert "--- plan-1" in message and "release.wait(30)" in message  # the stuck thread's stack
        stuck = [t for t in threading.enumerate() if t.name == "plan-1"]
        assert stuck and all(t.daemon for t in stuck)  # pytest's worker can still exit
    finally:
        release.set()


def test_a_worker_that_fails_releases_the_others_and_the_failure_is_reported():
    def step(item: int) -> None:
        if item == 1:
            raise ValueError("boom")

    with pytest.raises(AssertionError) as info:
        run_in_threads([[1], [2, 3]], step, timeout=5)
    assert "boom" in str(info.value)
