"""Retry timing: Retry-After parsing, backoff growth, and the total budget."""

from __future__ import annotations

import email.utils

from vtcode.core.retry import RetryPolicy, backoff_delay, may_retry, parse_retry_after


def test_retry_after_ms_wins_over_seconds() -> None:
    assert parse_retry_after({"Retry-After-Ms": "250", "retry-after": "9"}, now=0) == 0.25


def test_retry_after_seconds_and_http_date() -> None:
    assert parse_retry_after({"retry-after": "1"}, now=0) == 1.0
    date = email.utils.formatdate(1_000_030, usegmt=True)
    assert parse_retry_after({"retry-after": date}, now=1_000_000) == 30.0


def test_bad_retry_after_is_ignored() -> None:
    assert parse_retry_after({"retry-after": "soon"}, now=0) is None
    assert parse_retry_after({"retry-after": "-3"}, now=0) is None
    assert parse_retry_after({}, now=0) is None


def test_backoff_grows_exponentially_within_jitter_and_cap() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=4.0)
    assert [backoff_delay(policy, n, None, 0.999999) for n in (1, 2, 3, 4, 5)] == [
        pytest_approx(0.5),
        pytest_approx(1.0),
        pytest_approx(2.0),
        pytest_approx(4.0),
        pytest_approx(4.0),
    ]
    assert backoff_delay(policy, 1, None, 0.0) == 0.25


def test_server_requested_delay_is_used_as_is() -> None:
    assert backoff_delay(RetryPolicy(), 3, 1.0, 0.5) == 1.0


def test_budget_limits_count_and_total_wait() -> None:
    policy = RetryPolicy(max_retries=2, max_total=5.0)
    assert may_retry(policy, 1, 1.0, 0.0)
    assert not may_retry(policy, 3, 0.1, 0.0)
    assert not may_retry(policy, 1, 6.0, 0.0)
    assert not may_retry(policy, 2, 2.0, 3.5)


def pytest_approx(value: float) -> object:
    import pytest

    return pytest.approx(value, rel=1e-4)
