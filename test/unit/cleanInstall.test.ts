import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/*
 * `npm ci` on a fresh clone prints no warning of ours: every package the lock file installs
 * that runs an install script is one package.json's `allowScripts` has decided on (npm 11
 * warns of the rest), and every package's `engines.node` admits the Node that runs the tests
 * (npm warns EBADENGINE otherwise). Read from the lock file, as npm reads it.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  allowScripts: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean; engines?: { node?: string } | string[] }>;
};
const installed = Object.entries(lock.packages).filter(([where]) => where !== '');
const nameOf = (where: string) => where.slice(where.lastIndexOf('node_modules/') + 13);

describe('a clean install warns of nothing', () => {
  it('every install script is allowed or refused in allowScripts', () => {
    const undecided = installed
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([where]) => nameOf(where))
      .filter((name) => !(name in manifest.allowScripts));
    expect(undecided).toEqual([]);
  });

  it(`every package runs on this Node (${process.version}), which package.json's engines admits`, () => {
    expect(semver.satisfies(process.version, manifest.engines.node)).toBe(true);
    const refusing = installed
      .filter(([, entry]) => {
        const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return node !== undefined && !semver.satisfies(process.version, node);
      })
      .map(([where, entry]) => `${nameOf(where)} wants Node ${JSON.stringify(entry.engines)}`);
    expect(refusing).toEqual([]);
  });
});
