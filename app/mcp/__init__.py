"""The Model Context Protocol server: memory tools for agents at `/mcp` (Streamable HTTP), same keys as REST."""
