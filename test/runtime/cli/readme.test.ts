import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../runtime/cli/commands.js';

/**
 * The README names every command the CLI has, and links nothing outside the repository: only its
 * own sections, and the server it describes on the loopback address.
 */

const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');

/** GitHub's anchor of a heading: lower case, backticks and punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('README.md', () => {
  it.each(COMMANDS.map((c) => c.name))('names `cadence %s`', (name) => {
    // Written out, or as one of the alternatives in `cadence org create|list|lock`.
    const words = name.split(' ');
    const last = escape(words.pop()!);
    const pattern = new RegExp(`cadence ${words.map((w) => `${escape(w)} `).join('')}(?:[\\w-]+\\|)*${last}(?![\\w-])`);
    expect(readme).toMatch(pattern);
  });

  it('links only its own sections and the loopback server', () => {
    const anchors = new Set([...readme.matchAll(/^#{2,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) {
      if (target.startsWith('#')) expect(anchors, target).toContain(target.slice(1));
      else expect(target).toMatch(/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//);
    }
    // No bare address of another host either: examples use the reserved names of RFC 2606 (example.com, .test).
    const hosts = [...readme.matchAll(/https?:\/\/([^/\s:`'")\]]+)/g)].map((m) => m[1]!);
    for (const host of hosts) expect(host).toMatch(/^(127\.0\.0\.1|localhost|\[::1\]|HOST|(.*\.)?(example|test|invalid|localhost)|(.*\.)?example\.(com|org|net))$/);
  });
});
