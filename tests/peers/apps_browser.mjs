// Drives the MCP Inspector's web client (already running) in headless Chromium through
// playwright-core, to open a tool's MCP Apps view and click in it (tests/apps_browser.rs).
//
// Usage: node apps_browser.mjs   (everything comes from the environment)
//   PLAYWRIGHT_CORE   the playwright-core package directory (target/peers/node_modules/...)
//   CHROMIUM          the browser binary (Debian's /usr/bin/chromium)
//   PROFILE_DIR       a fresh, empty directory for the browser profile
//   INSPECTOR_URL     the web client, http://127.0.0.1:CLIENT_PORT
//   INSPECTOR_TOKEN   its MCP_INSPECTOR_API_TOKEN (the deep link's autoConnect and autoOpen)
//   SERVER_URL        the MCP server's endpoint (Streamable HTTP)
//   TOOL              the tool whose view to open (its arguments: {})
//   TITLE             the book whose Reserve button to click
//   SCREENSHOT        where to write a PNG of the view (and of the whole page, `-page.png`)
//   TIMEOUT_MS        the bound of each wait (default 20000)
//   PROTOCOL          the protocol revision the Inspector must show for the server (optional)
//
// Prints one JSON line on stdout: {"ok":true, "titles", "reserveText", "answer", "before",
// "after", "protocol", "pixels": {width, height, colours, stddev}, "timings"} or {"ok":false, "error", "step", "appError"?}; the exit status is 0 or 1.
// On failure a screenshot of the whole page is written next to SCREENSHOT (`-failure.png`).
import { createRequire } from "node:module";
import path from "node:path";

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const timeout = Number(process.env.TIMEOUT_MS || 20000);
const started = Date.now();
const timings = {};
let step = "start";
const mark = (name) => {
  step = name;
  timings[name] = Date.now() - started;
};

// The whole run's bound (the test's own deadline is later): when it passes, say which step hung
// and exit, so that Playwright's exit handler ends the browser it started in a process group of
// its own. Killing this process from outside would leave that browser running.
const deadline = Number(process.env.DEADLINE_MS || 75000);
setTimeout(() => {
  console.log(JSON.stringify({ ok: false, step, error: "deadline", timings }));
  process.exit(1);
}, deadline).unref();

const require = createRequire(import.meta.url);
const { chromium } = require(path.resolve(env("PLAYWRIGHT_CORE")));

const base64url = (text) => Buffer.from(text).toString("base64url");
const link = new URL("/", env("INSPECTOR_URL"));
link.searchParams.set("serverUrl", env("SERVER_URL"));
link.searchParams.set("transport", "http");
link.searchParams.set("autoConnect", env("INSPECTOR_TOKEN"));
link.searchParams.set("openApp", env("TOOL"));
link.searchParams.set("appArgs", base64url("{}"));
link.searchParams.set("autoOpen", env("INSPECTOR_TOKEN"));

const title = env("TITLE");
const screenshot = env("SCREENSHOT");
let context;
let page;
let appError;
try {
  mark("launch");
  context = await chromium.launchPersistentContext(env("PROFILE_DIR"), {
    executablePath: env("CHROMIUM"),
    headless: true,
    timeout,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  context.setDefaultTimeout(timeout);
  page = context.pages()[0] ?? (await context.newPage());

  mark("open");
  await page.goto(link.href, { waitUntil: "domcontentloaded" });

  // The Inspector says which revision it speaks with the server, on the server's card.
  let protocol = null;
  if (process.env.PROTOCOL) {
    mark("protocol");
    protocol = `MCP ${process.env.PROTOCOL}`;
    await page.getByText(protocol, { exact: true }).first().waitFor({ state: "attached" });
  }

  // The view is up (ready) or failed to load (error): never wait past either.
  mark("app-ready");
  const form = page.locator(
    '[data-testid="apps-form"][data-app-status="ready"], [data-testid="apps-form"][data-app-status="error"]',
  );
  await form.first().waitFor({ state: "attached" });
  if ((await form.first().getAttribute("data-app-status")) !== "ready") {
    appError = await form.first().getAttribute("data-app-error");
    throw new Error(`the app did not load: ${appError}`);
  }

  // The view is the srcdoc frame inside the sandbox proxy's frame.
  mark("view-frame");
  let view;
  const looking = Date.now();
  while (!(view = page.frames().find((frame) => frame.url() === "about:srcdoc"))) {
    if (Date.now() - looking > timeout) throw new Error("no about:srcdoc frame");
    await page.waitForTimeout(50);
  }

  mark("titles");
  const row = view.locator(`tr[data-title="${title.replaceAll('"', '\\"')}"]`);
  const button = row.getByRole("button");
  await button.waitFor({ state: "visible" });
  const titles = await view.locator("tr[data-title]").count();
  const reserveText = (await button.textContent()).trim();
  const before = Number(await row.getAttribute("data-copies"));

  mark("click");
  await button.click();

  mark("answer");
  const answer = view.locator("#answer");
  await view.waitForFunction(
    () => /^(Reserved|Could not)/.test(document.getElementById("answer").textContent),
  );
  const answerText = (await answer.textContent()).trim();
  if (!answerText.startsWith("Reserved")) throw new Error(`the view answered: ${answerText}`);

  mark("count");
  await view.waitForFunction(
    ({ title, before }) =>
      [...document.querySelectorAll("tr[data-title]")].some(
        (tr) => tr.dataset.title === title && Number(tr.dataset.copies) === before - 1,
      ),
    { title, before },
  );
  const after = Number(await row.getAttribute("data-copies"));

  mark("screenshot");
  // The click may have scrolled the view: show it from its top, the answer first.
  await view.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: screenshot.replace(/\.png$/, "") + "-page.png" });
  const frameElement = await view.frameElement();
  const png = await frameElement.screenshot({ path: screenshot });
  // Not blank: how many colours it has, and how much its brightness varies (decoded by the
  // browser itself, in a page of its own).
  const probe = await context.newPage();
  const pixels = await probe.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context2d = canvas.getContext("2d");
    context2d.drawImage(image, 0, 0);
    const rgba = context2d.getImageData(0, 0, image.width, image.height).data;
    const colours = new Set();
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < rgba.length; i += 4) {
      colours.add((rgba[i] << 16) | (rgba[i + 1] << 8) | rgba[i + 2]);
      const y = 0.299 * rgba[i] + 0.587 * rgba[i + 1] + 0.114 * rgba[i + 2];
      sum += y;
      squares += y * y;
    }
    const n = rgba.length / 4;
    const mean = sum / n;
    return {
      width: image.width,
      height: image.height,
      colours: colours.size,
      stddev: Math.sqrt(Math.max(0, squares / n - mean * mean)),
    };
  }, png.toString("base64"));
  await probe.close();

  mark("done");
  console.log(
    JSON.stringify({
      ok: true,
      titles,
      reserveText,
      answer: answerText,
      before,
      after,
      protocol,
      pixels,
      timings,
    }),
  );
} catch (error) {
  if (page) {
    const failure = screenshot.replace(/\.png$/, "") + "-failure.png";
    await page.screenshot({ path: failure, fullPage: true }).catch(() => {});
  }
  console.log(JSON.stringify({ ok: false, step, error: String(error?.stack || error), appError, timings }));
  process.exitCode = 1;
} finally {
  await context?.close().catch(() => {});
}
