"""`vtcode acp`: the Agent Client Protocol front end (editors drive vtcode over stdio, JSON-RPC).

A front end like the TUI: it submits operations to runtime sessions and turns their events into ACP
`session/update` notifications. The SDK (`acp`) is imported only from here, only by `vtcode acp`.
"""
