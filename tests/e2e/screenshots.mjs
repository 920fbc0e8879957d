// Screenshots for looking at the page as a user would (not a test):
//   node tests/e2e/screenshots.mjs OUT_DIR [NAME=FRAGMENT@WIDTHxHEIGHT[@zh][@wheel:X,Y,DY] ...]
// wheel:X,Y,DY turns the mouse wheel by DY pixels over the point (X, Y) before the shot (to look
// at a panel's lower part).
// With no views it takes the first visit at 1440×900, at 390×844, and in Chinese at both.
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const out = path.resolve(process.argv[2] || 'artifacts/screenshots');
const views = process.argv.slice(3).length ? process.argv.slice(3) : [
  'desktop=@1440x900', 'phone=@390x844', 'desktop-zh=@1440x900@zh', 'phone-zh=@390x844@zh'];
fs.mkdirSync(out, { recursive: true });
const srv = await h.startServer(h.SITE_DIR);
const chrome = await h.launchBrowser();
try {
  for (const view of views) {
    const name = view.slice(0, view.indexOf('='));
    const rest = view.slice(view.indexOf('=') + 1);
    const [fragment, size, ...extra] = rest.split('@');
    const lang = extra.find((e) => e === 'zh');
    const wheel = extra.find((e) => e.startsWith('wheel:'));
    const [width, height] = size.split('x').map(Number);
    const context = await chrome.browser.newContext({
      viewport: { width, height }, locale: lang === 'zh' ? 'zh-CN' : 'en-US',
      hasTouch: width < 900, isMobile: width < 900 });
    const page = await context.newPage();
    const log = h.watchPage(page);
    await page.goto(`${srv.origin}/index.html${fragment ? '#' + fragment : ''}`);
    await h.waitReady(page);
    await h.settle(page, 800);
    if (wheel) {
      const [x, y, dy] = wheel.slice(6).split(',').map(Number);
      await page.mouse.move(x, y);
      await page.mouse.wheel(0, dy);
      await h.settle(page, 800);
    }
    await page.screenshot({ path: path.join(out, `${name}.png`) });
    const errors = [...log.pageErrors, ...log.consoleErrors];
    console.log(`${name}: ${width}x${height}${lang ? ' ' + lang : ''}${errors.length ? ' ERRORS ' + errors.join(' | ') : ''}`);
    await context.close();
  }
} finally {
  await chrome.close();
  await srv.close();
}
