package model

// Node is what Query.node and Query.nodes return: one of the types that
// implement the GraphQL Node interface (*db.Nest, *db.IssuanceTask, …,
// *User). It is empty because most of those types are the bun models in
// db, which carry no API methods (graph/doc.go); the generated code
// switches on the concrete type. graph/node_test.go checks that every
// object type with an id implements Node, and server/node_test.go fetches
// one of each through node(id:).
type Node interface{}
