// Loads several test files into one process (`node --import tsx run-group.mjs FILE...`), so the files the
// runner groups pay node's and tsx's start-up and the shared imports once. Their tests run on one root, file
// after file, in the order given; each test's events name its own file.
//
// No test starts before every file is loaded: node starts a file's tests as soon as it has loaded, and
// loading the next files (compiling, evaluating) would then block the event loop under a running test,
// making a test with short real-time waits late where it is never late alone.
import { relative } from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

let markLoaded;
const loaded = new Promise((resolve) => {
  markLoaded = resolve;
});
before(() => loaded);
try {
  for (const file of process.argv.slice(2)) {
    try {
      await import(pathToFileURL(file).href);
    } catch (error) {
      // A file that cannot load fails as one test named after it; the other files still run.
      test(relative(process.cwd(), file), () => {
        throw error;
      });
    }
  }
} finally {
  markLoaded();
}
