// The page's test hooks on `window` (read by tests/e2e through page.evaluate): each lab's frozen
// object of getters, the export menu's, and the page's ready flag.
interface Window {
  __attn?: any;
  __attnDepth?: any;
  __attnExport?: any;
  __attnModel?: any;
  __attnReady?: any;
  __attnTraining?: any;
}
