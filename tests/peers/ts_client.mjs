// A scriptable client on the TypeScript SDK over Streamable HTTP, for scripts/scale-out
// (tests/scale_out/flows.py) and the gateway's seed flows (tests/gateway_seed.rs).
//
// Two SDK lines, both already installed by scripts/setup-peers under target/peers/node_modules:
//   --sdk v1   @modelcontextprotocol/sdk 1.32.2 (what the desktop hosts and mcp-remote run;
//              2025-11-25 sessions only; pulled in by @modelcontextprotocol/server-everything)
//   --sdk v2   @modelcontextprotocol/client 2.3.1 (the Inspector's client): --mode legacy
//              (a 2025-11-25 session) or --mode 2026-07-28 (versionNegotiation pinned to it;
//              the SDK answers input_required rounds itself through the same handlers)
//
// Usage:
//   node ts_client.mjs --peers DIR --url URL [--sdk v1|v2] [--mode legacy|2026-07-28]
//                      [--elicit JSON]... [--sample TEXT]... [--timeout SECS] STEP...
//   DIR is the folder holding node_modules (target/peers). STEP: call NAME ARGS_JSON,
//   call-within SECS NAME ARGS_JSON (a call with its own timeout of SECS: when it expires the
//   SDK gives the call up and tells the server, as it does), list-tools, or pause SECONDS (the
//   connection kept idle; prints {"paused": SECONDS}).
//   --elicit declares `elicitation` and answers the next elicitation with JSON (an ElicitResult);
//   --sample declares `sampling` and answers the next sampling request with an assistant text.
//
// Output (stdout): one JSON line per step (the result, or {"error": {"code", "message"}}), then
// {"asked": [{"method", "params"}, ...]}; or one {"connect_error": ...} line. Exit status: 0 when
// the steps ran, 1 when connecting failed, 2 on bad usage.

import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

function usage(why) {
  process.stderr.write(`ts_client.mjs: ${why}\n`);
  process.exit(2);
}

const opts = { sdk: 'v2', mode: 'legacy', elicit: [], sample: [], timeout: 30, steps: [] };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  const value = () => {
    if (i + 1 >= argv.length) usage(`${arg} needs a value`);
    return argv[++i];
  };
  if (arg === '--peers') opts.peers = value();
  else if (arg === '--url') opts.url = value();
  else if (arg === '--sdk') opts.sdk = value();
  else if (arg === '--mode') opts.mode = value();
  else if (arg === '--elicit') opts.elicit.push(JSON.parse(value()));
  else if (arg === '--sample') opts.sample.push(value());
  else if (arg === '--timeout') opts.timeout = Number(value());
  else if (arg === 'list-tools') opts.steps.push(null);
  else if (arg === 'pause') {
    if (i + 1 >= argv.length) usage('pause SECONDS');
    opts.steps.push({ pause: Number(argv[i + 1]) });
    i += 1;
  }
  else if (arg === 'call') {
    if (i + 2 >= argv.length) usage('call NAME ARGS_JSON');
    opts.steps.push([argv[i + 1], JSON.parse(argv[i + 2])]);
    i += 2;
  } else if (arg === 'call-within') {
    if (i + 3 >= argv.length) usage('call-within SECS NAME ARGS_JSON');
    opts.steps.push([argv[i + 2], JSON.parse(argv[i + 3]), Number(argv[i + 1]) * 1000]);
    i += 3;
  } else usage(`unknown argument ${arg}`);
}
if (!opts.peers || !opts.url) usage('--peers and --url are required');
if (!['v1', 'v2'].includes(opts.sdk)) usage('--sdk is v1 or v2');
if (!['legacy', '2026-07-28'].includes(opts.mode)) usage('--mode is legacy or 2026-07-28');
if (opts.sdk === 'v1' && opts.mode !== 'legacy') usage('the SDK 1.x speaks 2025-11-25 only (--mode legacy)');

const modules = join(opts.peers, 'node_modules', '@modelcontextprotocol');
const load = (path) => import(pathToFileURL(join(modules, path)).href);

const emit = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const asked = [];
const timeoutMs = opts.timeout * 1000;

const capabilities = {};
if (opts.elicit.length) capabilities.elicitation = { form: {} };
if (opts.sample.length) capabilities.sampling = {};

async function onElicit(request) {
  asked.push({ method: 'elicitation/create', params: request.params });
  return opts.elicit.shift() ?? { action: 'cancel' };
}

async function onSample(request) {
  asked.push({ method: 'sampling/createMessage', params: request.params });
  const text = opts.sample.shift() ?? '';
  return { role: 'assistant', model: 'test-model', stopReason: 'endTurn', content: { type: 'text', text } };
}

let client;
let transport;
if (opts.sdk === 'v1') {
  const { Client } = await load('sdk/dist/esm/client/index.js');
  const { StreamableHTTPClientTransport } = await load('sdk/dist/esm/client/streamableHttp.js');
  const { ElicitRequestSchema, CreateMessageRequestSchema } = await load('sdk/dist/esm/types.js');
  client = new Client({ name: 'scale-out-ts-v1', version: '1.0.0' }, { capabilities });
  if (opts.elicit.length) client.setRequestHandler(ElicitRequestSchema, onElicit);
  if (opts.sample.length) client.setRequestHandler(CreateMessageRequestSchema, onSample);
  transport = new StreamableHTTPClientTransport(new URL(opts.url));
} else {
  const { Client, StreamableHTTPClientTransport } = await load('client/dist/index.mjs');
  const versionNegotiation = { mode: opts.mode === 'legacy' ? 'legacy' : { pin: opts.mode } };
  client = new Client({ name: 'scale-out-ts-v2', version: '1.0.0' }, { capabilities, versionNegotiation });
  if (opts.elicit.length) client.setRequestHandler('elicitation/create', onElicit);
  if (opts.sample.length) client.setRequestHandler('sampling/createMessage', onSample);
  transport = new StreamableHTTPClientTransport(new URL(opts.url));
}

const errorOf = (e) => ({ code: e?.code ?? null, message: String(e?.message ?? e) });

try {
  await client.connect(transport, { timeout: timeoutMs });
} catch (e) {
  emit({ connect_error: { error: errorOf(e) } });
  process.exit(1);
}
for (const step of opts.steps) {
  try {
    if (step === null) {
      emit(await client.listTools(undefined, { timeout: timeoutMs }));
      continue;
    }
    if (step.pause !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, step.pause * 1000));
      emit({ paused: step.pause });
      continue;
    }
    const [name, args, within = timeoutMs] = step;
    const params = { name, arguments: args };
    // The SDK 1.x takes (params, resultSchema, options); 2.x takes (params, options).
    const result = opts.sdk === 'v1'
      ? await client.callTool(params, undefined, { timeout: within })
      : await client.callTool(params, { timeout: within });
    emit(result);
  } catch (e) {
    emit({ error: errorOf(e) });
  }
}
emit({ asked });
try {
  await client.close();
} catch {
  // closing a session the balancer already lost is not a step's failure
}
process.exit(0);
