"""The editor's buffers as the tools' `TextBuffers` port: `read_file` reads through `fs/read_text_file`,
and the files edits wrote are handed to the editor through `fs/write_text_file`."""

from __future__ import annotations

import logging
from pathlib import Path

from acp import RequestError
from acp.interfaces import Client

log = logging.getLogger(__name__)


class EditorBuffers:
    """Reads files through the client, so unsaved edits are what the model sees.

    The session id is known only once the runtime session is open; until then (and on any client
    failure) the tools read the disk.
    """

    def __init__(self, client: Client, *, read: bool, write: bool) -> None:
        self._client = client
        self._read = read
        self._write = write
        self.session_id: str | None = None

    async def read_text(self, path: Path) -> str | None:
        """The client's text of `path`; None when it cannot say (the tool reads the disk)."""
        if self.session_id is None or not self._read:
            return None
        try:
            response = await self._client.read_text_file(session_id=self.session_id, path=str(path))
        except (RequestError, ConnectionError) as exc:
            log.info("fs/read_text_file %s failed (%s); reading the disk", path, exc)
            return None
        return response.content

    async def written(self, path: Path, text: str) -> None:
        """Give the editor the new text of a file an edit wrote, so its buffer shows the edit."""
        if self.session_id is None or not self._write:
            return
        await self._client.write_text_file(session_id=self.session_id, path=str(path), content=text)
