// The page's test hooks on `window` (read by tests/e2e through page.evaluate): each lab's frozen
// object of getters, the export menu's, and the page's ready flag.
interface Window {
  __attn?: any;
  __attnDepth?: any;
  __attnExport?: any;
  __attnModel?: any;
  __attnReady?: any;
  __attnTraining?: any;
  // The example host page's (host.js): the events received from the frame, and its send().
  __hostEvents?: object[];
  __hostSend?: (type: string, fields?: object) => string;
}

// Chromium's approximate device memory in GB (absent elsewhere: the code reads `?? 0`).
interface Navigator {
  deviceMemory?: number;
}

// What workers/*.js use of their global scope. lib.dom (which the page's modules need) types
// `self` as a Window, whose postMessage takes a target origin; each worker rebinds `self` to
// this type (`const self = globalThis`, the same object in a worker).
interface WorkerScope {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent) => unknown) | null;
  location: Location;
}

// Defined in a worker only (workers/rows.js asks whether it runs in a browser's worker or in Node).
declare var WorkerGlobalScope: Function | undefined;

// The part of Node's worker_threads that workers/rows.js uses when the benchmark runs it in Node.
declare module 'node:worker_threads' {
  export const parentPort: {
    postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
    on(event: 'message', listener: (message: any) => void): void;
  };
}
