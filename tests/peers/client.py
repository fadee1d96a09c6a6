#!/usr/bin/env python3
"""Scriptable MCP client built on the official Python SDK (PyPI `mcp` 2.3.0, high-level `mcp.client.Client`).

Integration tests run this as a subprocess against our server and assert on its stdout. It has
no assertions of its own: it only performs the steps it is given and reports what it saw.
Run it with the venv made by `scripts/setup-peers` (`$MCP_PEER_PYTHON`, see target/peers/env.sh).

Usage:
    client.py --mode MODE (--stdio CMD [ARG...] -- | --http URL) [OPTIONS] STEP...

MODE is passed to `Client(mode=...)`:
    legacy      initialize handshake (2025-11-25), one session for all steps
    2026-07-28  stateless modern requests; no handshake and no server/discover is sent
                (the SDK synthesizes an empty DiscoverResult and stamps every request's _meta)
    auto        the SDK probes server/discover and falls back to initialize

Transport:
    --stdio CMD [ARG...] --   spawn the server; the arguments end at the first lone `--`.
                              The server inherits this process's whole environment.
    --http URL                Streamable HTTP (tests/http_peers.rs).

OPTIONS (each answer flag also decides what the client declares, see below):
    --elicit JSON      a scripted answer to the next elicitation request, in order. JSON is an
                       ElicitResult (e.g. '{"action":"accept","content":{"confirm":true}}'), or
                       '{"error":{"code":-1,"message":"..."}}' to answer with an error. Repeatable.
                       When the scripted answers run out, further elicitations get {"action":"cancel"}.
    --sample TEXT      a scripted answer to the next sampling request: an assistant text message
                       with model "test-model" and stopReason "endTurn". Repeatable.
    --sample-json JSON the same queue, but a whole CreateMessageResult or '{"error":{...}}'.
                       When the sampling answers run out, the client answers with error -32600.
    --roots JSON       the answer to every roots/list: a list of roots [{"uri":"file:///x","name":"x"}]
                       or a whole ListRootsResult {"roots":[...]}.
    --timeout SECS     per-request read timeout (default 30; an expired one prints an error line).
    --max-rounds N     cap on input_required retry rounds (SDK default 10).
    --cache            keep the SDK's default response cache (off by default, so every step reaches
                       the server).
    --wire-log FILE    append every JSON-RPC message as a JSON line {"dir":"send"|"recv","message":...}.

Capabilities: the client declares `elicitation` ({"form":{},"url":{}}: the SDK always declares
both modes) only if at least one --elicit was given, `sampling` ({}) only if --sample/--sample-json
was given, and `roots` ({"listChanged":true}) only if --roots was given. With none of them the
declared capabilities are {}.

STEP (run in order over ONE connection):
    list-tools | list-prompts | list-resources | list-resource-templates
    call NAME ARGS_JSON         tools/call   (ARGS_JSON is an object, e.g. '{"text":"hi"}')
    call-within SECS NAME ARGS_JSON
                                tools/call with its own read timeout of SECS: when it expires the
                                SDK gives the call up (and tells the server, as it does)
    get-prompt NAME ARGS_JSON   prompts/get  (an object of strings)
    read-resource URI           resources/read
    discover                    send one raw server/discover (2026-07-28 _meta) and print its result
    ping                        legacy ping
    pause SECONDS               wait, the connection kept idle, and print {"paused": SECONDS}

Output (stdout, one JSON object per line, nothing else):
    - one line per step: the SDK's parsed result as wire JSON
      (`model_dump(by_alias=True, mode="json", exclude_none=True, exclude_unset=True)`, so only
      fields the server sent appear, but key order and number formatting are pydantic's and
      fields unknown to the SDK's models are dropped; `discover` prints the raw dict).
      A tool that failed in-band is an ordinary result with "isError": true.
    - or {"error": {"code": INT, "message": STR, "data": ANY}} when the SDK raised an MCP error
      (a JSON-RPC error response from the server, a request timeout, a closed connection, or an
      error the client's own callback answered with); "data" is left out when absent.
    - or {"exception": {"type": STR, "message": STR}} for any other failure of that step (e.g.
      InputRequiredRoundsExceededError, RuntimeError on structured content that fails the tool's
      outputSchema, pydantic ValidationError on a malformed result).
    - if connecting fails (initialize error, spawn failure), a single {"connect_error": {...}}
      line (holding an "error" or "exception" object as above) replaces all step lines.
    - finally always {"asked": [{"method": ..., "params": ...}, ...]}: every elicitation/create,
      sampling/createMessage and roots/list the client was asked, in the order received (legacy:
      server-to-client requests; modern: the inputRequests of input_required results, a round's
      requests in key order).
Exit status: 0 when the steps ran (whatever they returned), 1 when connecting failed, 2 on bad usage.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections import deque
from dataclasses import dataclass, field
from typing import Any

USAGE = (
    "usage: client.py --mode legacy|2026-07-28|auto (--stdio CMD [ARG...] -- | --http URL)\n"
    "                 [--elicit JSON]... [--sample TEXT]... [--sample-json JSON]... [--roots JSON]\n"
    "                 [--timeout SECS] [--max-rounds N] [--cache] [--wire-log FILE] STEP...\n"
    "steps: list-tools | call NAME ARGS_JSON | call-within SECS NAME ARGS_JSON |\n"
    "       list-prompts | get-prompt NAME ARGS_JSON |\n"
    "       list-resources | list-resource-templates | read-resource URI | discover | ping"
)

# step name -> number of arguments it takes
STEPS = {
    "list-tools": 0,
    "call": 2,
    "call-within": 3,
    "list-prompts": 0,
    "get-prompt": 2,
    "list-resources": 0,
    "list-resource-templates": 0,
    "read-resource": 1,
    "discover": 0,
    "ping": 0,
    "pause": 1,
}
# step name -> which of its arguments is ARGS_JSON (a JSON object)
ARGS_JSON_AT = {"call": 1, "call-within": 2, "get-prompt": 1}


class UsageError(Exception):
    pass


@dataclass
class Options:
    mode: str | None = None
    stdio: list[str] | None = None
    http: str | None = None
    elicit: list[Any] = field(default_factory=list)
    sample: list[Any] = field(default_factory=list)  # str (text) or dict (whole result / error)
    roots: Any = None
    timeout: float | None = 30.0
    max_rounds: int | None = None
    cache: bool = False
    wire_log: str | None = None
    steps: list[tuple[str, list[str]]] = field(default_factory=list)


def _json_arg(flag: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{flag}: not valid JSON ({e}): {text!r}") from None


def parse_args(argv: list[str]) -> Options:
    opts = Options()
    i = 0

    def value(flag: str) -> str:
        nonlocal i
        if i + 1 >= len(argv):
            raise UsageError(f"{flag} needs a value")
        i += 1
        return argv[i]

    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            print(__doc__, file=sys.stderr)
            sys.exit(0)
        elif arg == "--mode":
            opts.mode = value(arg)
        elif arg == "--stdio":
            try:
                end = argv.index("--", i + 1)
            except ValueError:
                raise UsageError("--stdio CMD [ARG...] must be closed by a lone --") from None
            opts.stdio = argv[i + 1 : end]
            if not opts.stdio:
                raise UsageError("--stdio needs a command")
            i = end
        elif arg == "--http":
            opts.http = value(arg)
        elif arg == "--elicit":
            opts.elicit.append(_json_arg(arg, value(arg)))
        elif arg == "--sample":
            opts.sample.append(value(arg))
        elif arg == "--sample-json":
            opts.sample.append(_json_arg(arg, value(arg)))
        elif arg == "--roots":
            opts.roots = _json_arg(arg, value(arg))
        elif arg == "--timeout":
            t = float(value(arg))
            opts.timeout = t if t > 0 else None
        elif arg == "--max-rounds":
            opts.max_rounds = int(value(arg))
        elif arg == "--cache":
            opts.cache = True
        elif arg == "--wire-log":
            opts.wire_log = value(arg)
        elif arg in STEPS:
            n = STEPS[arg]
            if i + n >= len(argv):
                raise UsageError(f"step {arg} takes {n} argument(s)")
            opts.steps.append((arg, argv[i + 1 : i + 1 + n]))
            i += n
        else:
            raise UsageError(f"unknown argument or step: {arg!r}")
        i += 1

    if opts.mode is None:
        raise UsageError("--mode is required")
    if (opts.stdio is None) == (opts.http is None):
        raise UsageError("give exactly one of --stdio CMD... -- or --http URL")
    for name, args in opts.steps:
        at = ARGS_JSON_AT.get(name)
        if at is not None and not isinstance(_json_arg(name, args[at]), dict):
            raise UsageError(f"{name}: ARGS_JSON must be a JSON object")
    return opts


def emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")
    sys.stdout.flush()


def dump(model: Any) -> Any:
    # exclude_unset: print only the fields the peer actually sent. Without it pydantic defaults
    # would appear that were never on the wire (e.g. "resultType":"complete" and "ttlMs":0 on a
    # legacy tools/list result).
    return model.model_dump(by_alias=True, mode="json", exclude_none=True, exclude_unset=True)


def main(argv: list[str]) -> int:
    try:
        opts = parse_args(argv)
    except UsageError as e:
        print(f"client.py: {e}\n{USAGE}", file=sys.stderr)
        return 2

    # Imported after argument parsing so that `--help` and usage errors work without the venv.
    import anyio

    return anyio.run(run, opts)


def describe_exception(exc: BaseException) -> dict[str, Any]:
    from mcp.shared.exceptions import MCPError

    # Unwrap single-member exception groups (anyio task groups wrap callback failures).
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    if isinstance(exc, MCPError):
        return {"error": exc.error.model_dump(mode="json", exclude_none=True)}
    return {"exception": {"type": type(exc).__name__, "message": str(exc)}}


class _LoggedRead:
    """ReadStream proxy that logs every received message."""

    def __init__(self, inner: Any, log: Any) -> None:
        self._inner = inner
        self._log = log

    def _record(self, item: Any) -> Any:
        if isinstance(item, Exception):
            self._log({"dir": "recv", "exception": f"{type(item).__name__}: {item}"})
        else:
            self._log({"dir": "recv", "message": item.message.model_dump(by_alias=True, mode="json", exclude_unset=True)})
        return item

    async def receive(self) -> Any:
        return self._record(await self._inner.receive())

    def __aiter__(self) -> _LoggedRead:
        return self

    async def __anext__(self) -> Any:
        return self._record(await self._inner.__anext__())

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _LoggedRead:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._inner.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:  # e.g. `last_context`
        return getattr(self._inner, name)


class _LoggedWrite:
    """WriteStream proxy that logs every sent message."""

    def __init__(self, inner: Any, log: Any) -> None:
        self._inner = inner
        self._log = log

    async def send(self, item: Any) -> None:
        self._log({"dir": "send", "message": item.message.model_dump(by_alias=True, mode="json", exclude_unset=True)})
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _LoggedWrite:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._inner.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _LoggedTransport:
    def __init__(self, inner: Any, path: str) -> None:
        self._inner = inner
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed in __aexit__)

    def _log(self, obj: Any) -> None:
        self._file.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")
        self._file.flush()

    async def __aenter__(self) -> Any:
        read, write = await self._inner.__aenter__()
        return _LoggedRead(read, self._log), _LoggedWrite(write, self._log)

    async def __aexit__(self, *exc: Any) -> bool | None:
        try:
            return await self._inner.__aexit__(*exc)
        finally:
            self._file.close()


async def run(opts: Options) -> int:
    import os

    import mcp_types as types
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client

    warnings.simplefilter("ignore")  # deprecation warnings (ping, roots) would only clutter stderr

    asked: list[dict[str, Any]] = []
    elicit_answers: deque[Any] = deque(opts.elicit)
    sample_answers: deque[Any] = deque(opts.sample)

    async def on_elicit(ctx: Any, params: Any) -> Any:
        asked.append({"method": "elicitation/create", "params": dump(params)})
        if not elicit_answers:
            return types.ElicitResult(action="cancel")
        answer = elicit_answers.popleft()
        if isinstance(answer, dict) and "error" in answer:
            return types.ErrorData.model_validate(answer["error"])
        return types.ElicitResult.model_validate(answer)

    async def on_sample(ctx: Any, params: Any) -> Any:
        asked.append({"method": "sampling/createMessage", "params": dump(params)})
        if not sample_answers:
            return types.ErrorData(code=types.INVALID_REQUEST, message="client.py: no scripted sampling answer left")
        answer = sample_answers.popleft()
        if isinstance(answer, str):
            return types.CreateMessageResult(
                role="assistant",
                content=types.TextContent(type="text", text=answer),
                model="test-model",
                stop_reason="endTurn",
            )
        if isinstance(answer, dict) and "error" in answer:
            return types.ErrorData.model_validate(answer["error"])
        if isinstance(answer, dict) and isinstance(answer.get("content"), list):
            return types.CreateMessageResultWithTools.model_validate(answer)
        return types.CreateMessageResult.model_validate(answer)

    roots_answer = opts.roots
    if isinstance(roots_answer, list):
        roots_answer = {"roots": roots_answer}

    async def on_roots(ctx: Any) -> Any:
        params: dict[str, Any] = {}
        if ctx.meta:
            params["_meta"] = ctx.meta if isinstance(ctx.meta, dict) else dump(ctx.meta)
        asked.append({"method": "roots/list", "params": params})
        if isinstance(roots_answer, dict) and "error" in roots_answer:
            return types.ErrorData.model_validate(roots_answer["error"])
        return types.ListRootsResult.model_validate(roots_answer)

    if opts.stdio is not None:
        server_params = StdioServerParameters(command=opts.stdio[0], args=opts.stdio[1:], env=dict(os.environ))
        transport: Any = stdio_client(server_params)
    else:
        assert opts.http is not None
        transport = streamable_http_client(opts.http)
    if opts.wire_log:
        transport = _LoggedTransport(transport, opts.wire_log)

    kwargs: dict[str, Any] = {"mode": opts.mode, "read_timeout_seconds": opts.timeout}
    if not opts.cache:
        kwargs["cache"] = None
    if opts.max_rounds is not None:
        kwargs["input_required_max_rounds"] = opts.max_rounds
    if opts.elicit:
        kwargs["elicitation_callback"] = on_elicit
    if opts.sample:
        kwargs["sampling_callback"] = on_sample
    if opts.roots is not None:
        kwargs["list_roots_callback"] = on_roots

    try:
        client = Client(transport, **kwargs)
    except Exception as e:  # e.g. an unknown --mode
        print(f"client.py: {e}", file=sys.stderr)
        return 2

    async def step(c: Client, name: str, args: list[str]) -> Any:
        if name == "list-tools":
            return dump(await c.list_tools())
        if name == "call":
            return dump(await c.call_tool(args[0], json.loads(args[1])))
        if name == "call-within":
            within = float(args[0])
            return dump(await c.call_tool(args[1], json.loads(args[2]), read_timeout_seconds=within))
        if name == "list-prompts":
            return dump(await c.list_prompts())
        if name == "get-prompt":
            return dump(await c.get_prompt(args[0], json.loads(args[1])))
        if name == "list-resources":
            return dump(await c.list_resources())
        if name == "list-resource-templates":
            return dump(await c.list_resource_templates())
        if name == "read-resource":
            return dump(await c.read_resource(args[0]))
        if name == "discover":
            return await c.session.send_discover("2026-07-28")
        if name == "ping":
            return dump(await c.send_ping())
        if name == "pause":
            import anyio

            await anyio.sleep(float(args[0]))
            return {"paused": float(args[0])}
        raise AssertionError(name)  # unreachable: parse_args checked the names

    status = 0
    connected = False
    try:
        async with client as c:
            connected = True
            for name, args in opts.steps:
                try:
                    emit(await step(c, name, args))
                except Exception as e:
                    emit(describe_exception(e))
    except BaseException as e:  # noqa: BLE001 (anything, including exception groups from teardown)
        if isinstance(e, KeyboardInterrupt):
            raise
        if not connected:
            emit({"connect_error": describe_exception(e)})
            status = 1
        else:
            # A failure while closing the connection: report it on stderr, the steps already printed.
            print(f"client.py: error while closing: {describe_exception(e)}", file=sys.stderr)
    emit({"asked": asked})
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
