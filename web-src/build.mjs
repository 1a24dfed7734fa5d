// Bundles entry.js into one minified ES module for the site, with a notice of the bundled packages'
// licences and the bundle's sha256 (tests check the committed bundle against it). Same lockfile,
// same esbuild: the same bytes, so scripts/build-editor reproduces the committed files exactly.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const vendor = join(here, "..", "api", "web", "static", "vendor");
const bundlePath = join(vendor, "codemirror.js");
const noticePath = join(vendor, "codemirror.LICENSE.txt");

const result = await build({
  entryPoints: [join(here, "entry.js")],
  bundle: true,
  format: "esm",
  minify: true,
  target: "es2020",
  // Licence texts go to the notice file, named once in a banner, not scattered through the code.
  legalComments: "none",
  banner: { js: "/* CodeMirror 6 and its dependencies, MIT licensed: see codemirror.LICENSE.txt */" },
  charset: "utf8",
  metafile: true,
  write: false,
  logLevel: "warning",
});
const code = result.outputFiles[0].contents;

// The packages that contributed code, each with its version and its own licence file.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (!match || packages.has(match[1])) continue;
  const root = join(here, "node_modules", match[1]);
  const meta = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  packages.set(match[1], { version: meta.version, license: meta.license, text: readFileSync(join(root, "LICENSE"), "utf8") });
}
const names = [...packages.keys()].sort();
const isCopyright = (line) => /^copyright/i.test(line.trim());
// The text without its copyright and "MIT License" title lines, blank-line runs made one.
const body = (text) => text.split("\n").filter((line) => !isCopyright(line) && line.trim() !== "MIT License")
  .join("\n").replace(/\n{3,}/g, "\n\n").trim();
// Most of them share one MIT text that differs only in the copyright line: print that text once.
const common = body(packages.get("@codemirror/view").text);
const lines = [
  "The file codemirror.js bundles these packages (built by scripts/build-editor from web-src/).",
  "",
];
const different = [];
for (const name of names) {
  const { version, license, text } = packages.get(name);
  const copyright = text.split("\n").filter(isCopyright).map((line) => line.trim()).join("; ");
  lines.push(`${name}@${version} (${license}): ${copyright}`);
  if (body(text) !== common) different.push(name);
}
lines.push("", "Each is distributed under the MIT License, with the copyright line given above:", "", common, "");
for (const name of different) lines.push("", `${name} has its own licence text:`, "", packages.get(name).text.trim(), "");
const notice = lines.join("\n");

mkdirSync(vendor, { recursive: true });
writeFileSync(bundlePath, code);
writeFileSync(noticePath, notice);
const digest = createHash("sha256").update(code).digest("hex");
writeFileSync(join(here, "bundle.sha256"), `${digest}  ${relative(join(here, ".."), bundlePath)}\n`);
console.log(`${relative(process.cwd(), bundlePath)}: ${code.length} bytes, sha256 ${digest}`);
