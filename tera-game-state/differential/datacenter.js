// The stand-in's data center: the sheets folder of the sessions (XML files
// and their XSD schemas, the layout tera-datacenter reads), answering
// toolbox's `mod.queryData` for the paths tera-game-state asks.
'use strict';
const fs = require('fs');
const path = require('path');

const ATTRIBUTE = /([\w:]+)="([^"]*)"/g;
const TAG = /<(\/?)([\w:]+)((?:\s+[\w:]+="[^"]*")*)\s*(\/?)>/g;

function unescape(text) {
    return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

// attribute name -> xsd type, for every attribute the folder's schema names.
function attributeTypes(xsd) {
    const types = {};
    for (const m of xsd.matchAll(/<xsd:attribute name="(\w+)" type="xsd:(\w+)"/g))
        types[m[1]] = m[2];
    return types;
}

function typed(type, text) {
    switch (type) {
        case 'int': return parseInt(text, 10);
        case 'float': return parseFloat(text);
        case 'boolean': return text === 'true';
        default: return unescape(text);
    }
}

// One file's root element as { name, attributes, children }.
function parseXml(text, types, file) {
    const root = { name: null, attributes: {}, children: [] };
    const stack = [root];
    for (const m of text.replace(/<\?[^>]*\?>|<!--[\s\S]*?-->/g, '').matchAll(TAG)) {
        const [, closing, name, attrs, selfClosing] = m;
        if (closing) {
            if (stack.pop().name !== name)
                throw new Error(`${file}: </${name}> closes another element`);
            continue;
        }
        const element = { name, attributes: {}, children: [] };
        for (const [, key, value] of attrs.matchAll(ATTRIBUTE)) {
            if (key.includes(':') || key === 'xmlns')
                continue;
            element.attributes[key] = typed(types[key], value);
        }
        stack[stack.length - 1].children.push(element);
        if (!selfClosing)
            stack.push(element);
    }
    return root.children[0];
}

class DataCenter {
    constructor(dir) {
        this.sheets = new Map();
        for (const folder of fs.readdirSync(dir, { withFileTypes: true })) {
            if (!folder.isDirectory())
                continue;
            const folderDir = path.join(dir, folder.name);
            const types = attributeTypes(fs.readFileSync(path.join(folderDir, `${folder.name}.xsd`), 'utf8'));
            const roots = fs.readdirSync(folderDir).filter(f => f.endsWith('.xml')).sort()
                .map(f => parseXml(fs.readFileSync(path.join(folderDir, f), 'utf8'), types, f));
            this.sheets.set(folder.name, roots);
        }
    }

    // toolbox's queryData('/Sheet/Element/', [], multiple, children, attributes)
    query(query, children, attributes) {
        const [sheet, element] = query.split('/').filter(Boolean);
        const results = [];
        for (const root of this.sheets.get(sheet) || [])
            for (const child of root.children.filter(c => c.name === element))
                results.push(this.result(child, children, attributes));
        return results;
    }

    result(element, children, attributes) {
        const picked = {};
        for (const [key, value] of Object.entries(element.attributes))
            if (!attributes || attributes.includes(key))
                picked[key] = value;
        return {
            name: element.name,
            attributes: picked,
            children: children ? element.children.map(c => this.result(c, true, null)) : [],
        };
    }
}

module.exports = { DataCenter };
