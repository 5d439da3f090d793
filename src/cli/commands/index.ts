// Every subcommand, in the order --help lists them. A new subcommand is one file here and one line below.
import type { Command } from '../types';
import { brief } from './brief';
import { check } from './check';
import { clear } from './clear';
import { doctor } from './doctor';
import { edit } from './edit';
import { exportMemory } from './export';
import { hook } from './hook';
import { learn } from './learn';
import { list } from './list';
import { patterns } from './patterns';
import { mcp } from './mcp';
import { recall } from './recall';
import { record } from './record';
import { redact } from './redact';
import { reflect } from './reflect';
import { replay } from './replay';
import { report } from './report';
import { allow, resolve } from './resolve';
import { setupAgents } from './setupAgents';
import { sync } from './sync';
import { team } from './team';

export const COMMANDS: readonly Command[] = [record, check, edit, report, patterns, recall, reflect, brief, redact, resolve, allow, learn, list, exportMemory, clear, replay, mcp, hook, setupAgents, doctor, sync, team];
