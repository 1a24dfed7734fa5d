// Bundles entry.js into one minified ES module for the site, with a notice of the bundled packages'
// licences, copies the API documentation viewers, and records every file's sha256 (tests check the
// committed files against it). Same lockfile, same esbuild: the same bytes, so scripts/build-web-assets reproduces the committed files exactly.
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
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
  "The file codemirror.js bundles these packages (built by scripts/build-web-assets from web-src/).",
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
// Every file written, in sha256sum's format (`sha256sum -c assets.sha256` from the project root).
const written = [bundlePath];
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
console.log(`${relative(process.cwd(), bundlePath)}: ${code.length} bytes, sha256 ${sha256(code)}`);

// The API documentation pages (/docs and /redoc) from the same lockfile: Swagger UI and Redoc's
// prebuilt bundles, copied as published without their source-map comment, since no map is served.
const docs = join(vendor, "docs");
mkdirSync(docs, { recursive: true });
const prebuilt = [
  ["swagger-ui-dist/swagger-ui-bundle.js", "swagger-ui-bundle.js"],
  ["swagger-ui-dist/swagger-ui.css", "swagger-ui.css"],
  ["swagger-ui-dist/LICENSE", "swagger-ui.LICENSE.txt"],
  ["swagger-ui-dist/swagger-ui-bundle.js.LICENSE.txt", "swagger-ui-bundle.js.LICENSE.txt"],
  ["redoc/bundles/redoc.standalone.js", "redoc.standalone.js"],
  ["redoc/LICENSE", "redoc.LICENSE.txt"],
  ["redoc/bundles/redoc.standalone.js.LICENSE.txt", "redoc.standalone.js.LICENSE.txt"],
];
for (const [source, target] of prebuilt) {
  const from = join(here, "node_modules", source);
  if (/\.(js|css)$/.test(target)) {
    const text = readFileSync(from, "utf8").replace(/\n?\/[/*]# sourceMappingURL=\S+(?: \*\/)?\s*$/, "\n")
      // Redoc's sidebar shows its maker's logo from a CDN and drops the image when it fails to
      // load: an empty data URL fails at once, without a request leaving for another host.
      .replaceAll("https://cdn.redoc.ly/redoc/logo-mini.svg", "data:,");
    writeFileSync(join(docs, target), text);
    written.push(join(docs, target));
  } else {
    copyFileSync(from, join(docs, target));
  }
}
const project = join(here, "..");
writeFileSync(join(here, "assets.sha256"),
  written.map((path) => `${sha256(readFileSync(path))}  ${relative(project, path)}\n`).join(""));
console.log(`${relative(process.cwd(), docs)}: ${prebuilt.length} files for /docs and /redoc`);
