package watcher

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/watch"
)

// WatchInput is what a tenant sets; dates are YYYY-MM-DD.
type WatchInput struct {
	ContractDate, BalanceDate, MoveInDate *string
	EveryDays                             *int
	Until                                 *string
}

// NestWatch is a nest's watch with its schedule.
type NestWatch struct {
	Watch  *db.Watch
	Checks []*db.WatchCheck
}

// WatchBudget is a user's scheduled issuances in one month, and their
// checks of uploaded copies (VerifyCopy) that bought a document.
type WatchBudget struct {
	Month string // YYYY-MM, Seoul
	Limit int
	Used  int
	// VerificationLimit is VerificationsPerMonth; VerificationsUsed the
	// month's checks that started an issuance and were not refused as paid
	// already.
	VerificationLimit int
	VerificationsUsed int
}

// VerificationsRemaining is how many checks of copies the month has left.
func (b *WatchBudget) VerificationsRemaining() int {
	return max(b.VerificationLimit-b.VerificationsUsed, 0)
}

func watchInputError(err error) error {
	var ie *watch.InputError
	if errors.As(err, &ie) {
		e := core.InvalidInput("input."+ie.Field, "%s", ie.Message)
		if ie.Past {
			e.Code = core.CodeDateInPast
		}
		if ie.Field == "input" {
			e.Field = "input"
		}
		return e
	}
	return err
}

