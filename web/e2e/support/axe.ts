import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { webRoot } from './build.js';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

/** Animation frames in a row without a running finite animation before axe runs. */
const STILL_FRAMES = 5;

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // A modal still fading in blends its text with the background (axe measured 4.38:1 for a
  // button's white label at part opacity): let finite transitions end first (a spinner's
  // infinite animation never ends and is not waited for). Still for several frames in a row:
  // a transition is started a frame after its element mounts (Mantine sets the 'entering'
  // styles then), and a check in that frame found none running and measured a modal at part
  // opacity (2.34:1 for its title, contracts-delivery.test.ts on a loaded machine).
  await page.waitForFunction((frames) => {
    const w = window as unknown as { __filiereStillFrames?: number };
    const still = document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity,
      );
    w.__filiereStillFrames = still ? (w.__filiereStillFrames ?? 0) + 1 : 0;
    return w.__filiereStillFrames >= frames;
  }, STILL_FRAMES);
  await page.evaluate(() => {
    (window as unknown as { __filiereStillFrames?: number }).__filiereStillFrames = 0;
  });
  // Once per document: a page checked again (same document) keeps axe-core loaded.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<any> } }).axe;
    const result = await axe.run(document);
    return result.violations as AxeViolation[];
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({
        target: n.target,
        html: n.html.slice(0, 200),
        failureSummary: n.failureSummary,
      })),
    }));
}

export const screenshotDir = path.join(webRoot, 'e2e', 'screenshots');

/**
 * Whether screens are saved for review: yes outside CI, or with E2E_SCREENSHOTS=1. A CI run
 * (CI=true) throws its checkout away, so the ~145 full-page captures of a run would only cost
 * time (a failing test still saves its open pages: explainFailures in browser.ts).
 */
export const savesScreenshots = process.env.CI !== 'true' || process.env.E2E_SCREENSHOTS === '1';

/** Saves `web/e2e/screenshots/<name>.png` (git-ignored) for review (see savesScreenshots). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!savesScreenshots) return;
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}
