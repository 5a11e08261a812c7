package core

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/uptrace/bun"
)

// ScanPrepared runs query, written with $n placeholders, with args sent as
// parameters, and scans its first row into dest with bun (by column name);
// no row is sql.ErrNoRows.
//
// bun inlines every value into its SQL, so the server parses and plans
// each bun query anew. The hottest statements (requestIssuance's, run for
// every request) are written out instead: with parameters, pgx prepares
// the text once per connection and the server plans it from its cache.
func (s *Core) ScanPrepared(ctx context.Context, idb bun.IDB, dest any, query string, args ...any) error {
	var (
		rows *sql.Rows
		err  error
	)
	switch c := idb.(type) {
	case bun.Tx:
		rows, err = c.Tx.QueryContext(ctx, query, args...)
	case *bun.DB:
		rows, err = c.DB.QueryContext(ctx, query, args...)
	default:
		return fmt.Errorf("jobs: scanPrepared on %T", idb)
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := s.DB.Bun.ScanRow(ctx, rows, dest); err != nil {
		return err
	}
	return rows.Close()
}
