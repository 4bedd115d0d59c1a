// The page's script as one file: esbuild bundles www/main.js and every module it imports,
// statically or with import() (the labs, their tours), into www/bundle/main.js with a source map
// beside it, so the browser fetches one script instead of about eighty modules before the first
// frame (docs/bench.md, "Opening"). The source stays plain ES modules under www/; the bundle is
// built output (ignored by git, like www/pkg/).
//
// What is not bundled, so that the page, its workers and the tests share one instance of it:
//   - the wasm glue www/pkg/*.js (the page's and the model lab's module), kept as imports of
//     `../pkg/NAME.js`, which from www/bundle/ are the same URLs the sources name;
//   - the workers (www/workers/*.js), which the modules start by `new URL('../workers/X.js',
//     import.meta.url)`: from www/bundle/ that is the same file, as is `../pkg/*.wasm`.
//
// Usage: node bundle.mjs [--watch]   (--watch: rebuild whenever a source changes, until killed)
import * as esbuild from 'esbuild';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const www = join(root, 'www');
const outdir = join(www, 'bundle');
const pkg = join(www, 'pkg') + sep;

/** Imports of www/pkg/ stay imports, of the same file as seen from www/bundle/. */
const glueOutside = {
  name: 'wasm-glue-outside',
  setup(build) {
    build.onResolve({ filter: /\/pkg\// }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      if (!target.startsWith(pkg)) return undefined;
      return { path: relative(outdir, target).split(sep).join('/'), external: true };
    });
  },
};

/** Says when a rebuild is done (watch mode) and what failed. */
const report = {
  name: 'report',
  setup(build) {
    let first = true;
    build.onEnd((result) => {
      if (result.errors.length === 0 && !first) console.log('bundle: www/bundle/main.js rebuilt');
      first = false;
    });
  },
};

const options = {
  entryPoints: [join(www, 'main.js')],
  outdir,
  bundle: true,
  splitting: false, // one file: each further file is another request before the first frame
  format: 'esm',
  target: 'es2022',
  charset: 'utf8',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [glueOutside, report],
};

if (process.argv.includes('--watch')) {
  const context = await esbuild.context(options);
  await context.watch();
  console.log('bundle: watching www/ (www/bundle/main.js is rebuilt on every change)');
  // The process that started the watcher holds its stdin: when that process ends, so does this.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
} else {
  await esbuild.build(options);
}
