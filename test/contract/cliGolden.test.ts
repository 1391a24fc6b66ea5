import { afterAll, describe, it } from 'vitest';
import { GROUPS, LEAVES } from '../../src/cli/registry.js';
import { temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';
import { expectGolden } from '../helpers/golden.js';

/**
 * Every leaf command's help, and a usage error in text and in JSON, pinned in
 * test/golden/cli/<command>.txt (`UPDATE_GOLDEN=1 npm test` rewrites them; review the diff).
 * The error: the command without its arguments when it takes some, else an unknown option.
 */
describe('every leaf command, pinned', () => {
  const home = temporaryHome();
  afterAll(() => home.cleanup());
  const run = (args: string[]) => runCli(args, { env: home.env });

  for (const group of ['', ...Object.keys(GROUPS)]) {
    it(`books ${group} --help lists what it holds`, async () => {
      const args = [...(group ? group.split(' ') : []), '--help'];
      const result = await run(args);
      expectGolden(
        `cli/${group ? group.split(' ').join('-') : 'books'}.help.txt`,
        `$ books ${args.join(' ')}\nexit ${result.code}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`,
      );
    });
  }

  for (const [path, load] of Object.entries(LEAVES)) {
    it(`books ${path}`, async () => {
      const words = path.split(' ');
      const { command } = await load();
      const needsArguments = Object.values(command.arguments ?? {}).some((a) => !a.optional);
      const wrong = needsArguments ? words : [...words, '--no-such-option'];
      const sections: string[] = [];
      for (const args of [[...words, '--help'], wrong, [...wrong, '-o', 'json']]) {
        const result = await run(args);
        sections.push(
          `$ books ${args.join(' ')}\nexit ${result.code}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`,
        );
      }
      expectGolden(`cli/${words.join('-')}.txt`, sections.join('\n'));
    });
  }
});
