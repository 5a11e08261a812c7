// Fetches the schema the way a frontend's tools do (graphql-js's standard
// introspection query over HTTP, as graphql-codegen, Rover and GraphiQL
// send it), builds a client schema from it (buildClientSchema) and compares
// it, type by type, with the schema the graph/*.graphqls files define.
//
//   node web/test/introspect.mjs <graphqlURL> <token> <schema files…>
//
// stdout: one JSON line; exit 0 when every type the files define is
// introspected exactly as they define it (fields, arguments, defaults,
// enum values, descriptions), 1 with the differences on stderr, 2 on bad
// usage.
import { readFileSync } from 'node:fs';
import { buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema, printType } from 'graphql';

const [url, token, ...files] = process.argv.slice(2);
if (!url || !token || files.length === 0) {
  process.stderr.write('usage: node web/test/introspect.mjs <graphqlURL> <token> <schema files…>\n');
  process.exit(2);
}
const resp = await fetch(url, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
  body: JSON.stringify({ query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true }) }),
});
const body = await resp.json();
if (!resp.ok || body.errors) {
  process.stderr.write(`introspection answered ${resp.status}: ${JSON.stringify(body.errors ?? body).slice(0, 500)}\n`);
  process.exit(1);
}
const served = lexicographicSortSchema(buildClientSchema(body.data));
// gqlgen's own directives (@goModel, @goField, …) may be declared in the
// files for code generation; they are not the API.
const sdl = files.map((f) => readFileSync(f, 'utf8')).join('\n');
const defined = lexicographicSortSchema(buildSchema(sdl, { assumeValidSDL: true }));
const problems = [];
let compared = 0;
for (const [name, type] of Object.entries(defined.getTypeMap())) {
  if (name.startsWith('__')) continue;
  const got = served.getType(name);
  if (!got) {
    problems.push(`${name}: defined, not served`);
    continue;
  }
  compared++;
  const want = printType(type);
  const have = printType(got);
  if (want !== have) problems.push(`${name}:\n--- defined\n${want}\n--- served\n${have}`);
}
for (const name of Object.keys(served.getTypeMap())) {
  if (!name.startsWith('__') && !defined.getType(name)) problems.push(`${name}: served, not defined`);
}
for (const root of ['Query', 'Mutation', 'Subscription']) {
  const a = defined.getRootType(root.toLowerCase())?.name;
  const b = served.getRootType(root.toLowerCase())?.name;
  if (a !== b) problems.push(`${root} root: defined ${a}, served ${b}`);
}
process.stdout.write(JSON.stringify({ types: compared, differences: problems.length }) + '\n');
if (problems.length) {
  process.stderr.write(problems.join('\n\n') + '\n');
  process.exit(1);
}
