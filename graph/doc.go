// Package graph is the GraphQL API: the schema (*.graphqls, one file per
// domain), the code gqlgen generates from it (generated.go, model/; never
// edited by hand: `make generate`, checked by `make verify`) and thin
// resolvers that call the lifecycle in jobs.
//
// # Resolvers hold no rules
//
// A resolver translates arguments, calls one Service method and returns its
// result or error; codes reach extensions.code through the error presenter
// (errors.go). Every list-reachable edge resolves through the response's
// data loaders (loaders.go): the fields of all objects of a list wait a
// couple of milliseconds and share one statement per edge, authorised once
// per batch, so the cost of a page does not grow with its size. Loaders are
// made per response, so a subscription's next event never reads a value
// cached for the previous one.
//
// # The schema is the contract, the bun models are its backing
//
// gqlgen.yml binds the GraphQL object types straight to the bun models in
// db (IssuanceTask, OCRTask, Nest, …) rather than to a second set of API
// structs. We keep it that way on purpose: the public API is what the
// .graphqls files say, not what the Go structs hold. A model field the
// schema does not name is invisible; renaming a column changes only its
// bun tag; renaming or removing a Go field the schema needs makes
// `make generate` fail (gqlgen finds no field or resolver), so the API
// cannot change silently. A field whose API shape differs from its column
// gets a resolver (e.g. Nest.registryUniqueNo's formatting), which is where a mapping
// layer would have put it anyway, without doubling every type. If the
// models ever need to diverge widely from the API, bind that type to a
// struct in graph/model and map it in its resolver.
//
// graph/schema.graphql is that contract printed whole, as served (SDL, sdl.go;
// `make generate` writes it, TestSchemaFileIsServed holds it current). A
// change that breaks a client, counted from the last release
// (schema.baseline.graphql), fails TestNoUnlistedBreakingChanges unless
// breaking-changes.txt lists it with a reason; the console's documents are
// typed from the file (web/codegen.yml). See docs/api.md, "The contract in CI".
//
// # Enums, Node and connections
//
// Codes and kinds (task error codes, verdict reason codes, entry kinds, …)
// are enums bound to the Go string types that hold them (gqlgen.yml), and
// written as stored: the wire keeps the strings these fields carried when
// they were Strings, and a value an enum lacks is answered as its string
// rather than failing the answer; enums_test.go fails when a Go constant
// is missing from its enum. Every object type with an id implements Node
// (model.Node): node.go answers Query.node and Query.nodes through
// jobs.Service.Nodes, which checks the owner inside its one lookup. Every
// connection pages as the Relay cursor connections spec says
// (core.PageArgs).
//
// The schema served is the files' with gqlparser's prelude, less @defer,
// which the API does not deliver (served.go).
//
// # Limits
//
// What an operation can return is priced from the schema by the HTTP layer
// (server/httpapi), with the sizes of the lists that are not pages from
// cost.go; depth and a single root field per subscription are enforced
// there too.
package graph
