// Writes the TypeScript examples of the docs into test/examples/, where tsc compiles them with the tests
// and the tests run them against a live server: the docs show exactly what is run. A page's example is its
// first ```ts block; the file is named after the page.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const docs = join(here, "..", "..", "..", "docs");
const out = join(here, "..", "test", "examples");
const pages = { "typescript-client.ts": "integrations/typescript-client.md", "ai-sdk.ts": "integrations/ai-sdk.md" };

mkdirSync(out, { recursive: true });
for (const [file, page] of Object.entries(pages)) {
  const text = readFileSync(join(docs, page), "utf8");
  const match = text.match(/```ts\n([\s\S]*?)```/);
  if (!match) throw new Error(`docs/${page} has no \`\`\`ts block`);
  writeFileSync(join(out, file), `// Generated from docs/${page} by scripts/examples.mjs: edit the page.\n${match[1]}`);
}