// SetWatch sets (or replaces) the dates of a nest's watch: its scheduled
// checks not yet run are cancelled and the new ones scheduled, in one
// transaction. A past date is DATE_IN_PAST; more checks in a month than the
// owner's budget allows is BUDGET_EXCEEDED; either changes nothing.
func (s *Watcher) SetWatch(ctx context.Context, nestID string, in WatchInput) (*NestWatch, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	var d watch.Dates
	parse := func(field string, v *string) (*time.Time, error) {
		if v == nil {
			return nil, nil
		}
		t, err := watch.ParseDate(field, *v)
		if err != nil {
			return nil, watchInputError(err)
		}
		return &t, nil
	}
	if d.Contract, err = parse("contractDate", in.ContractDate); err != nil {
		return nil, err
	}
	if d.Balance, err = parse("balanceDate", in.BalanceDate); err != nil {
		return nil, err
	}
	if d.MoveIn, err = parse("moveInDate", in.MoveInDate); err != nil {
		return nil, err
	}
	if d.Until, err = parse("until", in.Until); err != nil {
		return nil, err
	}
	if in.EveryDays != nil {
		if *in.EveryDays <= 0 {
			return nil, core.InvalidInput("input.everyDays", "everyDays must be between 1 and %d", watch.MaxEveryDays)
		}
		d.EveryDays = *in.EveryDays
	}
	now := s.Clock()
	plan, err := watch.Plan(d, now)
	if err != nil {
		return nil, watchInputError(err)
	}
	if s.River == nil {
		return nil, core.Internal("set watch", errors.New("no River client"))
	}
	out := &NestWatch{}
	err = s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		nest, err := s.OwnNest(ctx, tx, actor, nestID, true)
		if err != nil {
			return err
		}
		if !actor.Admin && nest.OwnerID != actor.UserID {
			return core.Errorf(core.CodeForbidden, "this nest belongs to another user")
		}
		// Serialize a user's watch changes: the budget is counted over all
		// their nests.
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext('dungji_watch_budget'), hashtext(?))", nest.OwnerID); err != nil {
			return core.Internal("lock watch budget", err)
		}
		if err := s.cancelChecks(ctx, tx, nest.ID, now); err != nil {
			return err
		}
		cfg := s.WatchCfg()
		perMonth := map[string]int{}
		for _, p := range plan {
			perMonth[p.RunAt.In(watch.Seoul).Format("2006-01")]++
		}
		for month, n := range perMonth {
			used, err := s.budgetUsed(ctx, tx, nest.OwnerID, month)
			if err != nil {
				return err
			}
			if used+n > cfg.MonthlyBudget {
				return &core.Error{Code: core.CodeBudgetExceeded, Field: "input", Message: fmt.Sprintf(
					"%s: %d scheduled issuances already, %d more would exceed the monthly budget of %d", month, used, n, cfg.MonthlyBudget)}
			}
		}
		w := &db.Watch{NestID: nest.ID, OwnerID: nest.OwnerID, ContractDate: d.Contract, BalanceDate: d.Balance, MoveInDate: d.MoveIn,
			UntilDate: d.Until, CreatedAt: now, UpdatedAt: now}
		if d.EveryDays > 0 {
			w.EveryDays = &d.EveryDays
		}
		if _, err := tx.NewInsert().Model(w).On("CONFLICT (nest_id) DO UPDATE").
			Set("contract_date = EXCLUDED.contract_date, balance_date = EXCLUDED.balance_date, move_in_date = EXCLUDED.move_in_date").
			Set("every_days = EXCLUDED.every_days, until_date = EXCLUDED.until_date, updated_at = EXCLUDED.updated_at").
			Returning("*").Exec(ctx); err != nil {
			return core.Internal("save watch", err)
		}
		out.Watch = w
		for _, p := range plan {
			c := &db.WatchCheck{ID: core.NewID(), NestID: nest.ID, OwnerID: nest.OwnerID, Purpose: string(p.Purpose), CheckDate: p.Date,
				RunAt: p.RunAt, Status: db.CheckScheduled, CreatedAt: now, UpdatedAt: now}
			// River runs jobs by the wall clock; the wait is measured on
			// the service's clock (the same one but in tests).
			job, err := s.River.InsertTx(ctx, tx.Tx, core.WatchCheckArgs{CheckID: c.ID}, &river.InsertOpts{
				Queue: core.QueueWatch, ScheduledAt: time.Now().Add(p.RunAt.Sub(now)), MaxAttempts: 10})
			if err != nil {
				return core.Internal("schedule watch check", err)
			}
			c.JobID = &job.Job.ID
			if _, err := tx.NewInsert().Model(c).Exec(ctx); err != nil {
				return core.Internal("save watch check", err)
			}
			out.Checks = append(out.Checks, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// cancelChecks cancels a nest's checks that have not run, and their jobs.
func (s *Watcher) cancelChecks(ctx context.Context, tx bun.Tx, nestID string, now time.Time) error {
	var pending []*db.WatchCheck
	if err := tx.NewSelect().Model(&pending).Where("nest_id = ? AND status = ?", nestID, db.CheckScheduled).For("UPDATE").Scan(ctx); err != nil {
		return core.Internal("load scheduled checks", err)
	}
	for _, c := range pending {
		if c.JobID != nil {
			if _, err := s.River.JobCancelTx(ctx, tx.Tx, *c.JobID); err != nil && !errors.Is(err, river.ErrNotFound) {
				return core.Internal("cancel watch check job", err)
			}
		}
	}
	if len(pending) > 0 {
		if _, err := tx.NewUpdate().Model((*db.WatchCheck)(nil)).Set("status = ?, updated_at = ?", db.CheckCancelled, now).
			Where("nest_id = ? AND status = ?", nestID, db.CheckScheduled).Exec(ctx); err != nil {
			return core.Internal("cancel watch checks", err)
		}
		// The history keeps the newest cancelled checks only: a client that
		// resets its watch in a loop must not grow the nest's list (and its
		// rows) without bound. A deleted check's job, if it still ran, finds
		// no row and cancels itself.
		if _, err := tx.NewDelete().Model((*db.WatchCheck)(nil)).Where("nest_id = ? AND status = ?", nestID, db.CheckCancelled).
			Where("id NOT IN (SELECT id FROM watch_checks WHERE nest_id = ? AND status = ? ORDER BY updated_at DESC, id DESC LIMIT ?)",
				nestID, db.CheckCancelled, keptCancelledChecks).Exec(ctx); err != nil {
			return core.Internal("prune cancelled watch checks", err)
		}
	}
	return nil
}

// keptCancelledChecks is how many cancelled checks a nest's history keeps.
const keptCancelledChecks = 20

// CancelWatch cancels a nest's watch: its checks not yet run are cancelled
// (kept in the history as CANCELLED) and its dates removed.
func (s *Watcher) CancelWatch(ctx context.Context, nestID string) (*NestWatch, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	err = s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		nest, err := s.OwnNest(ctx, tx, actor, nestID, true)
		if err != nil {
			return err
		}
		if err := s.cancelChecks(ctx, tx, nest.ID, s.Clock()); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*db.Watch)(nil)).Where("nest_id = ?", nest.ID).Exec(ctx); err != nil {
			return core.Internal("delete watch", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.NestWatch(ctx, nestID)
}

// NestWatch returns a nest's watch (nil Watch when none is set) and its
// checks, oldest first (cancelled ones included).
func (s *Watcher) NestWatch(ctx context.Context, nestID string) (*NestWatch, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	nest, err := s.VisibleNest(ctx, s.DB.Bun, actor, nestID, false)
	if err != nil {
		return nil, err
	}
	out := &NestWatch{}
	w := new(db.Watch)
	switch err := s.DB.Bun.NewSelect().Model(w).Where("nest_id = ?", nest.ID).Scan(ctx); {
	case db.ErrNoRows(err):
	case err != nil:
		return nil, core.Internal("load watch", err)
	default:
		out.Watch = w
	}
	if err := s.DB.Bun.NewSelect().Model(&out.Checks).Where("nest_id = ?", nest.ID).OrderExpr("run_at, id").Limit(200).Scan(ctx); err != nil {
		return nil, core.Internal("load watch checks", err)
	}
	return out, nil
}

// budgetUsed counts a user's scheduled or run checks in a month (YYYY-MM,
// Seoul).
func (s *Watcher) budgetUsed(ctx context.Context, idb bun.IDB, owner, month string) (int, error) {
	start, err := time.ParseInLocation("2006-01", month, watch.Seoul)
	if err != nil {
		return 0, core.Internal("budget month", err)
	}
	n, err := idb.NewSelect().Model((*db.WatchCheck)(nil)).
		Where("owner_id = ? AND status IN (?) AND run_at >= ? AND run_at < ?", owner,
			bun.In([]string{db.CheckScheduled, db.CheckRequested}), start.UTC(), start.AddDate(0, 1, 0).UTC()).Count(ctx)
	if err != nil {
		return 0, core.Internal("count watch budget", err)
	}
	return int(n), nil
}

// WatchBudget returns the caller's budget for a month (YYYY-MM; nil is the
// current month in Seoul).
func (s *Watcher) WatchBudget(ctx context.Context, month *string) (*WatchBudget, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	m := s.Clock().In(watch.Seoul).Format("2006-01")
	if month != nil {
		// Years PostgreSQL and a Seoul offset both hold: 0000-01 in Seoul is
		// a UTC instant of year -1, which PostgreSQL refused as an error 500.
		t, err := time.Parse("2006-01", *month)
		if err != nil {
			// A month is 7 characters: what is sent is said back up to 16
			// (a 60 KB one came back whole).
			shown := *month
			if r := []rune(shown); len(r) > 16 {
				shown = string(r[:16]) + "…"
			}
			return nil, core.InvalidInput("month", "%q is not a month: use YYYY-MM", shown)
		}
		if t.Year() < 1970 {
			return nil, core.InvalidInput("month", "%q is out of range: months from 1970-01 to 9999-12", *month)
		}
		m = *month
	}
	used, err := s.budgetUsed(ctx, s.DB.Bun, actor.UserID, m)
	if err != nil {
		return nil, err
	}
	start, err := time.ParseInLocation("2006-01", m, watch.Seoul)
	if err != nil {
		return nil, core.Internal("budget month", err)
	}
	verified, err := s.verificationsUsed(ctx, s.DB.Bun, actor.UserID, start)
	if err != nil {
		return nil, err
	}
	return &WatchBudget{Month: m, Limit: s.WatchCfg().MonthlyBudget, Used: used, VerificationLimit: VerificationsPerMonth, VerificationsUsed: verified}, nil
}

// WatchCheckWorker runs a scheduled check: it requests an issuance for the
// nest as its owner, through RequestIssuance, so the nest's active task is
// reused (one active task per nest, never paid twice). A retry of this job
// finds that task and reuses it too.
type WatchCheckWorker struct {
	river.WorkerDefaults[core.WatchCheckArgs]
	svc *Watcher
}

// Work implements river.Worker.
func (w *WatchCheckWorker) Work(ctx context.Context, job *river.Job[core.WatchCheckArgs]) error {
	s := w.svc
	c := new(db.WatchCheck)
	if err := s.DB.Bun.NewSelect().Model(c).Where("id = ?", job.Args.CheckID).Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return river.JobCancel(fmt.Errorf("watch check %s is gone", job.Args.CheckID))
		}
		return err
	}
	if c.Status != db.CheckScheduled && c.Status != db.CheckRequested {
		return nil // cancelled meanwhile
	}
	res, err := s.issuances.RequestIssuance(core.WithActor(ctx, core.Actor{UserID: c.OwnerID}), c.NestID)
	now := s.Clock()
	if err != nil {
		e := core.AsError(err)
		switch e.Code {
		case core.CodeNotFound, core.CodeForbidden:
			msg := e.Message
			_, uerr := s.DB.Bun.NewUpdate().Model(c).Set("status = ?, note = ?, updated_at = ?", db.CheckFailed, msg, now).
				Where("id = ? AND status = ?", c.ID, db.CheckScheduled).Exec(ctx)
			if uerr != nil {
				return uerr
			}
			return river.JobCancel(err)
		}
		return err // RATE_LIMITED, UNAVAILABLE, INTERNAL: River retries
	}
	note := "issuance requested"
	if res.Reused {
		note = "the nest's active issuance was reused"
	}
	_, err = s.DB.Bun.NewUpdate().Model(c).Set("status = ?, issuance_task_id = ?, note = ?, updated_at = ?",
		db.CheckRequested, res.Task.ID, note, now).Where("id = ? AND status = ?", c.ID, db.CheckScheduled).Exec(ctx)
	return err
}
