"""The names of vtcode's ACP extension methods: the `vtcode acp` agent (`acp/`) and the SDK's subprocess
transport (`sdk/transport/`) speak them from the two ends, so both take them from here.

The ACP library sends each with a leading underscore (`_vtcode/event`), as extension methods go.
"""

from __future__ import annotations

# The key of vtcode's fields in ACP's `_meta` objects (`protocol.acp_messages` has their shapes); the ACP
# library takes a request's `_meta` fields as keyword arguments, so it is also that keyword.
META_KEY = "vtcode"

# The typed event stream, and the operations ACP has no method for (`acp.sdk_extension`).
EVENT = "vtcode/event"
OP = "vtcode/op"
# The session's account of its model calls (`Session.usage()` of the SDK).
USAGE = "vtcode/usage"
# The program's own tools, run in the program (`acp.client_tools`).
TOOL_CALL = "vtcode/tool_call"
TOOL_CANCEL = "vtcode/tool_cancel"
# The program's hooks (`acp.client_hooks`).
HOOK = "vtcode/hook"
HOOK_CANCEL = "vtcode/hook_cancel"
# The program's model client: a stream's first batch, its next one, and its withdrawal (`acp.client_model`).
MODEL = "vtcode/model"
MODEL_NEXT = "vtcode/model_next"
MODEL_CANCEL = "vtcode/model_cancel"
