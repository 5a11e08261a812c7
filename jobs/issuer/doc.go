// Package issuer obtains the 등기사항전부증명서 (registry certificate) of a
// property from the Internet Registry Office (인터넷등기소) through a bot.
//
// The real bot is an external service reached with NewHTTPIssuer. For
// development and tests, Simulator plays the bot in process: it waits,
// keeps a payment ledger keyed by idempotency key, fails in each documented
// way on demand, and returns a realistic PDF whose content (Content) is
// deterministic per nest. NewHandler serves any Issuer, the simulator
// included, over the HTTP contract below, so the adapter is tested over real
// HTTP and a stand-alone fake bot is one line. Rendering a document costs
// the simulator tens of CPU-milliseconds, which a real bot spends on its own
// machine: Simulator.Prerender renders a property's document ahead, so that
// a benchmark keeps that cost out of its timed phase.
//
// The simulated document is plausible for the nest it is issued for: it is
// printed with the nest's address, the building's 소재지번 lies in the same
// 시·군·구 and 동 (the 동 the address names, or its road's: 망원로 → 망원동),
// and every amount follows what the unit is worth: its 전유면적 at its region's
// price per ㎡, moved by a yearly price index (PriceLevel). Sales land within
// ±10 % of that value, banks lend within 80 % of it less the live
// 채권최고액, and a 전세금 leaves the unit no more than 90 % encumbered.
//
// # Failure causes
//
// Every failure an Issuer can classify is an *Error with a Cause; CauseOf
// reads it. The caller's retry policy is:
//
//	START_FAILED       browser/session could not start        retried with backoff
//	TRANSIENT          a step failed: timeout, site 5xx       retried with backoff
//	PERMANENT          e.g. no such property                  never retried
//	DUPLICATE_PAYMENT  paid already under another request     never retried
//	NO_DOCUMENT        the bot finished without a PDF         retried a few times
//
// An error for which CauseOf reports false is unclassified; callers record it
// as UNKNOWN.
//
// # HTTP contract
//
// A bot service implements one endpoint:
//
//	POST {base}/v1/issuances
//	Content-Type: application/json
//
//	{"idempotency_key": "<task id>", "nest_id": "<nest id>",
//	 "unique_no": "<14 digits, no dashes>", "address": "<address>"}
//
// idempotency_key is required and at most 200 bytes; unique_no must be
// exactly 14 ASCII digits; nest_id (200 bytes) and address (500 bytes) are
// optional; the body is at most 64 KiB; unknown fields are ignored. A request
// repeated with the same idempotency_key must never pay twice: the bot
// either returns the document it already paid for or fails.
//
// Success is 200 with the PDF as the body:
//
//	200 OK
//	Content-Type: application/pdf
//	X-Page-Count: 3
//
// Failure is a JSON body {"code": "<code>", "message": "<text>"} with:
//
//	400  BAD_REQUEST        malformed JSON, oversized body or invalid field
//	404  PERMANENT          e.g. no such property
//	409  DUPLICATE_PAYMENT
//	502  TRANSIENT          an automation step failed
//	504  TRANSIENT          an automation step timed out
//	502  NO_DOCUMENT
//	503  START_FAILED
//	500  INTERNAL           an unclassified failure; the message is not disclosed
//
// The client (NewHTTPIssuer) classifies a response as follows. A JSON "code"
// that names a Cause wins over the status. Otherwise: 408 and 429 are
// TRANSIENT; any other 4xx, including 400, is PERMANENT (the same request
// would fail again); any 5xx is TRANSIENT; a network error, timeout or
// cancelled context is TRANSIENT. A 2xx whose body is empty, is not a PDF
// (no "%PDF-" magic) or is larger than 50 MiB is NO_DOCUMENT. A missing or
// malformed X-Page-Count is not an error: Document.Pages is then 0. Any
// other status (1xx, 3xx) is unclassified.
package issuer
