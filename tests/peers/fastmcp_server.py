"""A server on FastMCP (the standalone PyPI `fastmcp`, pinned in requirements-fastmcp.txt), over
stdio, as a gateway backend nobody here wrote (tests/gateway_backends.rs):

- `add(a, b)`: a plain call;
- `confirm(item)`: asks the user (an elicitation, yes or no) before it answers;
- `count(n)`: reports progress n times and logs a line, then answers;
- the resource `notes://today` and the prompt `review(topic)`.

FastMCP 4.1.6 asks its questions with server-to-client requests, which exist on 2025-11-25
sessions only (on 2026-07-28 its `elicit` raises), so a client that wants the question speaks
2025-11-25 to it.

Usage: python fastmcp_server.py   (stdio; nothing else)
"""

from fastmcp import Context, FastMCP

mcp = FastMCP("fastmcp-peer")


@mcp.tool
def add(a: int, b: int) -> int:
    """Adds two numbers."""
    return a + b


@mcp.tool
async def confirm(item: str, ctx: Context) -> str:
    """Asks the user to confirm an order of `item`."""
    answer = await ctx.elicit(f"Order {item}?", response_type=bool)
    if answer.action != "accept":
        return f"{answer.action}: {item}"
    return f"ordered {item}" if answer.data else f"not ordered {item}"


@mcp.tool
async def count(n: int, ctx: Context) -> str:
    """Counts to `n`, reporting each step as progress."""
    for step in range(1, n + 1):
        await ctx.report_progress(step, n)
    await ctx.info(f"counted to {n}")
    return f"counted {n}"


@mcp.resource("notes://today", mime_type="text/plain")
def today() -> str:
    """Today's note."""
    return "Buy milk."


@mcp.prompt
def review(topic: str) -> str:
    """Asks for a review of `topic`."""
    return f"Review {topic}."


if __name__ == "__main__":
    mcp.run(show_banner=False)
