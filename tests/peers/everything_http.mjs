// Serves @modelcontextprotocol/server-everything over Streamable HTTP (its own
// `streamableHttp` transport, unchanged) on 127.0.0.1 only, for tests/gateway_backends.rs.
// The package binds every interface on $PORT (Express `app.listen(PORT)`); this launcher binds
// its listening socket to loopback instead, and prints `MCP server listening on URL` on stderr
// once it listens, as the other test servers do.
//
// Usage: PORT=N node everything_http.mjs PATH/TO/server-everything/dist/index.js
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

const entry = process.argv[2];
if (!entry) {
  console.error("usage: PORT=N node everything_http.mjs .../server-everything/dist/index.js");
  process.exit(2);
}
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (port, ...rest) {
  if (typeof port !== "number" && typeof port !== "string") {
    return listen.call(this, port, ...rest);
  }
  this.once("listening", () => {
    console.error(`MCP server listening on http://127.0.0.1:${this.address().port}/mcp`);
  });
  const callback = rest.find((arg) => typeof arg === "function");
  return listen.call(this, Number(port), "127.0.0.1", callback);
};
const transport = path.join(path.dirname(entry), "transports", "streamableHttp.js");
await import(pathToFileURL(transport).href);
