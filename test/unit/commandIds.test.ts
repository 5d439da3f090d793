// One list of command ids: CommandId (src/host/commandIds.ts) holds every command package.json
// contributes and nothing else, and each id is registered under its CommandId name, never as a
// string constant of its own.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { CommandId } from '../../src/host/commandIds';

const root = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
const hostSources = [join(root, 'src/extension.ts'), ...readdirSync(join(root, 'src/host')).filter(f => f.endsWith('.ts') && f !== 'commandIds.ts').map(f => join(root, 'src/host', f))]
  .map(f => readFileSync(f, 'utf8'))
  .join('\n');

test('CommandId and package.json name the same commands', () => {
  assert.deepEqual(Object.values(CommandId).sort(), pkg.contributes.commands.map(c => c.command).sort());
});

test('every CommandId is used by the host, and no host file spells a command id as a string', () => {
  for (const name of Object.keys(CommandId)) assert.match(hostSources, new RegExp(`CommandId\\.${name}\\b`), `CommandId.${name} is never used`);
  for (const id of Object.values(CommandId)) assert.ok(!hostSources.includes(`'${id}'`), `'${id}' is spelled out instead of CommandId`);
});
