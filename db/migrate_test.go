package db_test

import (
	"context"
	"testing"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/dbtest"
)

func tableExists(t *testing.T, d *db.DB, name string) bool {
	t.Helper()
	var ok bool
	if err := d.Bun.NewRaw("SELECT to_regclass(?) IS NOT NULL", name).Scan(context.Background(), &ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestMigrateUpDownUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.NewEmpty(t)

	st, err := d.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Current() {
		t.Fatalf("empty database reports current migrations:\n%s", st)
	}

	tables := []string{"nests", "files", "issuance_tasks", "ocr_tasks", "task_events", "river_job"}
	for round := 1; round <= 2; round++ {
		if err := d.MigrateUp(ctx); err != nil {
			t.Fatalf("round %d up: %v", round, err)
		}
		for _, tbl := range tables {
			if !tableExists(t, d, tbl) {
				t.Errorf("round %d: table %s missing after up", round, tbl)
			}
		}
		st, err := d.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Current() {
			t.Fatalf("round %d: pending after up:\n%s", round, st)
		}
		// Up again is a no-op.
		if err := d.MigrateUp(ctx); err != nil {
			t.Fatalf("round %d second up: %v", round, err)
		}
		if round == 2 {
			break
		}
		if err := d.MigrateDown(ctx); err != nil {
			t.Fatalf("down: %v", err)
		}
		for _, tbl := range tables {
			if tableExists(t, d, tbl) {
				t.Errorf("table %s still exists after down", tbl)
			}
		}
	}
}

func TestSchemaConstraints(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := dbtest.New(t)
	const nest = "0193f7a0-0000-7000-8000-000000000001"
	if _, err := d.Bun.ExecContext(ctx, `INSERT INTO nests (id, owner_id, title, address, registry_unique_no)
		VALUES (?, 'alice', 'Home', 'Seoul', '11012021003412')`, nest); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		sql  string
		args []any
	}{
		{"unique number not 14 digits", `INSERT INTO nests (id, owner_id, title, address, registry_unique_no) VALUES (gen_random_uuid(), 'a', 't', 'x', '1234')`, nil},
		{"unknown status", `INSERT INTO issuance_tasks (id, nest_id, requested_by, status, max_attempts) VALUES (gen_random_uuid(), ?, 'a', 'RETRYING', 3)`, []any{nest}},
		{"failed without error code", `INSERT INTO issuance_tasks (id, nest_id, requested_by, status, max_attempts, finished_at) VALUES (gen_random_uuid(), ?, 'a', 'FAILED', 3, now())`, []any{nest}},
		{"unknown error code", `INSERT INTO issuance_tasks (id, nest_id, requested_by, status, error_code, max_attempts, finished_at) VALUES (gen_random_uuid(), ?, 'a', 'FAILED', 'OOPS', 3, now())`, []any{nest}},
		{"success without file", `INSERT INTO issuance_tasks (id, nest_id, requested_by, status, max_attempts, finished_at) VALUES (gen_random_uuid(), ?, 'a', 'SUCCESS', 3, now())`, []any{nest}},
		{"missing nest", `INSERT INTO issuance_tasks (id, nest_id, requested_by, max_attempts) VALUES (gen_random_uuid(), gen_random_uuid(), 'a', 3)`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := d.Bun.ExecContext(ctx, tc.sql, tc.args...); err == nil {
				t.Fatal("insert succeeded; want a constraint violation")
			}
		})
	}

	t.Run("one active issuance per nest", func(t *testing.T) {
		ins := `INSERT INTO issuance_tasks (id, nest_id, requested_by, status, max_attempts) VALUES (gen_random_uuid(), ?, 'a', ?, 3)`
		if _, err := d.Bun.ExecContext(ctx, ins, nest, "PENDING"); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Bun.ExecContext(ctx, ins, nest, "PROCESSING"); err == nil {
			t.Fatal("second active task accepted")
		}
	})
}
