// Package httpapi is the HTTP surface of the service: every path a process
// serves (API.Handler), the middleware in front of them and the handlers
// that are not GraphQL resolvers. The binary (package main) builds the
// parts — the lifecycle service, the token verifier, the metrics registry,
// River UI, the built-in OCR engine — and hands them over in an API value;
// nothing here opens a database, reads the environment or starts a
// goroutine of its own, so every rule below is testable with httptest.
//
// What lives here, by file:
//
//   - handler.go: the route table. A worker-only process serves health
//     checks, /metrics and the OCR paths alone; an API process adds
//     /graphql, the REST paths, GraphiQL (development only), River UI and
//     the console. /readyz answers 200 only when the database answers and
//     its migrations are current.
//   - graphql.go, input.go: GraphQL over HTTP. The transports are listed
//     explicitly (our realtime ones from package live before POST, which
//     would otherwise answer a subscription with its first event). Stock
//     gqlgen is brought in line with the GraphQL-over-HTTP spec: under
//     application/json a request error answers 200, under
//     application/graphql-response+json it keeps its 4xx but omits "data".
//     Bodies are bounded before any parsing (MaxGraphQLBody; an upload's
//     multipart request gets ocrtask.MaxUploadBytes plus room for its other
//     parts), a body's JSON shape is checked before gqlgen sees it so a
//     malformed request gets a message saying what is wrong, and number
//     literals that do not fit 64 bits are refused before execution
//     (gqlparser would panic converting them).
//   - security.go: headers every response gets and a Content Security
//     Policy per page (the console and GraphiQL load only from this origin);
//     CORS only for configured origins (none by default: same origin only);
//     a per-request timeout for ordinary requests; a depth limit (fragments
//     followed, subscriptions included) before any resolver runs; a
//     subscription selecting more than one root field refused as a request
//     error (gqlgen would fail it later, as an internal error); WSLimits, the
//     per-user connection quota shared by WebSocket, SSE and multipart
//     streams.
//   - httplimits.go: limits against slow or idle clients (NewServer). A
//     body must arrive whole within REQUEST_BODY_TIMEOUT of the headers and
//     a second more for every MinBodyRate bytes received — one byte a
//     second keeps any per-read timeout from firing, so the bound is on the
//     whole body, and it grows only with what arrives, so an upload over a
//     slow link is taken — and a response must be written within
//     REQUEST_TIMEOUT plus a slack of the body's last byte. REQUEST_TIMEOUT
//     bounds the work once the body is read (requestTimeout sits inside
//     the body limits). Streams get no write deadline; their
//     body deadline is lifted once the body is read.
//   - rest.go: the legacy REST paths of the original system, kept for
//     clients that poll. They call the same lifecycle methods as GraphQL and
//     decide no rule of their own; errors have one JSON shape whose code is
//     the lifecycle's, and a wrong method gets that shape too (405 with
//     Allow). Task reads answer ETag and 304.
//   - callback.go: the OCR engine's callback receiver. It is exempt from
//     user auth and checks, in order: body size (413), the internal key and,
//     when a signing secret is configured, the Standard Webhooks signature
//     (401), JSON (400), a job id (400, before any lookup); the lifecycle
//     then applies the result in one transaction. Duplicates and late
//     results answer 200 and change nothing. A signed message already
//     applied is a replay (409): the signature only proves it was once
//     genuine. The replay cache is per instance and covers the signature's
//     tolerance window; a replay sent to another instance is still a no-op
//     there, since the first final result wins.
//   - observe.go: an access log line per request with its request id
//     (X-Request-ID, kept when the caller sends a sane one) and a span per
//     GraphQL query or mutation (subscriptions are long-lived and get none).
//
// Streams (WebSocket, SSE, multipart) are ended when shutdown starts
// (API.Streams): http.Server.Shutdown does not wait for hijacked
// connections and would wait out its whole timeout for an SSE stream.
package httpapi
