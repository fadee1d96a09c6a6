"""The Python SDK (PyPI `mcp` 2.3.0) peer of `examples/bookshop.rs` for scripts/load-bench.

The same `add` tool (text and structuredContent {"result": n}) and `order_book` with the same two
resolvers (`check_stock` shared, `estimate_delivery` depending on it) through the SDK's own
`Resolve`. Served the way the SDK documents: `MCPServer.run("streamable-http")` (uvicorn), with
sessions for 2025-11-25 clients and stateless 2026-07-28 requests on the same endpoint, and
`json_response=True` so answers that need no stream are plain JSON, as ours are. Logging at
WARNING, so uvicorn writes no access-log line per request (ours writes none either).

Usage: python server.py --http 127.0.0.1:PORT
"""

import sys
from typing import Annotated

from mcp_types import ToolAnnotations
from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resolve import Resolve

INVENTORY = {"Dune": 7, "Neuromancer": 0}

mcp = MCPServer("Bookshop", log_level="WARNING")


class Stock(BaseModel):
    title: str
    copies: int


async def check_stock(title: str) -> Stock:
    return Stock(title=title, copies=INVENTORY.get(title, 0))


async def estimate_delivery(stock: Annotated[Stock, Resolve(check_stock)]) -> str:
    return "tomorrow" if stock.copies > 0 else "in 2-3 weeks"


@mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
async def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@mcp.tool()
async def order_book(
    title: str,
    stock: Annotated[Stock, Resolve(check_stock)],
    delivery: Annotated[str, Resolve(estimate_delivery)],
) -> str:
    """Order a book from the shop."""
    if stock.copies == 0:
        return f"'{title}' is on backorder; it would arrive {delivery}."
    return f"Ordered '{title}'; it arrives {delivery}."


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "--http":
        sys.exit("usage: server.py --http 127.0.0.1:PORT")
    host, _, port = sys.argv[2].rpartition(":")
    print(f"MCP server listening on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
    mcp.run("streamable-http", host=host, port=int(port), json_response=True)
