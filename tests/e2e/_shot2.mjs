import * as h from './harness.mjs';
const srv = await h.startServer(h.SITE_DIR);
const { browser, close } = await h.launchBrowser();
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
page.on('console', (m) => { if (!/GPU stall/.test(m.text())) console.log('console', m.type(), m.text()); });
page.on('pageerror', (e) => console.log('pageerror', e));
await page.goto(`${srv.origin}/index.html${process.argv[2] || ''}`);
await h.waitReady(page);
await h.settle(page);
const mirror = async () => JSON.parse(await page.getAttribute('#explorer', 'data-json') || '{}');
const center = (r) => ({ x: r[0] + r[2] / 2, y: r[1] + r[3] / 2 });
let m = await mirror();
let c = center(m.rects.tab_memory_map);
await h.imguiClick(page, c.x, c.y);
await h.settle(page, 600);
const grid = Number(process.argv[3] || 0);
if (grid) {
  await h.imguiClick(page, 612, 279);
  await h.settle(page, 300);
  await page.screenshot({ path: `/tmp/shots/combo.png` });
  await h.imguiClick(page, 612, 306 + 19 * grid);
  await h.settle(page, 800);
}
m = await mirror();
console.log(JSON.stringify(m.heatmap));
await page.screenshot({ path: `/tmp/shots/map-${grid}.png` });
await close();
await srv.close();
