package watch

import (
	"fmt"
	"slices"
	"time"
)

// Seoul is Korea Standard Time. Korea keeps no daylight saving time, so a
// fixed zone is exact and needs no tz database.
var Seoul = time.FixedZone("KST", 9*60*60)

// MorningHour is the hour (Seoul time) a check runs on its date: the
// registry office's 인터넷등기소 is open, and the day's first registrations
// are visible.
const MorningHour = 9

// Limits of a watch's input.
const (
	// MaxEveryDays bounds "every N days".
	MaxEveryDays = 90
	// MaxHorizonDays is how far ahead any date may be.
	MaxHorizonDays = 366
	// MaxChecks is the most checks one watch schedules.
	MaxChecks = 40
)

// Purpose is why a check runs on its date.
type Purpose string

// The purposes of checks.
const (
	PurposeContract    Purpose = "CONTRACT"      // the morning of the contract date
	PurposeBalance     Purpose = "BALANCE"       // the morning of the 잔금 date
	PurposeMoveIn      Purpose = "MOVE_IN"       // the morning of the 전입 date
	PurposeAfterMoveIn Purpose = "AFTER_MOVE_IN" // the day after: the 전입신고 took effect at 0 시
	PurposePeriodic    Purpose = "PERIODIC"      // every N days until a date
)

// Dates are what a tenant sets. Each is a calendar date (its clock part is
// ignored); nil is not set.
type Dates struct {
	Contract, Balance, MoveIn *time.Time
	// EveryDays, when not zero, adds a check every N days until Until.
	EveryDays int
	Until     *time.Time
}

// Planned is one check to schedule.
type Planned struct {
	Purpose Purpose
	// Date is the calendar date (midnight UTC of that date).
	Date  time.Time
	RunAt time.Time
}

// InputError is a date the watch refuses. Past marks a date before today
// (in Seoul).
type InputError struct {
	Field   string
	Past    bool
	Message string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// ParseDate reads a YYYY-MM-DD date.
func ParseDate(field, s string) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, &InputError{Field: field, Message: fmt.Sprintf("%q is not a date: use YYYY-MM-DD", s)}
	}
	return d, nil
}

// day is the calendar date of t in Seoul, as midnight UTC.
func day(t time.Time) time.Time {
	y, m, d := t.In(Seoul).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// morning is MorningHour on date d in Seoul.
func morning(d time.Time) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), MorningHour, 0, 0, 0, Seoul).UTC()
}

// Plan returns the checks of a watch set at now, in the order they run: the
// morning of each date, the day after moving in, and every EveryDays days
// from today until Until. A date before today (in Seoul) is refused; a
// check of today whose morning has passed runs at once (RunAt = now).
func Plan(d Dates, now time.Time) ([]Planned, error) {
	today := day(now)
	horizon := today.AddDate(0, 0, MaxHorizonDays)
	check := func(field string, p *time.Time) (time.Time, error) {
		if p == nil {
			return time.Time{}, nil
		}
		v := time.Date(p.Year(), p.Month(), p.Day(), 0, 0, 0, 0, time.UTC)
		if v.Before(today) {
			return v, &InputError{Field: field, Past: true,
				Message: fmt.Sprintf("%s is in the past (today is %s in Seoul)", v.Format(time.DateOnly), today.Format(time.DateOnly))}
		}
		if v.After(horizon) {
			return v, &InputError{Field: field, Message: fmt.Sprintf("%s is more than %d days ahead", v.Format(time.DateOnly), MaxHorizonDays)}
		}
		return v, nil
	}
	contract, err := check("contractDate", d.Contract)
	if err != nil {
		return nil, err
	}
	balance, err := check("balanceDate", d.Balance)
	if err != nil {
		return nil, err
	}
	moveIn, err := check("moveInDate", d.MoveIn)
	if err != nil {
		return nil, err
	}
	until, err := check("until", d.Until)
	if err != nil {
		return nil, err
	}
	if d.Contract != nil && d.Balance != nil && balance.Before(contract) {
		return nil, &InputError{Field: "balanceDate", Message: "the balance date is before the contract date"}
	}
	if d.Balance != nil && d.MoveIn != nil && moveIn.Before(balance) {
		return nil, &InputError{Field: "moveInDate", Message: "the move-in date is before the balance date"}
	}
	if d.EveryDays < 0 || d.EveryDays > MaxEveryDays {
		return nil, &InputError{Field: "everyDays", Message: fmt.Sprintf("everyDays must be between 1 and %d", MaxEveryDays)}
	}
	if d.EveryDays > 0 && d.Until == nil {
		return nil, &InputError{Field: "until", Message: "everyDays needs an until date"}
	}
	if d.EveryDays == 0 && d.Until != nil {
		return nil, &InputError{Field: "everyDays", Message: "until needs everyDays"}
	}
	if d.Contract == nil && d.Balance == nil && d.MoveIn == nil && d.EveryDays == 0 {
		return nil, &InputError{Field: "input", Message: "set at least one of contractDate, balanceDate, moveInDate, everyDays"}
	}

	var out []Planned
	taken := map[time.Time]bool{}
	add := func(p Purpose, date time.Time) {
		if taken[date] {
			return
		}
		taken[date] = true
		run := morning(date)
		if run.Before(now) {
			run = now.UTC()
		}
		out = append(out, Planned{Purpose: p, Date: date, RunAt: run})
	}
	if d.Contract != nil {
		add(PurposeContract, contract)
	}
	if d.Balance != nil {
		add(PurposeBalance, balance)
	}
	if d.MoveIn != nil {
		add(PurposeMoveIn, moveIn)
		add(PurposeAfterMoveIn, moveIn.AddDate(0, 0, 1))
	}
	if d.EveryDays > 0 {
		for date := today.AddDate(0, 0, d.EveryDays); !date.After(until); date = date.AddDate(0, 0, d.EveryDays) {
			add(PurposePeriodic, date)
			if len(out) > MaxChecks {
				break
			}
		}
	}
	if len(out) > MaxChecks {
		return nil, &InputError{Field: "everyDays", Message: fmt.Sprintf("this schedules more than %d checks; choose a larger everyDays or an earlier until", MaxChecks)}
	}
	slices.SortStableFunc(out, func(a, b Planned) int { return a.RunAt.Compare(b.RunAt) })
	return out, nil
}
