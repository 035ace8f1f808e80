"""How the notices start by which a compaction between turns ends without a `thread.compacted` event.

The runtime words its notices with these; `vtcode.sdk`'s `compact()` recognises its outcome by them. One
definition for both, so rewording a notice cannot leave a `compact()` call waiting for an outcome it no
longer recognises.
"""

from __future__ import annotations

# An info notice: the history already fits in the verbatim tail (nothing changed).
NOTHING_TO_COMPACT = "nothing to compact"
# Warning notices: the history is kept as it was.
COMPACTION_FAILED = "compaction failed"
COMPACTION_INTERRUPTED = "compaction interrupted"
COMPACTION_BLOCKED = "compaction blocked"
HISTORY_KEPT = (COMPACTION_FAILED, COMPACTION_INTERRUPTED, COMPACTION_BLOCKED)
