// A small stand-in for tera-toolbox around one module: `mod.hook` /
// `tryHook` with orders, packets dispatched as already-parsed objects
// (what tera-data-parser would give: every field of the def), `mod.majorPatchVersion`,
// `mod.serverId`, `mod.queryData` over a sheets folder, `mod.clientMod`,
// and a clock the session sets (`Date.now`).
'use strict';
const EventEmitter = require('events');
const { complete, readDef } = require('./defs');

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
        const hook = { name, version, order: (options && options.order) || 0, cb };
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

    // Runs every hook of the packet; a hook that throws is reported and the
    // next runs (as toolbox logs and goes on).
    dispatch({ name, version, fields }) {
        // A packet without a version is one only 'event' hooks read.
        const event = version === undefined ? {} : complete(this.shape(name, version), fields || {});
        const thrown = [];
        for (const hook of this.hooks.get(name) || []) {
            if (hook.version !== 'event' && hook.version !== '*' && hook.version !== version) {
                thrown.push(`${name}: hooked at version ${hook.version}, the session sends ${version}`);
                continue;
            }
            try {
                hook.cb(hook.version === 'event' ? undefined : event);
            } catch (e) {
                thrown.push(`${name} (order ${hook.order}): ${e.message}`);
            }
        }
        return thrown;
    }
}

module.exports = { StandIn };
