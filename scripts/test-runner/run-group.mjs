// Loads several test files into one process (`node --import tsx run-group.mjs FILE...`), so the files the
// runner groups pay node's and tsx's start-up and the shared imports once. Their tests run on one root, file
// after file, in the order given; each test's events name its own file.
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) await import(pathToFileURL(file).href);
