package db

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"strings"

	"github.com/riverqueue/river/rivermigrate"
	"github.com/uptrace/bun/migrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations returns our schema migrations, embedded in the binary.
func Migrations() *migrate.Migrations {
	ms := migrate.NewMigrations()
	if err := ms.Discover(migrationFiles); err != nil {
		panic(fmt.Sprintf("db: embedded migrations: %v", err)) // a build defect, caught by every test
	}
	return ms
}

func (d *DB) migrator() *migrate.Migrator {
	return migrate.NewMigrator(d.Bun, Migrations(),
		migrate.WithTableName("dungji_migrations"),
		migrate.WithLocksTableName("dungji_migration_locks"),
		migrate.WithMarkAppliedOnSuccess(true))
}

func (d *DB) riverMigrator() (*rivermigrate.Migrator[*sql.Tx], error) {
	return rivermigrate.New(d.River, nil)
}

// MigrateUp applies River's migrations and then ours, each under its own lock.
func (d *DB) MigrateUp(ctx context.Context) error {
	rm, err := d.riverMigrator()
	if err != nil {
		return fmt.Errorf("db: river migrator: %w", err)
	}
	if _, err := rm.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("db: migrate river up: %w", err)
	}
	m := d.migrator()
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("db: init migrations: %w", err)
	}
	if err := m.Lock(ctx); err != nil {
		return fmt.Errorf("db: lock migrations: %w", err)
	}
	defer func() { _ = m.Unlock(context.WithoutCancel(ctx)) }()
	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("db: migrate up: %w", err)
	}
	return nil
}

// MigrateDown rolls back every migration of ours and then River's.
func (d *DB) MigrateDown(ctx context.Context) error {
	m := d.migrator()
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("db: init migrations: %w", err)
	}
	if err := m.Lock(ctx); err != nil {
		return fmt.Errorf("db: lock migrations: %w", err)
	}
	for {
		applied, err := m.AppliedMigrations(ctx)
		if err != nil {
			_ = m.Unlock(ctx)
			return fmt.Errorf("db: applied migrations: %w", err)
		}
		if len(applied) == 0 {
			break
		}
		if _, err := m.Rollback(ctx); err != nil {
			_ = m.Unlock(ctx)
			return fmt.Errorf("db: migrate down: %w", err)
		}
	}
	if err := m.Unlock(ctx); err != nil {
		return fmt.Errorf("db: unlock migrations: %w", err)
	}
	rm, err := d.riverMigrator()
	if err != nil {
		return fmt.Errorf("db: river migrator: %w", err)
	}
	// TargetVersion -1 removes every River migration, River's tables included.
	if _, err := rm.Migrate(ctx, rivermigrate.DirectionDown, &rivermigrate.MigrateOpts{TargetVersion: -1}); err != nil {
		return fmt.Errorf("db: migrate river down: %w", err)
	}
	return nil
}

// MigrationStatus describes what is applied and what is pending.
type MigrationStatus struct {
	Applied []string
	Pending []string
}

// Current reports whether nothing is pending.
func (s MigrationStatus) Current() bool { return len(s.Pending) == 0 }

// String renders the status one migration a line, for `dungji migrate status`.
func (s MigrationStatus) String() string {
	var b strings.Builder
	for _, a := range s.Applied {
		fmt.Fprintf(&b, "applied  %s\n", a)
	}
	for _, p := range s.Pending {
		fmt.Fprintf(&b, "pending  %s\n", p)
	}
	return b.String()
}

// Status lists River's and our migrations with their state. It creates
// nothing: a database never migrated reports everything pending.
func (d *DB) Status(ctx context.Context) (MigrationStatus, error) {
	var st MigrationStatus
	rm, err := d.riverMigrator()
	if err != nil {
		return st, fmt.Errorf("db: river migrator: %w", err)
	}
	res, err := rm.Validate(ctx, nil)
	if err != nil {
		return st, fmt.Errorf("db: river migration status: %w", err)
	}
	for _, msg := range res.Messages {
		st.Pending = append(st.Pending, "river: "+msg)
	}
	if res.OK {
		st.Applied = append(st.Applied, "river: all River migrations")
	}

	var exists bool
	if err := d.Bun.NewRaw("SELECT to_regclass('dungji_migrations') IS NOT NULL").Scan(ctx, &exists); err != nil {
		return st, fmt.Errorf("db: migration status: %w", err)
	}
	if !exists {
		for _, m := range Migrations().Sorted() {
			st.Pending = append(st.Pending, m.String())
		}
		return st, nil
	}
	ms, err := d.migrator().MigrationsWithStatus(ctx)
	if err != nil {
		return st, fmt.Errorf("db: migration status: %w", err)
	}
	for _, m := range ms {
		if m.IsApplied() {
			st.Applied = append(st.Applied, m.String())
		} else {
			st.Pending = append(st.Pending, m.String())
		}
	}
	return st, nil
}
