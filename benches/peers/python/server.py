"""The Python SDK (PyPI `mcp` 2.3.0) peer of `examples/bookshop` for scripts/load-bench.

The same `add` tool (text and structuredContent {"result": n}) and `order_book` with the same two
resolvers (`check_stock` shared, `estimate_delivery` depending on it) through the SDK's own
`Resolve`, and `confirm_order`, which asks the user one form question (`confirm`, a boolean) through
a resolver returning `Elicit`, as the SDK's dependencies docs show (tests/client_peers.rs answers it
from mcpwire's client on both revisions). Served the way the SDK documents: `MCPServer.run("streamable-http")` (uvicorn), with
sessions for 2025-11-25 clients and stateless 2026-07-28 requests on the same endpoint. With
`--json-response` (scripts/load-bench), `json_response=True`, so answers that need no stream are
plain JSON, as ours are; without it, the SDK's default (SSE answers), which a 2025-11-25 session
needs for the server's own requests (`confirm_order`'s question): in JSON mode the SDK has no
back-channel for them. Logging at
WARNING, so uvicorn writes no access-log line per request (ours writes none either).

`--stdio` serves the same tools over stdio instead (`MCPServer.run("stdio")`).

Usage: python server.py --http 127.0.0.1:PORT [--json-response] | --stdio
"""

import sys
from typing import Annotated

from mcp_types import ToolAnnotations
from pydantic import BaseModel

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve

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


class Confirmation(BaseModel):
    confirm: bool


async def ask_confirmation(title: str) -> Elicit[Confirmation]:
    return Elicit(f"Order '{title}'?", Confirmation)


@mcp.tool()
async def confirm_order(
    title: str,
    answer: Annotated[ElicitationResult[Confirmation], Resolve(ask_confirmation)],
) -> str:
    """Order a book after the user confirms."""
    if answer.action != "accept":
        return f"Not ordered: {answer.action}."
    return f"Ordered '{title}'." if answer.data.confirm else "Not ordered: not confirmed."


if __name__ == "__main__":
    if sys.argv[1:] == ["--stdio"]:
        mcp.run("stdio")
        sys.exit(0)
    json_response = sys.argv[3:] == ["--json-response"]
    if len(sys.argv) not in (3, 4) or sys.argv[1] != "--http" or (len(sys.argv) == 4 and not json_response):
        sys.exit("usage: server.py --http 127.0.0.1:PORT [--json-response] | --stdio")
    host, _, port = sys.argv[2].rpartition(":")
    print(f"MCP server listening on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
    mcp.run("streamable-http", host=host, port=int(port), json_response=json_response)
