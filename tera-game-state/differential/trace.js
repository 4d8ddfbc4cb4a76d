// What a trace holds after each packet: the events tera-game-state emitted
// (name and arguments) and every state property, as plain JSON. BigInts
// are written "<digits>n" so 64-bit values keep their type and precision.
'use strict';

// JSON of a JS value as the trace writes it.
function plain(value) {
    if (typeof value === 'bigint')
        return `${value}n`;
    if (value === undefined || value === null)
        return null;
    if (Array.isArray(value))
        return value.map(plain);
    if (typeof value === 'object') {
        const out = {};
        for (const key of Object.keys(value).sort(compareKeys))
            out[key] = plain(value[key]);
        return out;
    }
    return value;
}

function compareKeys(a, b) {
    const [x, y] = [Number(a), Number(b)];
    if (Number.isInteger(x) && Number.isInteger(y))
        return x - y;
    return a < b ? -1 : a > b ? 1 : 0;
}

// Records every event of `emitter` under `prefix` ('' for the game).
function recordEvents(emitter, prefix, events) {
    const emit = emitter.emit;
    emitter.emit = function (name, ...args) {
        events.push({ name: prefix + name, args: plain(args) });
        return emit.call(this, name, ...args);
    };
}

function item(i) {
    return {
        id: i.id,
        dbid: i.dbid,
        slot: i.slot,
        amount: i.amount,
        enchant: i.enchant,
        soulbound: i.soulboundStatus !== 0,
        masterwork: i.masterwork,
        awakened: i.awakened,
        passivitySet: i.passivitySet,
        passivitySets: (i.passivitySets || []).map(s => [s.index, s.passivities]),
        mergedPassivities: i.mergedPassivities,
        crystals: i.crystals,
        container: i.container,
        pocket: i.pocket,
        data: i.data,
    };
}

function slots(pocket) {
    const out = {};
    for (const [slot, i] of Object.entries(pocket.slots))
        out[slot] = item(i);
    return out;
}

function me(m) {
    const state = {};
    for (const key of ['gameId', 'playerId', 'serverId', 'templateId', 'name', 'level', 'class', 'race',
        'gender', 'zone', 'alive', 'mounted', 'mountId', 'mountSkill', 'status', 'inCombat', 'onPegasus',
        'inOpenWorld', 'inDungeon', 'inBattleground', 'inCivilUnrest'])
        state[key] = m[key];
    if (m.abnormalities) {
        state.abnormalities = {};
        for (const [id, a] of Object.entries(m.abnormalities))
            state.abnormalities[id] = { id: a.id, stacks: a.stacks, until: a.until, remaining: a.remaining, data: a.data };
    }
    return state;
}

function inventory(inv) {
    const pockets = {};
    inv.pockets.forEach((pocket, index) => {
        if (pocket)
            pockets[index] = { size: pocket.size, lootPriority: pocket.lootPriority, slots: slots(pocket) };
    });
    return {
        money: inv.money,
        tcat: inv.tcat,
        pocketCount: inv.pocketCount,
        equipmentItemLevel: inv.equipmentItemLevel,
        totalItemLevel: inv.totalItemLevel,
        weaponEquipped: inv.weaponEquipped,
        equipmentPassivities: inv.equipmentPassivities,
        equipmentCrystals: inv.equipmentCrystals,
        equipment: { size: inv.equipment.size, slots: slots(inv.equipment) },
        pockets,
        dbids: Object.keys(inv.dbids).map(d => `${d}n`).sort(),
    };
}

// Every property of `game` (mod.game) and its loaded submodules.
function snapshot(game) {
    const state = {
        game: {
            isIngame: game.isIngame,
            isInLoadingScreen: game.isInLoadingScreen,
            language: game.language,
            accountId: game.accountId,
            accountName: game.accountName,
            isTBA: game.isTBA,
            serverId: game.serverId,
        },
        me: me(game.me),
    };
    if (game.party)
        state.party = { inParty: game.party.inParty(), members: game.party.partyMembers };
    if (game.inventory)
        state.inventory = inventory(game.inventory);
    if (game.contract)
        state.contract = { active: game.contract.active, id: game.contract.id, type: game.contract.type };
    if (game.glyphs)
        state.glyphs = { known: game.glyphs.known, enabled: game.glyphs.enabled };
    if (game.talents)
        state.talents = { perks: game.talents.perks };
    return plain(state);
}

module.exports = { plain, recordEvents, snapshot };
