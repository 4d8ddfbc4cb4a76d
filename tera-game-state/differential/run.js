#!/usr/bin/env node
// Runs tera-game-state (tera-toolbox's module, from a checkout you name)
// under the stand-in over every session in sessions/, and writes one trace
// per session into traces/: after each packet, the events emitted and every
// state property.
//
//   node run.js CHECKOUT [--commit SHA] [--dir DIR]
//
// DIR (this folder by default) holds sessions/ and gets traces/; its
// datacenter/ is read when it has one, else this folder's.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { StandIn } = require('./standin');
const { DataCenter } = require('./datacenter');
const { recordEvents, snapshot } = require('./trace');

const HERE = __dirname;
const DEFS = path.join(HERE, '..', '..', 'defs');

function usage(message) {
    process.stderr.write(`${message}\nusage: node run.js CHECKOUT [--commit SHA] [--dir DIR]\n`);
    process.exit(2);
}

function commitOf(checkout, given) {
    if (given)
        return given;
    try {
        return execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    } catch (e) {
        usage(`${checkout} is not a git checkout; say which commit it is with --commit`);
    }
}

async function runSession(checkout, session, dataCenter) {
    const standIn = new StandIn({ patch: session.patch, serverId: session.serverId, defsDir: DEFS, dataCenter });
    let clock = session.clock;
    const realNow = Date.now;
    Date.now = () => clock;
    try {
        const game = await standIn.load(path.resolve(checkout, 'index.js'));
        game.initialize(session.submodules);
        const events = [];
        recordEvents(game, '', events);
        for (const [name, submodule] of Object.entries(game.loadedSubmodules))
            recordEvents(submodule, `${name}.`, events);
        // Other mods' hooks: one that throws, one that blocks the packet
        // (returns false).
        for (const other of session.otherHooks || [])
            standIn.hook(other.name, 'event', { order: other.order }, () => {
                if (other.throws)
                    throw new Error(other.throws);
                return other.silences ? false : undefined;
            });
        const steps = [];
        for (const step of session.steps) {
            if (step.time !== undefined)
                clock = step.time;
            events.length = 0;
            const thrown = standIn.dispatch(step);
            steps.push({
                packet: step.version === undefined ? step.name : `${step.name}.${step.version}`,
                fake: !!step.fake,
                time: clock,
                events: events.slice(),
                thrown,
                state: snapshot(game),
            });
        }
        return { steps, log: standIn.errors };
    } finally {
        Date.now = realNow;
    }
}

async function main() {
    const args = process.argv.slice(2);
    let checkout, commit, dir = HERE;
    for (let i = 0; i < args.length; i++) {
        if (args[i] === '--commit') commit = args[++i];
        else if (args[i] === '--dir') dir = args[++i];
        else if (!checkout) checkout = args[i];
        else usage(`unexpected argument ${args[i]}`);
    }
    if (!checkout)
        usage('name a checkout of tera-toolbox/tera-game-state');
    if (!fs.existsSync(path.join(checkout, 'index.js')))
        usage(`${checkout} has no index.js: not a tera-game-state checkout`);
    commit = commitOf(checkout, commit);
    const sheets = fs.existsSync(path.join(dir, 'datacenter')) ? path.join(dir, 'datacenter') : path.join(HERE, 'datacenter');
    const dataCenter = new DataCenter(sheets);
    const out = path.join(dir, 'traces');
    fs.mkdirSync(out, { recursive: true });
    const sessionsDir = path.join(dir, 'sessions');
    for (const file of fs.readdirSync(sessionsDir).filter(f => f.endsWith('.json')).sort()) {
        const session = JSON.parse(fs.readFileSync(path.join(sessionsDir, file), 'utf8'));
        const { steps, log } = await runSession(checkout, session, dataCenter);
        const trace = { module: 'tera-toolbox/tera-game-state', commit, session: file, log, steps };
        fs.writeFileSync(path.join(out, file), JSON.stringify(trace, null, 1) + '\n');
        process.stderr.write(`${file}: ${steps.length} packets\n`);
    }
}

main().catch(e => { process.stderr.write(`${e.stack}\n`); process.exit(1); });
