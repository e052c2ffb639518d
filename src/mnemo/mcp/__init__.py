"""mnemo as an MCP server: plain tool functions over Memory (tools.py), output sizing (sizing.py),
and the SDK wiring (server.py, which needs the ``mcp`` extra and imports it lazily)."""
