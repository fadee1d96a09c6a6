"""FastMCP's proxy (the standalone PyPI `fastmcp`, pinned with its whole dependency closure in
tests/peers/requirements-fastmcp.txt, installed by scripts/setup-peers) in front of one Streamable HTTP backend, for
scripts/gateway-bench: the gateway FastMCP users run, as its docs show it, `create_proxy(url)`,
served over Streamable HTTP (`transport="http"`). By default its defaults are kept: a fresh
backend session per request (`create_proxy(url)`), and the backend's era mirroring the front's.
With `--shared`, the proxy is given one connected `Client` instead, whose session every request
shares (FastMCP's documented alternative, faster, with the context mixing its docs warn of).
With `--json-response`, answers that need no stream are plain JSON (as ours are, and as
scripts/load-bench serves the Python SDK); logging at WARNING, so no access-log line per request.

Usage: python proxy.py BACKEND_URL HOST:PORT [--json-response] [--shared]
Prints `MCP server listening on http://HOST:PORT/mcp` on stderr, then serves until killed.
"""

import sys

import anyio
from fastmcp import Client
from fastmcp.server import create_proxy


async def serve(backend: str, host: str, port: int, flags: list[str]) -> None:
    http = dict(
        transport="http",
        host=host,
        port=port,
        path="/mcp",
        show_banner=False,
        log_level="WARNING",
        json_response="--json-response" in flags,
    )
    print(f"MCP server listening on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
    if "--shared" in flags:
        async with Client(backend) as client:
            await create_proxy(client, name="fastmcp-proxy").run_http_async(**http)
    else:
        await create_proxy(backend, name="fastmcp-proxy").run_http_async(**http)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    if len(args) != 2 or not set(flags) <= {"--json-response", "--shared"}:
        sys.exit("usage: proxy.py BACKEND_URL HOST:PORT [--json-response] [--shared]")
    backend, listen = args
    host, port = listen.rsplit(":", 1)
    anyio.run(serve, backend, host, int(port), flags)


if __name__ == "__main__":
    main()
