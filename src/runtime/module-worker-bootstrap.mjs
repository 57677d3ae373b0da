// Registers tsx, then imports the worker's TypeScript module (start-module-worker.ts says why).
import { workerData } from 'node:worker_threads';

(await import(workerData.tsx)).register();
await import(workerData.entry);
