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
//   - Operator pages (River UI, /metrics in production) take HTTP basic auth
//     with configured credentials or an admin token (AdminOnly).
//   - Service-to-service calls (the OCR engine's callbacks, our calls to the
//     built-in engine) carry the internal key in ocr.HeaderInternalAPIKey (defined in jobs/ocr), compared
//     in constant time against the current and the previous key.
package auth
