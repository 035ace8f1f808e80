"""MCP client adapter: servers from config, their tools offered to the model, results brought back.

The `mcp` SDK (0.8 s to import) is imported only by `mcp.connection`, which is imported only when at
least one server is configured; start-up without MCP does not pay for it. The SDK spawns stdio servers
itself (each in its own session, its tree killed on close): the one process spawn outside `exec/`, left
to the SDK because it owns the transport's pipes.
"""
