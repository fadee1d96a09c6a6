"""A server on the Python SDK 1.x (PyPI `mcp`, pinned in tests/peers/requirements-mcp1.txt), the
SDK inside most deployed Python servers. The client's and the CLI's tests drive it with no era
flag: tools, resources (text, blob, a template), a prompt, an elicitation with required fields,
defaults and formats, sampling, roots, a long operation with progress, log messages at four
levels (the gateway's tests pass them on), and a call that waits to be cancelled.

Usage: python py1_server.py --stdio | --http HOST:PORT [--quiet-until-set-level]
With `--quiet-until-set-level` it declares `logging` and keeps to the session's level, `error`
until the client sends `logging/setLevel` (a backend that says little unless asked): what the
gateway's test of the level it asks of a 2025-11-25 backend needs.
Over HTTP it prints `MCP server listening on http://HOST:PORT/mcp` on stderr, then serves a
stateful Streamable HTTP endpoint (sessions, as FastMCP does by default).
"""

import argparse
import asyncio
import sys

from pydantic import BaseModel, Field

from mcp.server.fastmcp import Context, FastMCP
from mcp.types import LoggingLevel, SamplingMessage, TextContent

mcp = FastMCP("py1-peer", instructions="A Python SDK 1.x test peer.")


@mcp.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


@mcp.tool()
def echo(message: str) -> str:
    """Echoes the message back."""
    return f"Echo: {message}"


class Signup(BaseModel):
    name: str = Field(description="Your name")
    email: str = Field(description="Your email", json_schema_extra={"format": "email"})
    age: int = Field(default=30, description="Your age")
    newsletter: bool = Field(default=False, description="Send the newsletter")


@mcp.tool()
async def signup(ctx: Context) -> str:
    """Asks the user for their details (an elicitation)."""
    answer = await ctx.elicit("Sign up for the club", Signup)
    if answer.action != "accept":
        return f"signup {answer.action}"
    data = answer.data
    return f"signed up {data.name} <{data.email}>, age {data.age}, newsletter {data.newsletter}"


@mcp.tool()
async def haiku(topic: str, ctx: Context) -> str:
    """Asks the client's model for a haiku (sampling)."""
    result = await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=f"A haiku about {topic}"))],
        max_tokens=50,
    )
    text = result.content.text if result.content.type == "text" else "?"
    return f"model {result.model} says: {text}"


@mcp.tool()
async def roots(ctx: Context) -> str:
    """Lists the client's roots."""
    listed = await ctx.session.list_roots()
    return "roots: " + ", ".join(str(root.uri) for root in listed.roots)


@mcp.tool()
async def countdown(steps: int, ctx: Context) -> str:
    """Counts down with a progress notification per step."""
    for step in range(1, steps + 1):
        await asyncio.sleep(0.05)
        await ctx.report_progress(step, steps, f"step {step}")
    return f"counted {steps} steps"


_waits = {"started": 0, "cancelled": 0}


@mcp.tool()
async def wait_for_cancel() -> str:
    """Waits (a minute at most) for the call to be cancelled; `waits` counts them."""
    _waits["started"] += 1
    try:
        await asyncio.sleep(60)
    except asyncio.CancelledError:
        _waits["cancelled"] += 1
        raise
    return "not cancelled"


@mcp.tool()
def waits() -> str:
    """How many wait_for_cancel calls started, and how many of them were cancelled."""
    return f"started {_waits['started']}, cancelled {_waits['cancelled']}"


# The session's log level and the levels asked for so far (`--quiet-until-set-level` only).
_levels = {"current": None, "asked": []}
_SEVERITY = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]


async def set_level(level: LoggingLevel) -> None:
    _levels["current"] = level
    _levels["asked"].append(level)


@mcp.tool()
async def chatter(ctx: Context) -> str:
    """Logs one message at each of four levels (with `--quiet-until-set-level`, those at or
    above the session's level)."""
    current = _levels["current"]
    for level in ["debug", "info", "warning", "error"]:
        if current is None or _SEVERITY.index(level) >= _SEVERITY.index(current):
            await ctx.log(level, f"{level} line")
    return "chattered"


def levels_asked() -> str:
    """The levels `logging/setLevel` asked for, in order (a tool only with
    `--quiet-until-set-level`)."""
    return ",".join(_levels["asked"])


@mcp.resource("docs://readme", name="readme", mime_type="text/plain")
def readme() -> str:
    """The readme."""
    return "Read me first."


@mcp.resource("docs://logo", name="logo", mime_type="image/png")
def logo() -> bytes:
    """A tiny picture (a blob)."""
    return b"\x89PNG\r\n\x1a\n-py1-"


@mcp.resource("books://{title}", name="book", mime_type="text/plain")
def book(title: str) -> str:
    """A book by title (a template)."""
    return f"The book {title}."


@mcp.prompt()
def greet(name: str) -> str:
    """Greets someone."""
    return f"Say hello to {name}."


def main() -> None:
    parser = argparse.ArgumentParser()
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--stdio", action="store_true")
    group.add_argument("--http", metavar="HOST:PORT")
    parser.add_argument("--quiet-until-set-level", action="store_true")
    args = parser.parse_args()
    if args.quiet_until_set_level:
        _levels["current"] = "error"
        mcp._mcp_server.set_logging_level()(set_level)
        mcp.tool()(levels_asked)
    if args.stdio:
        mcp.run("stdio")
        return
    host, port = args.http.rsplit(":", 1)
    mcp.settings.host = host
    mcp.settings.port = int(port)
    mcp.settings.log_level = "WARNING"
    print(f"MCP server listening on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
    mcp.run("streamable-http")


if __name__ == "__main__":
    main()
