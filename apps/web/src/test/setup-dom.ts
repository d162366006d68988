// Setup file of the web-unit project (vitest.config.ts `setupFiles`): vitest runs it before every
// test file, where a module such as render.tsx runs once per worker. The project runs its files
// without isolation (one Mantine and React import per worker, not per file), so whatever each file
// needs afresh is done here: the happy-dom stubs for its window, and the cleanup after each test.
import { afterEach, vi } from 'vitest';
import { matchMediaAnswering } from './match-media.ts';

// Mantine reads these; happy-dom leaves them out or half-done.
function stubBrowser(): void {
  window.matchMedia = matchMediaAnswering(false);
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  // Mantine's Combobox scrolls its selected option into view; its autosize Textarea waits for fonts.
  Element.prototype.scrollIntoView = () => {};
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
  }
}

// The console's own modules are evaluated afresh for every file, so a file's `vi.mock` reaches the
// modules that import the mocked one even when an earlier file of the worker loaded them unmocked.
// Packages (React, Mantine, Testing Library) are Node's own imports, which this does not reset:
// they are the cost that running without isolation saves.
vi.resetModules();

// Logic files run in node: no window to stub, no tree to clean, and no React to import for them.
if (typeof window !== 'undefined') {
  stubBrowser();
  const { cleanup } = await import('@testing-library/react');
  const { session } = await import('@/lib/session/session.ts');
  // Vitest runs without globals, so Testing Library cannot register its own cleanup.
  afterEach(() => {
    cleanup();
    session.signOut('logout');
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
