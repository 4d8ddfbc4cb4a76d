// The shape of a packet by the project's .def files: what tera-data-parser
// would give, so the stand-in hands tera-game-state every field (those a
// session leaves out as zero, as the Rust side encodes them) and BigInts
// for 64-bit fields.
'use strict';
const fs = require('fs');
const path = require('path');

const WIDE = new Set(['int64', 'uint64']);

// The def `NAME.VERSION.def` as a tree: field name -> a type name (a
// scalar), { fields } (object) or { element } (array of a type name or of
// { fields }).
function readDef(defsDir, name, version) {
    const file = path.join(defsDir, `${name}.${version}.def`);
    if (!fs.existsSync(file))
        throw new Error(`no def ${name}.${version} in ${defsDir}`);
    const root = {};
    const stack = [root];
    for (const raw of fs.readFileSync(file, 'utf8').split('\n')) {
        const line = raw.replace(/#.*/, '').trim();
        if (!line)
            continue;
        const m = /^((?:-\s*)*)(\S+)\s+(\S+)$/.exec(line);
        if (!m)
            throw new Error(`${file}: cannot read "${line}"`);
        const depth = (m[1].match(/-/g) || []).length;
        const [type, field] = [m[2], m[3]];
        if (type === 'ref')
            continue;
        stack.length = depth + 1;
        const parent = stack[depth];
        if (type === 'array' || type === 'object') {
            const inner = {};
            parent[field] = type === 'array' ? { element: { fields: inner } } : { fields: inner };
            stack[depth + 1] = inner;
        } else if (type.startsWith('array<')) {
            parent[field] = { element: type.slice(6, -1) };
        } else {
            parent[field] = type;
        }
    }
    return { fields: root };
}

// The zero of a scalar type, as the generated packets' `Default`.
function zero(type) {
    if (WIDE.has(type))
        return 0n;
    switch (type) {
        case 'bool': return false;
        case 'string': return '';
        case 'bytes': return Buffer.alloc(0);
        case 'vec3': case 'vec3fa': return { x: 0, y: 0, z: 0 };
        default: return 0;
    }
}

// `value` (a session's JSON) as the parser would give it: every field of
// the def, those left out zero, 64-bit ones BigInts.
function complete(shape, value) {
    if (typeof shape === 'string') {
        if (value === undefined)
            return zero(shape);
        return WIDE.has(shape) && (typeof value === 'number' || typeof value === 'string') ? BigInt(value) : value;
    }
    if (shape.element !== undefined)
        return Array.isArray(value) ? value.map(v => complete(shape.element, v)) : [];
    const given = value && typeof value === 'object' ? value : {};
    const out = {};
    for (const [key, field] of Object.entries(shape.fields))
        out[key] = complete(field, given[key]);
    for (const [key, v] of Object.entries(given))
        if (!(key in out))
            out[key] = v;
    return out;
}

module.exports = { readDef, complete };
