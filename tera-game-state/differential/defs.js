// Which fields of a packet are 64-bit, read from the project's .def files,
// so the stand-in hands tera-game-state BigInts where tera-data-parser does.
'use strict';
const fs = require('fs');
const path = require('path');

const WIDE = new Set(['int64', 'uint64']);

// The def `NAME.VERSION.def` as a tree: field name -> 'wide' | 'scalar' |
// { fields } (object) | { element } (array of objects or scalars).
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
            parent[field] = type === 'array' ? { element: inner } : { fields: inner };
            stack[depth + 1] = inner;
        } else if (type.startsWith('array<')) {
            parent[field] = { element: WIDE.has(type.slice(6, -1)) ? 'wide' : 'scalar' };
        } else {
            parent[field] = WIDE.has(type) ? 'wide' : 'scalar';
        }
    }
    return root;
}

// `value` (a session's JSON) with every 64-bit field a BigInt.
function widen(shape, value) {
    if (shape === 'wide')
        return typeof value === 'number' || typeof value === 'string' ? BigInt(value) : value;
    if (shape === 'scalar' || value === null || typeof value !== 'object')
        return value;
    if (shape.element !== undefined)
        return Array.isArray(value) ? value.map(v => widen(shape.element, v)) : value;
    const fields = shape.fields || shape;
    const out = {};
    for (const [key, v] of Object.entries(value))
        out[key] = fields[key] === undefined ? v : widen(fields[key], v);
    return out;
}

module.exports = { readDef, widen };
