// The TypeScript SDK (npm @modelcontextprotocol/server 2.4.0, @modelcontextprotocol/node 2.1.2)
// peer of examples/bookshop for scripts/load-bench. The same `add` tool (text and
// structuredContent {"result": n}) and an `order_book` whose two lookups are written by hand in
// the body (the SDK has no resolvers), and `confirm_order`, which asks the user one form question
// (`confirm`, a boolean) the way the SDK documents it: `inputRequired(...)` with an embedded
// `inputRequired.elicit`, read back with `inputResponse` on the retry (2026-07-28), served to
// 2025-11-25 sessions by the SDK's default legacy shim as a real `elicitation/create`
// (tests/client_peers.rs answers it from mcpwire's client on both revisions).
//
// One endpoint for both revisions, as the SDK documents it: 2026-07-28 requests go to
// `createMcpHandler(factory, { legacy: 'reject' })` (a per-request server from the factory), and
// 2025-era requests, picked out with `isLegacyRequest` (skipped for requests announcing
// `MCP-Protocol-Version: 2026-07-28`, which are never legacy), to a sessionful
// `NodeStreamableHTTPServerTransport` per `initialize`, so a legacy client gets a real
// `Mcp-Session-Id` session as it does from ours. With `--json-response` (scripts/load-bench) the
// sessions answer plain JSON, as ours do when no stream is needed; without it, the SDK's default
// SSE answers, which a session needs for the server's own requests (`confirm_order`'s question
// reaches the client nowhere in JSON mode). Host/Origin checked as the node README
// shows.
//
// `--stdio` serves the same tools over stdio instead, with the SDK's `serveStdio(factory)` (both
// revisions on one connection, the era chosen by the client's first message).
//
// Usage: node server.mjs --http 127.0.0.1:PORT [--json-response] | --stdio
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import {
    localhostHostValidation,
    localhostOriginValidation,
    NodeStreamableHTTPServerTransport,
    toNodeHandler,
    toWebRequest,
} from '@modelcontextprotocol/node';
import { createMcpHandler, inputRequired, inputResponse, isLegacyRequest, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const INVENTORY = new Map([['Dune', 7], ['Neuromancer', 0]]);

// Schemas are built once; the factory below runs per request (2026-07-28) and per session.
const addInput = z.object({ a: z.number().int().describe('The first number.'), b: z.number().int().describe('The second number.') });
const addOutput = z.object({ result: z.number().int() });
const orderInput = z.object({ title: z.string().describe("The book's title.") });

async function add({ a, b }) {
    const result = a + b;
    return { content: [{ type: 'text', text: String(result) }], structuredContent: { result } };
}

async function orderBook({ title }) {
    const copies = INVENTORY.get(title) ?? 0;
    const delivery = copies > 0 ? 'tomorrow' : 'in 2-3 weeks';
    const text = copies === 0 ? `'${title}' is on backorder; it would arrive ${delivery}.` : `Ordered '${title}'; it arrives ${delivery}.`;
    return { content: [{ type: 'text', text }] };
}

const confirmInput = z.object({ title: z.string().describe("The book's title.") });
const confirmation = z.object({ confirm: z.boolean() });

async function confirmOrder({ title }, ctx) {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
    if (answer.kind !== 'elicit') {
        return inputRequired({
            inputRequests: { confirm: inputRequired.elicit({ message: `Order '${title}'?`, requestedSchema: confirmation }) },
        });
    }
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: `Not ordered: ${answer.action}.` }] };
    const text = answer.content?.confirm === true ? `Ordered '${title}'.` : 'Not ordered: not confirmed.';
    return { content: [{ type: 'text', text }] };
}

function bookshop() {
    const server = new McpServer({ name: 'Bookshop', version: '0.0.0' });
    server.registerTool(
        'add',
        { description: 'Add two numbers.', inputSchema: addInput, outputSchema: addOutput, annotations: { readOnlyHint: true } },
        add,
    );
    server.registerTool('order_book', { description: 'Order a book from the shop.', inputSchema: orderInput }, orderBook);
    server.registerTool('confirm_order', { description: 'Order a book after the user confirms.', inputSchema: confirmInput }, confirmOrder);
    return server;
}

const modern = toNodeHandler(createMcpHandler(bookshop, { legacy: 'reject' }));
const sessions = new Map(); // Mcp-Session-Id -> NodeStreamableHTTPServerTransport
const jsonResponse = process.argv.includes('--json-response');

async function legacy(req, res, body) {
    const id = req.headers['mcp-session-id'];
    let transport = id === undefined ? undefined : sessions.get(id);
    if (transport === undefined && id === undefined && body?.method === 'initialize') {
        transport = new NodeStreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            enableJsonResponse: jsonResponse,
            onsessioninitialized: (sid) => sessions.set(sid, transport),
        });
        transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
        await bookshop().connect(transport);
    }
    if (transport === undefined) {
        res.writeHead(id === undefined ? 400 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request: no valid session' } }));
        return;
    }
    await transport.handleRequest(req, res, body);
}

function readBody(req) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        req.on('error', reject);
    });
}

const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--stdio') {
    serveStdio(bookshop);
} else if (args[0] !== '--http' || !(args.length === 2 || (args.length === 3 && args[2] === '--json-response'))) {
    console.error('usage: node server.mjs --http 127.0.0.1:PORT [--json-response] | --stdio');
    process.exit(2);
} else {
    const [host, port] = [args[1].slice(0, args[1].lastIndexOf(':')), Number(args[1].slice(args[1].lastIndexOf(':') + 1))];

    const http = createServer(async (req, res) => {
        try {
            if (!validateHost(req, res) || !validateOrigin(req, res)) return;
            let body;
            if (req.method === 'POST') {
                const text = await readBody(req);
                try {
                    body = JSON.parse(text);
                } catch {
                    body = undefined;
                }
            }
            // A 2026-07-28 request always carries its version header; only the rest needs the SDK's
            // classifier (which takes a web Request, so it costs a conversion).
            const modernHeader = req.headers['mcp-protocol-version'] === '2026-07-28';
            const isLegacy = !modernHeader && (await isLegacyRequest(await toWebRequest(req, body), body));
            if (isLegacy) await legacy(req, res, body);
            else await modern(req, res, body);
        } catch (error) {
            console.error(error);
            if (!res.headersSent) res.writeHead(500);
            res.end();
        }
    });
    http.keepAliveTimeout = 60_000;
    http.listen(port, host, () => {
        const { address, port } = http.address();
        console.error(`MCP server listening on http://${address}:${port}/mcp`);
    });
    process.on('SIGINT', () => process.exit(0));
    process.on('SIGTERM', () => process.exit(0));
}
