"""Deleting a stored session (`vtcode sessions delete`): never one a process is running."""

from __future__ import annotations

import shutil

from vtcode.protocol.errors import UsageError
from vtcode.store.errors import store_error
from vtcode.store.session import SessionStore


def delete_session(store: SessionStore, session_id: str) -> str:
    """Remove the session `session_id` (or a unique prefix) with everything it holds; its full id.

    The directory is renamed out of the listing first, so a crash part-way leaves no half session.
    """
    resolved = store.resolve_id(session_id)
    if store.is_running(resolved):
        raise UsageError(
            f"session {resolved} is running; it cannot be deleted now",
            hint="stop the vtcode process running it first",
        )
    directory = store.sessions_dir / resolved
    doomed = store.sessions_dir / f".deleting-{resolved}"
    try:
        directory.rename(doomed)
        shutil.rmtree(doomed)
    except OSError as err:
        raise store_error(err, "delete", directory) from err
    return resolved
