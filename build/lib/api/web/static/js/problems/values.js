// Python-style values: JSON loses tuples and 1.0 vs 1, the declared type brings them back. The
// judge compares type-strictly, so a learner must see 1.0 where a float is due.
export function parseType(text) {
  const tokens = String(text || "Any").match(/\.\.\.|[A-Za-z_]+|[[\],|]/g) || [];
  let i = 0;
  const atom = () => {
    const kind = tokens[i++] || "Any";
    const args = [];
    if (tokens[i] === "[") {
      i++;
      while (i < tokens.length && tokens[i] !== "]") {
        args.push(union());
        if (tokens[i] === ",") i++;
      }
      i++;
    }
    return { kind, args };
  };
  const union = () => {
    const parts = [atom()];
    while (tokens[i] === "|") {
      i++;
      parts.push(atom());
    }
    return parts.length === 1 ? parts[0] : { kind: "union", args: parts };
  };
  return union();
}

function fits(type, value) {
  switch (type.kind) {
    case "None": return value === null;
    case "bool": return typeof value === "boolean";
    case "int": case "float": return typeof value === "number";
    case "str": return typeof value === "string";
    case "list": case "tuple": return Array.isArray(value);
    case "dict": return value !== null && typeof value === "object" && !Array.isArray(value);
    default: return true;
  }
}

// Python's str.isprintable(): these are shown as escapes, as repr() does.
const UNPRINTABLE = /^(?:[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs})$/u;
const ESCAPES = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function pyStr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ESCAPES[ch]) out += ESCAPES[ch];
    else if (ch === quote) out += "\\" + ch;
    else if (UNPRINTABLE.test(ch)) {
      const [prefix, width] = code < 0x100 ? ["x", 2] : code < 0x10000 ? ["u", 4] : ["U", 8];
      out += "\\" + prefix + code.toString(16).padStart(width, "0");
    } else out += ch;
  }
  return quote + out + quote;
}

const ANY = { kind: "Any", args: [] };

export function py(value, type) {
  type = type || ANY;
  if (type.kind === "union") type = type.args.find((t) => fits(t, value)) || ANY;
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") {
    const text = String(value);
    return type.kind === "float" && /^-?\d+$/.test(text) ? text + ".0" : text;
  }
  if (typeof value === "string") return pyStr(value);
  if (Array.isArray(value)) {
    const variadic = type.args.length === 2 && type.args[1].kind === "...";
    const item = (i) => (type.kind === "tuple" && !variadic ? type.args[i] : type.args[0]);
    const items = value.map((v, i) => py(v, item(i)));
    if (type.kind !== "tuple") return `[${items.join(", ")}]`;
    return `(${items.join(", ")}${items.length === 1 ? "," : ""})`;
  }
  const valueType = type.kind === "dict" ? type.args[1] : ANY;
  return `{${Object.entries(value).map(([k, v]) => `${pyStr(k)}: ${py(v, valueType)}`).join(", ")}}`;
}

export function argumentsText(args, kwargs, parameters) {
  const params = parameters || [];
  const lines = (args || []).map((value, i) => {
    const param = params[i];
    return param ? `${param.name} = ${py(value, parseType(param.type))}` : py(value);
  });
  for (const [name, value] of Object.entries(kwargs || {})) {
    const param = params.find((p) => p.name === name);
    lines.push(`${name} = ${py(value, param && parseType(param.type))}`);
  }
  return lines.join("\n");
}
