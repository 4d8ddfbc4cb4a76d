// A small stand-in for tera-toolbox around one module: `mod.hook` /
// `tryHook` with orders, packets dispatched as already-parsed objects
// (what tera-data-parser would give: every field of the def), `mod.majorPatchVersion`,
// `mod.serverId`, `mod.queryData` over a sheets folder, `mod.clientMod`,
// and a clock the session sets (`Date.now`).
'use strict';
const EventEmitter = require('events');
const { complete, readDef } = require('./defs');

// A deep copy of a parsed packet (BigInts, buffers and all).
function copy(value) {
    if (Buffer.isBuffer(value))
        return Buffer.from(value);
    if (Array.isArray(value))
        return value.map(copy);
    if (value && typeof value === 'object') {
        const out = {};
        for (const [key, v] of Object.entries(value))
            out[key] = copy(v);
        return out;
    }
    return value;
}

class StandIn {
    constructor({ patch, serverId, defsDir, dataCenter }) {
        this.hooks = new Map();
        this.errors = [];
        this.defsDir = defsDir;
        this.shapes = new Map();
        this.dataCenter = dataCenter;
        const standIn = this;
        const clientInterface = new EventEmitter();
        this.mod = {
            majorPatchVersion: patch,
            serverId,
            clientInterface,
            hook(name, version, options, cb) { return standIn.hook(name, version, options, cb); },
            tryHook(name, version, options, cb) { return standIn.hook(name, version, options, cb); },
            async queryData(query, args, multiple, children, attributes) {
                return standIn.dataCenter ? standIn.dataCenter.query(query, children, attributes) : [];
            },
            log: (...args) => standIn.errors.push(`log: ${args.join(' ')}`),
            warn: (...args) => standIn.errors.push(`warn: ${args.join(' ')}`),
            error: (...args) => standIn.errors.push(`error: ${args.join(' ')}`),
        };
    }

    // Loads the module's index.js as toolbox does: its ClientMod first (the
    // data center read when the client interface is ready), then its
    // NetworkMod, which is `mod.game` for other mods.
    async load(modulePath) {
        const module = require(modulePath);
        let ready = Promise.resolve();
        const once = this.mod.clientInterface.once.bind(this.mod.clientInterface);
        this.mod.clientInterface.once = (event, cb) => {
            if (event === 'ready')
                ready = ready.then(cb);
            else
                once(event, cb);
        };
        this.mod.clientMod = new module.ClientMod(this.mod);
        await ready;
        this.game = new module.NetworkMod(this.mod);
        return this.game;
    }

    hook(name, version, options, cb) {
        if (typeof options === 'function')
            [options, cb] = [{}, options];
        const list = this.hooks.get(name) || [];
        // toolbox's default filter: real packets, changed or not, not
        // silenced; tera-game-state's hooks ask for every packet.
        const filter = Object.assign({ fake: false, modified: null, silenced: false }, options && options.filter);
        const hook = { name, version, order: (options && options.order) || 0, filter, cb };
        list.push(hook);
        // Stable by order, as toolbox runs hooks of equal order in the
        // order they were installed.
        list.sort((a, b) => a.order - b.order);
        this.hooks.set(name, list);
        return hook;
    }

    // The def's shape; a def the project lacks (a packet game state does
    // not read) hands the fields over as they are.
    shape(name, version) {
        const key = `${name}.${version}`;
        if (!this.shapes.has(key)) {
            let shape = { fields: {} };
            try {
                shape = readDef(this.defsDir, name, version);
            } catch (e) {
                this.errors.push(`warn: ${e.message}: its fields are given as they are`);
            }
            this.shapes.set(key, shape);
        }
        return this.shapes.get(key);
    }

    // Runs every hook of the packet as toolbox's dispatch does: in order,
    // each hook its own copy of the parsed packet, hooks whose filter
    // refuses a fake or silenced packet skipped, a hook that returns false
    // silencing it; a hook that throws is reported and the next runs.
    dispatch({ name, version, fields, fake }) {
        // A packet without a version is one only 'event' hooks read.
        const event = version === undefined ? {} : complete(this.shape(name, version), fields || {});
        const thrown = [];
        let silenced = false;
        for (const hook of this.hooks.get(name) || []) {
            const { filter } = hook;
            if (filter.fake !== null && filter.fake !== !!fake)
                continue;
            if (filter.silenced !== null && filter.silenced !== silenced)
                continue;
            if (hook.version !== 'event' && hook.version !== '*' && hook.version !== version) {
                thrown.push(`${name}: hooked at version ${hook.version}, the session sends ${version}`);
                continue;
            }
            try {
                const result = hook.version === 'event' ? hook.cb() : hook.cb(copy(event), !!fake);
                if (result === false)
                    silenced = true;
            } catch (e) {
                thrown.push(`${name} (order ${hook.order}): ${e.message}`);
            }
        }
        return thrown;
    }
}

module.exports = { StandIn };
