// Checks that run inside the page (the tests compile without the DOM library, hence the loose types in them).
import type { Page } from 'playwright-core';

/**
 * Words of the names under `selector` that wrap onto a second line although they would fit on one, as
 * `word (class of its element)`. A word runs up to and including a separator (_ . : / -) or a space; a word wider
 * than its box may break.
 */
export function wordsBrokenNeedlessly(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((names) => {
    const doc = (globalThis as any).document;
    const style = (node: unknown) => (globalThis as any).getComputedStyle(node);
    const found: string[] = [];
    for (const element of doc.querySelectorAll(names)) {
      if (element.getClientRects().length === 0) continue;
      const walker = doc.createTreeWalker(element, 4);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        for (const match of (node.textContent as string).matchAll(/[^\s_.:/-]+[_.:/-]*/g)) {
          const range = doc.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, (match.index as number) + match[0].length);
          const lines = new Set(
            [...range.getClientRects()].filter((rect: any) => rect.width > 0).map((rect: any) => Math.round(rect.top)),
          );
          if (lines.size <= 1) continue;
          const probe = doc.createElement('span');
          probe.style.cssText = 'position: absolute; visibility: hidden; white-space: nowrap';
          probe.textContent = match[0];
          node.parentElement.append(probe);
          const wide = probe.getBoundingClientRect().width;
          probe.remove();
          let box = node.parentElement;
          while (style(box).display.startsWith('inline')) box = box.parentElement;
          const room = box.clientWidth - parseFloat(style(box).paddingLeft) - parseFloat(style(box).paddingRight);
          if (wide <= room) found.push(`${match[0]} (${element.className})`);
        }
      }
    }
    return found;
  }, selector);
}

/** How wide the page and the chart are against the room they have: nothing may be wider than its box. */
export function widths(page: Page): Promise<{
  scrollWidth: number;
  clientWidth: number;
  chart: number;
  chartBox: number;
  chartBoxScroll: number;
  sidebarBottom: number;
  mainTop: number;
}> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const box = (selector: string) => doc.querySelector(selector).getBoundingClientRect();
    const chartBox = doc.querySelector('.chart-box');
    return {
      scrollWidth: doc.scrollingElement.scrollWidth,
      clientWidth: doc.scrollingElement.clientWidth,
      chart: box('svg.chart').right,
      chartBox: chartBox.getBoundingClientRect().right,
      chartBoxScroll: chartBox.scrollWidth - chartBox.clientWidth,
      sidebarBottom: box('#sidebar').bottom,
      mainTop: box('#main').top,
    };
  });
}
