// Runs Lighthouse (mobile defaults: emulated Moto G Power, simulated
// throttling) on one URL in Debian's Chromium and prints the four
// category scores and the failing audits as JSON on stdout.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const url = process.argv[2];
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
  const lhr = result.lhr;
  const scores = {};
  const failing = {};
  for (const [id, cat] of Object.entries(lhr.categories)) {
    scores[id] = Math.round(cat.score * 100);
    failing[id] = cat.auditRefs
      .filter((r) => r.weight > 0 && lhr.audits[r.id].score !== null && lhr.audits[r.id].score < 1)
      .map((r) => ({ id: r.id, score: lhr.audits[r.id].score, title: lhr.audits[r.id].title }));
  }
  process.stdout.write(JSON.stringify({ url, scores, failing, runtimeError: lhr.runtimeError ?? null }) + '\n');
} finally {
  await chrome.kill();
}
