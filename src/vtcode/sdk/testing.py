"""Test doubles for programs built on the SDK: a scripted model, so their tests run offline.

```python
from vtcode.sdk.testing import Reply, ScriptedModel, ScriptToolCall

model = ScriptedModel([Reply(tool_calls=(ScriptToolCall("ticket", '{"key": "ABC-1"}'),)), Reply(text="done")])
options = vt.Options(workspace=tmp_path, tools=[ticket], model_client=model)
# model.requests: every request the session made, tools and messages as the runtime built them
```

`no_network()` makes any connection beyond loopback fail at once (`NetworkBlocked`) while it runs.
"""

from vtcode.testing.network_guard import NetworkBlocked, no_network
from vtcode.testing.script import HttpError, Reply, ScriptToolCall
from vtcode.testing.scripted_model import ScriptedModel

__all__ = ["HttpError", "NetworkBlocked", "Reply", "ScriptToolCall", "ScriptedModel", "no_network"]
