// Package live delivers GraphQL subscriptions to clients: it owns every
// realtime transport the API serves, as gqlgen transports
// (graphql.Transport), in place of gqlgen's stock WebSocket, SSE and
// multipart ones.
//
//   - WebSocket, subprotocol graphql-transport-ws (the graphql-ws library's
//     protocol, its PROTOCOL.md followed to the close code) and the legacy
//     graphql-ws subprotocol of subscriptions-transport-ws clients.
//   - graphql-sse (its PROTOCOL.md), in distinct-connections mode and in
//     single-connection mode (PUT reservation, POSTed operations, one
//     event stream, DELETE to stop one operation).
//   - Multipart subscriptions as Apollo defines them
//     (Accept: multipart/mixed;subscriptionSpec=1.0).
//
// Three rules hold for every transport:
//
//   - A connection's identity expires with its token (core.Actor.Expires):
//     at that instant a WebSocket is closed with 4403, which the graphql-ws
//     client answers by re-running connectionParams and reconnecting, and
//     an event stream ends without "complete", which graphql-sse clients
//     retry with fresh headers. An operation on an expired identity is
//     refused.
//   - No request can end the process: every goroutine a transport starts
//     recovers a panic, ends only its own stream (close 4500, or an error
//     event) and logs it with the request id.
//   - Idle connections are cheap: a WebSocket holds one goroutine (its
//     reader) while idle; deliveries are pulled from the subscription hub's
//     mailbox by a writer goroutine that exists only while there is
//     something to send (see hub.Feed), never a goroutine per
//     subscription.
package live
