package db

import (
	"context"
	"embed"
	"fmt"
	"io"

	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/uptrace/bun/migrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLockID is the advisory lock that serialises migrations across processes.
const migrationLockID = 7_421_337_001

func (d *DB) migrator() (*migrate.Migrator, error) {
	ms := migrate.NewMigrations()
	if err := ms.Discover(migrationFiles); err != nil {
		return nil, fmt.Errorf("discover migrations: %w", err)
	}
	return migrate.NewMigrator(d.DB, ms), nil
}

func (d *DB) riverMigrator() (*rivermigrate.Migrator[pgxTx], error) {
	return rivermigrate.New(riverpgxv5.New(d.Pool), nil)
}

// withMigrationLock holds a session-level advisory lock while fn runs, so two
// processes never migrate at once (the second waits).
func (d *DB) withMigrationLock(ctx context.Context, fn func() error) error {
	conn, err := d.Pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLockID); err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLockID) //nolint:errcheck
	return fn()
}

// MigrateUp applies River's migrations and then every pending migration of
// the service, under the migration lock. It writes a line per applied step to w.
func (d *DB) MigrateUp(ctx context.Context, w io.Writer) error {
	return d.withMigrationLock(ctx, func() error {
		rm, err := d.riverMigrator()
		if err != nil {
			return err
		}
		res, err := rm.Migrate(ctx, rivermigrate.DirectionUp, nil)
		if err != nil {
			return fmt.Errorf("river migrations: %w", err)
		}
		for _, v := range res.Versions {
			fmt.Fprintf(w, "applied river migration %03d %s\n", v.Version, v.Name)
		}
		m, err := d.migrator()
		if err != nil {
			return err
		}
		if err := m.Init(ctx); err != nil {
			return fmt.Errorf("init migrations table: %w", err)
		}
		group, err := m.Migrate(ctx)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		for _, mg := range group.Migrations {
			fmt.Fprintf(w, "applied %s\n", mg.String())
		}
		if group.IsZero() {
			fmt.Fprintln(w, "database is up to date")
		}
		return nil
	})
}

// MigrateDown rolls back the last group of the service's migrations. With
// all set, it rolls back every group and then River's tables too (down to
// an empty database).
func (d *DB) MigrateDown(ctx context.Context, w io.Writer, all bool) error {
	return d.withMigrationLock(ctx, func() error {
		m, err := d.migrator()
		if err != nil {
			return err
		}
		if err := m.Init(ctx); err != nil {
			return fmt.Errorf("init migrations table: %w", err)
		}
		for {
			group, err := m.Rollback(ctx)
			if err != nil {
				return fmt.Errorf("rollback: %w", err)
			}
			if group.IsZero() {
				fmt.Fprintln(w, "no migrations to roll back")
				break
			}
			for _, mg := range group.Migrations {
				fmt.Fprintf(w, "rolled back %s\n", mg.String())
			}
			if !all {
				return nil
			}
		}
		if !all {
			return nil
		}
		rm, err := d.riverMigrator()
		if err != nil {
			return err
		}
		res, err := rm.Migrate(ctx, rivermigrate.DirectionDown, &rivermigrate.MigrateOpts{TargetVersion: -1})
		if err != nil {
			return fmt.Errorf("river migrations down: %w", err)
		}
		for _, v := range res.Versions {
			fmt.Fprintf(w, "rolled back river migration %03d %s\n", v.Version, v.Name)
		}
		_, err = d.DB.ExecContext(ctx, "DROP TABLE IF EXISTS bun_migrations, bun_migration_locks")
		return err
	})
}

// MigrationStatus describes which migrations are applied.
type MigrationStatus struct {
	RiverVersion int
	RiverLatest  int
	Applied      []string
	Pending      []string
}

// MigrateStatus reports the applied and pending migrations.
func (d *DB) MigrateStatus(ctx context.Context) (MigrationStatus, error) {
	var st MigrationStatus
	rm, err := d.riverMigrator()
	if err != nil {
		return st, err
	}
	all := rm.AllVersions()
	st.RiverLatest = all[len(all)-1].Version
	if existing, err := rm.ExistingVersions(ctx); err == nil && len(existing) > 0 {
		st.RiverVersion = existing[len(existing)-1].Version
	}
	m, err := d.migrator()
	if err != nil {
		return st, err
	}
	if err := m.Init(ctx); err != nil {
		return st, err
	}
	ms, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return st, err
	}
	for _, mg := range ms {
		if mg.IsApplied() {
			st.Applied = append(st.Applied, mg.String())
		} else {
			st.Pending = append(st.Pending, mg.String())
		}
	}
	return st, nil
}
