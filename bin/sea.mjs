// Launcher of the single executable (scripts/build-binary.mjs bundles it with src/ into one CommonJS
// file that Node's single-executable support runs): what bin/floe.js does for the npm CLI, and
// --version names the build and the Node version inside it.
import { main, VERSION } from '../src/cli/main.ts';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  process.stdout.write(
    `floe ${VERSION} (single-file build, Node ${process.version}, ${process.platform}-${process.arch})\n`,
  );
} else {
  if (process.env.NO_COLOR || process.env.TERM === 'dumb') process.env.FORCE_COLOR = '0';
  // main() catches every error itself and sets process.exitCode.
  void main(args);
}
