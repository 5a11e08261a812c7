// Package db holds the task store: the bun models, the embedded migrations
// (ours and River's), the connection wiring that lets a bun write and a River
// insert share one transaction, and the event tail that turns committed
// transitions into pushes.
//
// # One transaction for the row, its event and its job
//
// Every state change of a task writes, in one transaction, the task row, a
// task_events row (its version, from, to and payload) and, when work
// follows, the River job. bun runs on pgx's stdlib driver opened from a
// pgxpool (Open): bun.Tx embeds *sql.Tx, which River's riverdatabasesql
// driver takes, so a task and its job commit or vanish together. (bun's own
// pgdriver would break River's leader election: it cannot bind the
// parameters River sends.)
//
// bun inlines every value into its SQL, while River's statements (and the
// few hot lookups written out with parameters) repeat the same text. Open
// keeps pgx's default mode on the pool, so a statement with parameters is
// prepared once per connection and planned from the server's cache, and
// its database/sql connections send a statement that comes without
// parameters (bun's) as an unnamed one in one round trip, instead of
// preparing and caching each distinct text. lib/pq's text Valuers, which
// River's driver passes for arrays, go as text parameters.
//
// # From a commit to a push: EventTail and Waker
//
// A write never calls pg_notify inside its transaction: NOTIFY serialises
// commits (measured with pgbench on 2 cores: about 2.7× fewer writes per
// second at 16 clients). The Waker sends one empty NOTIFY after commits,
// coalescing pokes that arrive while one is in flight, and commits it
// without waiting for a WAL flush (it carries nothing to keep). Each API process
// runs one EventTail on one connection, however many subscribers it has: it
// reads task_events by transaction id and snapshot xmin, so a row that
// commits late is never skipped, and it polls as well, so a lost wake-up
// delays an event but never loses it.
//
// # Tests
//
// dbtest gives each test its own database, cloned from a migrated template
// (CREATE DATABASE … TEMPLATE), so tests run in parallel against real
// PostgreSQL and leave nothing behind. localpg finds a PostgreSQL server or
// starts a private cluster under DATA_DIR for `make run` and `make test`.
package db
