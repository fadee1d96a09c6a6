#!/usr/bin/env python3
"""A scriptable client on the Python SDK 1.x (PyPI `mcp` 1.30.0, `ClientSession` over
`streamablehttp_client`), speaking 2025-11-25 sessions: the client inside most deployed Python
hosts. Run it with `$MCP_PEER_PYTHON1` (target/peers/venv-mcp1, see scripts/setup-peers).

Usage:
    py1_client.py --url URL [--elicit JSON]... [--sample TEXT]... [--timeout SECS] STEP...

    --elicit JSON   the answer to the next elicitation (an ElicitResult, e.g.
                    '{"action":"accept","content":{"confirm":true}}'); declares `elicitation`
    --sample TEXT   the answer to the next sampling request (an assistant text message from
                    model "test-model"); declares `sampling`
    STEP            call NAME ARGS_JSON   (one session for all the steps)
                    pause SECONDS         wait, the session's connection kept idle; prints
                                          {"paused": SECONDS}

Output (stdout): one JSON line per step, the result as the SDK parsed it, or
{"error": {...}} / {"exception": {...}}; then {"asked": [{"method": ..., "params": ...}, ...]};
or a single {"connect_error": ...} line. Exit status: 0 when the steps ran, 1 when connecting
failed, 2 on bad usage.
"""

from __future__ import annotations

import asyncio
import json
import sys
import warnings
from datetime import timedelta

warnings.simplefilter("ignore")

from mcp import ClientSession, types  # noqa: E402
from mcp.client.streamable_http import streamablehttp_client  # noqa: E402
from mcp.shared.exceptions import McpError  # noqa: E402


def emit(obj) -> None:
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def parse(argv: list[str]):
    url, elicit, sample, timeout, steps = None, [], [], 30.0, []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--url":
            url = argv[i + 1]
            i += 2
        elif arg == "--elicit":
            elicit.append(json.loads(argv[i + 1]))
            i += 2
        elif arg == "--sample":
            sample.append(argv[i + 1])
            i += 2
        elif arg == "--timeout":
            timeout = float(argv[i + 1])
            i += 2
        elif arg == "call" and i + 2 < len(argv):
            steps.append(("call", argv[i + 1], json.loads(argv[i + 2])))
            i += 3
        elif arg == "pause" and i + 1 < len(argv):
            steps.append(("pause", float(argv[i + 1])))
            i += 2
        else:
            print(f"py1_client.py: bad argument {arg!r}\n{__doc__}", file=sys.stderr)
            sys.exit(2)
    if not url:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    return url, elicit, sample, timeout, steps


async def run(url: str, elicit: list, sample: list, timeout: float, steps: list) -> int:
    asked: list = []

    async def on_elicit(_ctx, params: types.ElicitRequestParams):
        asked.append({"method": "elicitation/create", "params": params.model_dump(by_alias=True, exclude_none=True)})
        answer = elicit.pop(0) if elicit else {"action": "cancel"}
        return types.ElicitResult.model_validate(answer)

    async def on_sample(_ctx, params: types.CreateMessageRequestParams):
        asked.append({"method": "sampling/createMessage",
                      "params": params.model_dump(by_alias=True, exclude_none=True, mode="json")})
        text = sample.pop(0) if sample else ""
        return types.CreateMessageResult(role="assistant", model="test-model", stopReason="endTurn",
                                         content=types.TextContent(type="text", text=text))

    kwargs = {"read_timeout_seconds": timedelta(seconds=timeout)}
    if elicit:
        kwargs["elicitation_callback"] = on_elicit
    if sample:
        kwargs["sampling_callback"] = on_sample
    try:
        async with streamablehttp_client(url, timeout=timeout) as (read, write, _):
            async with ClientSession(read, write, **kwargs) as session:
                try:
                    await session.initialize()
                except Exception as e:  # noqa: BLE001
                    emit({"connect_error": {"exception": {"type": type(e).__name__, "message": str(e)}}})
                    return 1
                for step in steps:
                    if step[0] == "pause":
                        await asyncio.sleep(step[1])
                        emit({"paused": step[1]})
                        continue
                    _, name, arguments = step
                    try:
                        result = await session.call_tool(name, arguments)
                        emit(result.model_dump(by_alias=True, mode="json", exclude_none=True))
                    except McpError as e:
                        emit({"error": e.error.model_dump(mode="json", exclude_none=True)})
                    except Exception as e:  # noqa: BLE001
                        emit({"exception": {"type": type(e).__name__, "message": str(e)}})
    except BaseException as e:  # noqa: BLE001 - the transport's task group wraps its failures
        if isinstance(e, KeyboardInterrupt):
            raise
        emit({"exception": {"type": type(e).__name__, "message": str(e)[:500]}})
    emit({"asked": asked})
    return 0


def main() -> int:
    url, elicit, sample, timeout, steps = parse(sys.argv[1:])
    return asyncio.run(run(url, elicit, sample, timeout, steps))


if __name__ == "__main__":
    sys.exit(main())
