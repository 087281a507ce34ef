// One Lighthouse run on a signed-in page, for tools/lighthouse.py (which starts the site and reads the
// report). Lighthouse's --extra-headers reaches the page's requests but not its WebSocket handshake,
// so the session cookie goes into the browser's own cookie jar (Lighthouse clears caches and storage
// between runs, never cookies) and the page's live socket connects as it would for the player.
//
//   node tools/lighthouse.mjs NODE_MODULES CHROMIUM URL COOKIE_NAME COOKIE_VALUE CATEGORIES
//
// NODE_MODULES: where `npm install lighthouse@12.2.3` put its packages (outside the repo: no build
// step and no node_modules here). Prints Lighthouse's JSON report.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const [modules, chromium, url, cookieName, cookieValue, categories] = process.argv.slice(2);
const require = createRequire(modules.replace(/\/?$/, "/"));
const load = async (name) => (await import(pathToFileURL(require.resolve(name)).href)).default;
const lighthouse = await load("lighthouse");
const puppeteer = await load("puppeteer-core");

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  defaultViewport: null,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage();
  const { hostname } = new URL(url);
  await browser.setCookie({ name: cookieName, value: cookieValue, domain: hostname, path: "/", httpOnly: true });
  // Lighthouse's defaults otherwise: mobile emulation, simulated slow 4G, 4x CPU slowdown.
  const result = await lighthouse(url, { output: "json", logLevel: "error", onlyCategories: categories.split(",") }, undefined, page);
  process.stdout.write(result.report);
} finally {
  await browser.close();
}
