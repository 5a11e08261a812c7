// The breaking-change check of the API contract: diffs the last released
// schema with the current one using GraphQL Inspector (@graphql-inspector/core,
// the schema-diff library of graphql-hive) and holds every breaking change it
// finds against the reviewed list of accepted ones.
//
//   node web/schemadiff.mjs <baseline.graphql> <current.graphql> <accepted.txt>
//
// In this repository: graph/schema.baseline.graphql, graph/schema.graphql and
// graph/breaking-changes.txt (graph's TestNoUnlistedBreakingChanges runs it
// in `make test`; docs/api.md tells how to release). The accepted list has
// one change a line,
//
//   CHANGE_TYPE path: reason
//
// with the change's type and path as GraphQL Inspector names them (the
// check prints both for each change it refuses, ready to copy), e.g.
//
//   FIELD_REMOVED Nest.legacyCode: nothing read it since 0.3 (access logs, 30 days)
//
// Blank lines and lines starting with # are comments.
//
// stdout: one JSON line {breaking: [{type, path, message, accepted}],
// dangerous: [...], stale: [entries that match no change], problems: [...]};
// stderr: the same for a person. Exit 0 when every breaking change is listed
// and every entry matches one, 1 otherwise, 2 on bad usage or a schema or
// list that cannot be read.
import { readFileSync } from 'node:fs';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';

const [baselineFile, currentFile, acceptedFile] = process.argv.slice(2);
if (!baselineFile || !currentFile || !acceptedFile) {
  process.stderr.write('usage: node web/schemadiff.mjs <baseline.graphql> <current.graphql> <accepted.txt>\n');
  process.exit(2);
}

function load(file) {
  try {
    return buildSchema(readFileSync(file, 'utf8'));
  } catch (e) {
    process.stderr.write(`schemadiff: ${file}: ${e instanceof Error ? e.message : e}\n`);
    process.exit(2);
  }
}

/** key names a change the way the accepted list does. */
const key = (type, path) => `${type} ${path ?? '-'}`;

const accepted = new Map(); // key → { line, reason }
const problems = [];
let text;
try {
  text = readFileSync(acceptedFile, 'utf8');
} catch (e) {
  process.stderr.write(`schemadiff: ${acceptedFile}: ${e instanceof Error ? e.message : e}\n`);
  process.exit(2);
}
text.split('\n').forEach((raw, i) => {
  const line = raw.trim();
  if (line === '' || line.startsWith('#')) return;
  const m = /^([A-Z][A-Z_]*)\s+(\S+?):\s*(.*)$/.exec(line);
  if (!m) {
    problems.push(`${acceptedFile}:${i + 1}: not "CHANGE_TYPE path: reason": ${line}`);
    return;
  }
  const [, type, path, reason] = m;
  if (reason.trim() === '') problems.push(`${acceptedFile}:${i + 1}: ${type} ${path} has no reason`);
  if (accepted.has(key(type, path))) problems.push(`${acceptedFile}:${i + 1}: ${type} ${path} is listed twice`);
  accepted.set(key(type, path), { line: i + 1, reason: reason.trim() });
});

const changes = await diff(load(baselineFile), load(currentFile));
const seen = new Set();
const breaking = [];
const dangerous = [];
for (const c of changes) {
  const item = { type: c.type, path: c.path ?? '-', message: c.message };
  if (c.criticality.level === CriticalityLevel.Breaking) {
    item.accepted = accepted.has(key(c.type, c.path));
    if (item.accepted) seen.add(key(c.type, c.path));
    breaking.push(item);
  } else if (c.criticality.level === CriticalityLevel.Dangerous) {
    dangerous.push(item);
  }
}
// An entry that matches no change is stale (the change was reverted, or
// released and the list not emptied): the list stays short and true.
const stale = [...accepted].filter(([k]) => !seen.has(k)).map(([k, v]) => `${acceptedFile}:${v.line}: ${k}`);

const refused = breaking.filter((b) => !b.accepted);
const out = [];
if (refused.length) {
  out.push(`${refused.length} breaking change(s) from ${baselineFile} to ${currentFile} not listed in ${acceptedFile}:`);
  for (const b of refused) out.push(`  ${b.type} ${b.path}: ${b.message}`);
  out.push(
    `Keep the schema compatible (add, deprecate, then remove after a release), or, when the break is meant,`,
    `add a line per change to ${acceptedFile}, "CHANGE_TYPE path: why this is acceptable", and have it reviewed.`,
  );
}
const listed = breaking.filter((b) => b.accepted);
if (listed.length) {
  out.push(`${listed.length} breaking change(s) listed as accepted:`);
  for (const b of listed) out.push(`  ${b.type} ${b.path}: ${accepted.get(key(b.type, b.path)).reason}`);
}
if (stale.length) {
  out.push(`${stale.length} entr(y/ies) of ${acceptedFile} match no breaking change (remove them):`);
  for (const s of stale) out.push(`  ${s}`);
}
if (problems.length) out.push(...problems);
if (dangerous.length) {
  out.push(`${dangerous.length} dangerous change(s) (allowed; clients should expect them):`);
  for (const d of dangerous) out.push(`  ${d.type} ${d.path}: ${d.message}`);
}
process.stdout.write(JSON.stringify({ breaking, dangerous, stale, problems }) + '\n');
if (out.length) process.stderr.write(out.join('\n') + '\n');
process.exit(refused.length || stale.length || problems.length ? 1 : 0);
