#!/usr/bin/env bash
# Runs the MCP Inspector CLI (npm @modelcontextprotocol/inspector 2.12.0, on the Node 22 installed by
# scripts/setup-peers) once against a server and prints its result.
#
# Usage:
#   inspector.sh [--modern | --era legacy|modern|auto] -- CMD [ARG...] -- INSPECTOR_OPTION...
#   inspector.sh [--modern | --era legacy|modern|auto] --http URL -- INSPECTOR_OPTION...
#
#   --modern        same as --era modern (2026-07-28: no initialize, per-request _meta)
#   --era ERA       legacy (the default, a 2025-11-25 initialize session), modern, or auto
#   --http URL      a Streamable HTTP server (e.g. http://127.0.0.1:PORT/mcp) instead of stdio
#   CMD [ARG...]    the stdio server; its arguments end at the next lone `--` (so they cannot
#                   themselves contain a lone `--`)
#   INSPECTOR_OPTION...  passed to the inspector CLI, e.g.
#                   --method tools/list
#                   --method tools/call --tool-name echo --tool-arg text=hi
#                   --method tools/call --tool-name add --tool-args-json '{"a":1,"b":2}'
#                   --method prompts/list | --method prompts/get --prompt-name NAME --prompt-args k=v
#                   --method resources/list | --method resources/templates/list
#                   --method resources/read --uri test://static-text
#                   (`--tool-arg k=v` coerces values that look like JSON numbers/booleans;
#                   `--tool-args-json` passes a JSON object verbatim.)
#
# Output: `--format json` is added unless given, so stdout is ONE JSON line: {"result": <the
# server's result, as the inspector's SDK parsed it>} with exit 0, or, with a non-zero exit, the
# inspector's error envelope {"error": {"code": "<inspector code>", "message": ...}}. The
# inspector prints that envelope on stderr; this script copies it to stdout too. Its codes are
# the inspector's own, e.g. "tool_not_found" (exit 5, decided locally from tools/list); a
# JSON-RPC error from the server becomes code "error" (exit 1) and its numeric code and data are
# lost, only the message survives. Nothing is printed on stdout after a timeout (exit 124).
# The server's stderr and the inspector's own messages go to stderr (after the run ends).
#
# Environment: INSPECTOR_TIMEOUT (seconds, default 30; the run is killed after it and the exit
# status is 124). MCP_PEER_NODE / MCP_PEER_INSPECTOR override the paths from target/peers/env.sh.
# HOME is a fresh scratch directory for each run (the inspector keeps a catalog under
# ~/.mcp-inspector), removed afterwards.
#
# Known behaviour of the inspector CLI 2.12.0: it declares roots ({"listChanged":true}, answering
# an empty list) but neither elicitation nor sampling, so a tool that needs either should fail with
# -32021 (modern) or its legacy equivalent; it lists tools before a tools/call and fails locally
# with tool_not_found when the name is not listed. It does not drive a modern input_required
# loop, hence the timeout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

usage() {
  sed -n '5,6p' "$0" | sed 's/^# *//' >&2
  exit 2
}

era=legacy
url=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --modern) era=modern; shift ;;
    --era) [[ $# -ge 2 ]] || usage; era="$2"; shift 2 ;;
    --http) [[ $# -ge 2 ]] || usage; url="$2"; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
case "$era" in legacy|modern|auto) ;; *) echo "inspector.sh: bad era: $era" >&2; exit 2 ;; esac

target=()
if [[ -z "$url" ]]; then
  while [[ $# -gt 0 && "$1" != "--" ]]; do target+=("$1"); shift; done
  [[ ${#target[@]} -gt 0 && $# -gt 0 ]] || usage
  shift # the `--` closing the server command
else
  target=("$url")
fi
opts=("$@")

if [[ -z "${MCP_PEER_NODE:-}" || -z "${MCP_PEER_INSPECTOR:-}" ]]; then
  env_sh="$repo/target/peers/env.sh"
  [[ -f "$env_sh" ]] || { echo "inspector.sh: $env_sh missing; run scripts/setup-peers" >&2; exit 2; }
  # shellcheck source=/dev/null
  . "$env_sh"
fi

has_format=0
for o in "${opts[@]}"; do [[ "$o" == "--format" || "$o" == --format=* ]] && has_format=1; done
[[ $has_format -eq 1 ]] || opts+=(--format json)
opts+=(--protocol-era "$era")
[[ -z "$url" ]] || opts+=(--transport http)

scratch="$(mktemp -d "${TMPDIR:-/tmp}/inspector-home.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

status=0
HOME="$scratch" timeout --kill-after=5 "${INSPECTOR_TIMEOUT:-30}" \
  "$MCP_PEER_NODE" "$MCP_PEER_INSPECTOR" --cli "${target[@]}" -- "${opts[@]}" \
  </dev/null >"$scratch/.stdout" 2>"$scratch/.stderr" || status=$?
cat "$scratch/.stderr" >&2
if [[ $status -ne 0 && ! -s "$scratch/.stdout" ]]; then
  # The inspector writes its error envelope to stderr; copy it to stdout, where tests look.
  grep '^{"error":' "$scratch/.stderr" | tail -n 1 || true
else
  cat "$scratch/.stdout"
fi
exit "$status"
