// Django's JavaScript catalogue in Node: gettext() and friends as the page has them (/jsi18n/),
// the English words unchanged, so the page modules' pure functions run in tests.
globalThis.gettext = (text) => text;
globalThis.ngettext = (one, many, n) => (n === 1 ? one : many);
globalThis.interpolate = (template, values) => template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
