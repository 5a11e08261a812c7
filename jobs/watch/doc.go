// Package watch holds the pure rules of the registry watch: when the
// scheduled checks of a nest run (Schedule) and what changed between two
// reads of its registry (Compare). Nothing here touches the database, the
// clock or the network; jobs/watch*.go persists and schedules what these
// functions decide.
//
// Why it exists: the classic deposit fraud happens between signing a lease
// and moving in. The landlord registers a new 근저당 or a creditor a 가압류
// after the tenant read the registry and before the tenant's 전입신고 takes
// effect (the day after moving in, at 0 시). A watch re-issues the registry
// on the dates that matter and compares every complete read with the
// previous complete read of the same nest.
//
// The one rule that matters most: a read that is not COMPLETE (see
// analysis.Judge) never yields "no change". It yields COULD_NOT_VERIFY with
// the verdict's reasons, because a 가압류 that was not read is not absent.
//
// Matching: entries of two reads are matched by section (갑구, 을구) and
// 순위번호. A registry never reuses a rank: a new right gets the next rank,
// a cancellation marks its target and adds a 말소 entry of its own, and a
// change of an amount is a 부기등기 ranked N-1 under its entry. So an entry
// at a rank the previous read did not have is new, a live entry now marked
// cancelled was cancelled, and a 부기 with an amount changes its parent's.
//
// Scheduling (Plan): Korea keeps no daylight saving time, so Seoul is a
// fixed UTC+9 zone. A check runs at 09:00 in Seoul on its date; the move-in
// date also gets a check the next morning, when the 전입신고 has taken
// effect. Inputs are bounded (dates at most 366 days ahead, every N days
// with N in 1–90, 40 checks per watch) so that no input schedules
// unbounded work.
package watch
