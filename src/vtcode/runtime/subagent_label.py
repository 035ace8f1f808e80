"""Which subagent a provider warning is about.

Children share their parent's model client, whose retry and stream warnings go to the parent's notices;
with several children at once, "HTTP 500; retrying" did not say whose request failed. The child's
tasks carry its label in a context variable (asyncio copies it into every task the child starts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_LABEL: ContextVar[str] = ContextVar("vtcode_subagent_label", default="")


@contextmanager
def speaking_for(label: str) -> Iterator[None]:
    """Within this block (and the tasks started in it), warnings are said for subagent `label`."""
    token = _LABEL.set(label)
    try:
        yield
    finally:
        _LABEL.reset(token)


def labelled(notify: Callable[[str], None]) -> Callable[[str], None]:
    """`notify`, with the subagent's label in front of what is said from inside a child."""

    def say(text: str) -> None:
        label = _LABEL.get()
        notify(f"subagent {label}: {text}" if label else text)

    return say
