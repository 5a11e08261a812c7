package db

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// IsConnError reports whether err comes from a database connection that is
// gone or a server that is restarting, rather than from the statement: the
// same work may succeed a moment later on a new connection. After a
// PostgreSQL restart, each connection a pool still holds fails once this
// way (pgx then marks it closed and the pool discards it).
func IsConnError(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || pgconn.SafeToRetry(err) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// 08: connection exception; 57P01-03: admin shutdown, crash
		// shutdown, cannot connect now; 53300: too many connections.
		return strings.HasPrefix(pgErr.Code, "08") || pgErr.Code == "57P01" || pgErr.Code == "57P02" ||
			pgErr.Code == "57P03" || pgErr.Code == "53300"
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	if errors.As(err, &connectErr) || errors.As(err, &netErr) {
		return true
	}
	// pgx's error for a connection it closed after a failure is unexported.
	return strings.Contains(err.Error(), "conn closed")
}
