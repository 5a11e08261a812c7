// Package auth authenticates callers of the HTTP surface.
//
//   - Users carry HS256 bearer tokens (Tokens). Only HS256 is accepted
//     (none and every other algorithm are refused), exp is required, nbf and
//     iat are honoured, iss and aud are checked when configured, and 60 s of
//     clock skew is allowed. During a secret rotation tokens signed by the
//     previous secret still verify; new ones use the current secret.
//   - Authentication never refuses a request by itself: Authenticate puts
//     the caller (or what is wrong with the token, never the token itself)
//     in the request context, and each operation that needs a user answers
//     UNAUTHENTICATED, so `{ __typename }` works anonymously.
//   - /metrics in production takes HTTP basic auth with the operator's
//     credentials (a scraper's way) or an admin token (AdminOnly). River UI,
//     which takes actions, uses a session instead (server/httpapi's
//     operator.go): a browser caches basic auth and sends it with other
//     sites' requests.
//   - A token's subject is a user id: at most 200 bytes of UTF-8 without
//     control characters, or the token is refused.
//   - Service-to-service calls (the OCR engine's callbacks, our calls to the
//     built-in engine) carry the internal key in ocr.HeaderInternalAPIKey (defined in jobs/ocr), compared
//     in constant time against the current and the previous key.
package auth
