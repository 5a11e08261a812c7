// Package hub is the subscription capability: the Hub that receives
// committed events from db.EventTail and hands each subscriber the latest
// state of what it follows through a mailbox it pulls from (Feed), and the
// Subscribe… methods (an issuance or OCR task, a nest's tasks, alerts) that
// register subscribers after checking the caller may see what they follow.
//
// Writers never push: a slow client costs memory for one state, not a
// queue, and never stalls another.
//
// It imports jobs/core (the Core's database, the actor and the
// ownership-checked task readers) and db; no other capability.
package hub
