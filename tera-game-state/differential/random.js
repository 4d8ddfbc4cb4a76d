#!/usr/bin/env node
// Writes random sessions (packets game state reads, in any order, with
// ids of the player, of others and 0, contracts of id 0, vehicles of id
// 0, lists cut anywhere) for the differential test to find what the
// scripted sessions miss:
//
//   node random.js SEED COUNT DIR    # DIR/sessions/random-SEED-N.json
//   node run.js CHECKOUT --dir DIR
//   TERA_GAME_STATE_DIFF=DIR cargo test -p tera-game-state --test differential
'use strict';
const fs = require('fs');
const path = require('path');

const T0 = 1700000000000;
const ME = 1001;
const SUBMODULE_SETS = [
    ['me', 'me.abnormalities', 'party', 'inventory', 'contract', 'glyphs', 'talents'],
    ['me'],
    ['party', 'me.abnormalities'],
    ['inventory', 'contract'],
];

// mulberry32: a small seeded generator, so a seed gives the same sessions.
function generator(seed) {
    let a = seed >>> 0;
    const next = () => {
        a = (a + 0x6D2B79F5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const int = n => Math.floor(next() * n);
    const pick = list => list[int(list.length)];
    return { next, int, pick };
}

const packet = (name, version, fields) => (version === null ? { name } : { name, version, fields });
const member = (serverId, playerId, gameId, name, cls) => ({ serverId, playerId, gameId, name, class: cls, level: 65, online: true });
const item = (r, id, dbid, slot) => ({ id, dbid, slot, amount: 1 + r.int(8), enchant: r.int(3), soulboundStatus: r.int(2),
    passivitySet: r.int(2), passivitySets: [{ index: 0, passivities: [r.int(3)] }], mergedPassivities: [], crystals: [r.int(2)] });

// One random packet.
function step(r) {
    const g = r.pick([ME, ME, ME, 1002, 0]);
    const choices = [
        () => packet('S_LOGIN', 15, { templateId: r.pick([10106, 10410, 12345, 90101]), gameId: ME, serverId: 2800, playerId: 5001,
            name: r.pick(['A', 'B']), level: r.pick([1, 65]), status: r.pick([0, 1, 3]), alive: r.next() < 0.5 }),
        () => packet('S_LOAD_TOPO', 3, { zone: r.pick([2, 13, 9713, 152, 102, 777]), quick: r.next() < 0.5 }),
        () => packet('S_SPAWN_ME', 3, { gameId: g, alive: r.next() < 0.7 }),
        () => packet('S_CREATURE_LIFE', 3, { gameId: g, alive: r.next() < 0.5 }),
        () => packet('S_MOUNT_VEHICLE', 2, { gameId: g, id: r.pick([0, 12, 14]), skill: r.pick([0, 5]) }),
        () => packet('S_UNMOUNT_VEHICLE', 2, { gameId: g }),
        () => packet('S_USER_STATUS', 4, { gameId: g, status: r.int(4) }),
        () => packet('S_USER_LEVELUP', 2, { gameId: g, level: r.pick([1, 65, 70]) }),
        () => packet('S_USER_CHANGE_NAME', 1, { gameId: g, name: r.pick(['A', 'B', '']) }),
        () => packet('S_ABNORMALITY_BEGIN', 5, { target: g, id: r.pick([4830, 70251, 5]), duration: r.pick([0, 1000, -5, 100000]), stacks: 1 + r.int(2) }),
        () => packet('S_ABNORMALITY_REFRESH', 2, { target: g, id: r.pick([4830, 70251, 5]), duration: r.pick([0, 1000]), stacks: 3 }),
        () => packet('S_ABNORMALITY_END', 1, { target: g, id: r.pick([4830, 70251, 5]) }),
        () => packet('S_PARTY_MEMBER_LIST', 9, { members: [member(2800, 5001, ME, 'A', 1), member(2800, 5002, 1002, 'B', 2),
            member(2801, 5003, 1003, 'C', 3)].slice(0, r.int(4)) }),
        () => packet('S_LEAVE_PARTY_MEMBER', 2, { serverId: r.pick([2800, 2801, 2900]), playerId: r.pick([5002, 5003, 9]), name: 'X' }),
        () => packet('S_BAN_PARTY_MEMBER', 1, { serverId: r.pick([2800, 2801]), playerId: r.pick([5002, 5003]), name: 'Y' }),
        () => packet('S_LEAVE_PARTY', null),
        () => packet('S_SPAWN_USER', 17, { serverId: 2801, playerId: 5003, gameId: r.pick([1003, 1013]), name: 'C' }),
        () => packet('S_ITEMLIST', 7, { gameId: g, container: r.pick([0, 0, 14]), pocket: r.int(2), numPockets: 1 + r.int(2),
            size: r.pick([10, 40]), money: r.int(100), first: r.next() < 0.5, more: r.next() < 0.5, lastInBatch: r.next() < 0.5,
            items: [item(r, r.pick([6560, 8008, 98405]), 1 + r.int(5), r.int(4))] }),
        () => packet('S_INVEN_USERDATA', 2, { gameId: g, itemLevel: r.pick([1.5, 400.25]), itemLevelInventory: 2.5, tcat: r.int(9) }),
        () => packet('S_CREST_INFO', 2, { crests: Array.from({ length: r.int(3) }, () => ({ id: 1 + r.int(3), enable: r.next() < 0.5 })) }),
        () => packet('S_CREST_APPLY', 2, { id: 1 + r.int(3), enable: r.next() < 0.5 }),
        () => r.next() < 0.5 ? packet('S_LOAD_EP_INFO', 3, { perks: [{ id: 1, level: r.int(3) }] })
            : packet('TTB_S_LOAD_EP_PAGE', 1, { perks: [{ id: 1, level: r.int(3) }] }),
        () => packet('S_LEARN_EP_PERK', 1, { success: r.next() < 0.5, perks: [{ id: 2, level: 1 }] }),
        () => packet('S_RESET_EP_PERK', 1, { success: r.next() < 0.5 }),
        () => packet('S_REQUEST_CONTRACT', 2, { type: r.pick([0, 4]), id: r.pick([0, 7]) }),
        () => packet(r.pick(['S_ACCEPT_CONTRACT', 'S_REJECT_CONTRACT', 'S_CANCEL_CONTRACT']), null),
        () => packet(r.pick(['S_RETURN_TO_LOBBY', 'S_EXIT', 'S_GET_USER_LIST', 'S_SELECT_USER', 'S_TBA_SELECT_USER']), null),
        () => packet('TTB_S_CHANGE_HERO', 1, { gameId: g, templateId: r.pick([90101, 10106, 4242]) }),
    ];
    return r.pick(choices)();
}

function session(r, length) {
    let time = T0;
    const steps = [];
    for (let i = 0; i < length; i++) {
        time += r.pick([0, 0, 500, 20000]);
        steps.push(Object.assign(step(r), { time }));
    }
    return { description: 'random', patch: 114, serverId: 2800, clock: T0, submodules: r.pick(SUBMODULE_SETS), steps };
}

function main() {
    const [seed, count, dir] = process.argv.slice(2);
    if (!dir || !Number.isInteger(Number(seed)) || !Number.isInteger(Number(count))) {
        process.stderr.write('usage: node random.js SEED COUNT DIR\n');
        process.exit(2);
    }
    const r = generator(Number(seed));
    fs.mkdirSync(path.join(dir, 'sessions'), { recursive: true });
    for (let n = 0; n < Number(count); n++) {
        const file = path.join(dir, 'sessions', `random-${seed}-${n}.json`);
        fs.writeFileSync(file, JSON.stringify(session(r, 150), null, 1) + '\n');
    }
    process.stderr.write(`${count} sessions of 150 packets in ${path.join(dir, 'sessions')}\n`);
}

main();
