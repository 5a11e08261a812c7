package core

import (
	"context"
	"time"
)

// Actor is the authenticated caller of a lifecycle method.
type Actor struct {
	UserID string
	Admin  bool
	// Expires is when the credentials that named this actor stop being
	// valid (a token's exp); zero when they do not expire. Long-lived
	// streams end at this instant.
	Expires time.Time
}

// ExpiredAt reports whether the actor's credentials are no longer valid at now.
func (a Actor) ExpiredAt(now time.Time) bool { return !a.Expires.IsZero() && !now.Before(a.Expires) }

type actorKey struct{}

type authFailureKey struct{}

// WithAuthFailure records in ctx why presented credentials were refused, so
// that an operation needing a user can say so instead of "authentication
// required".
func WithAuthFailure(ctx context.Context, reason string) context.Context {
	return context.WithValue(ctx, authFailureKey{}, reason)
}

// AuthFailure returns why the credentials presented with ctx's request
// were refused, or "" when none were presented or they were accepted.
func AuthFailure(ctx context.Context) string {
	reason, _ := ctx.Value(authFailureKey{}).(string)
	return reason
}

// WithActor returns a context carrying a.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the caller in ctx, if any.
func ActorFrom(ctx context.Context) (Actor, bool) {
	a, ok := ctx.Value(actorKey{}).(Actor)
	return a, ok && a.UserID != ""
}

// RequireActor returns the caller in ctx or an UNAUTHENTICATED error.
func RequireActor(ctx context.Context) (Actor, error) {
	a, ok := ActorFrom(ctx)
	if !ok {
		if reason := AuthFailure(ctx); reason != "" {
			return Actor{}, Errorf(CodeUnauthenticated, "invalid credentials: %s", reason)
		}
		return Actor{}, Errorf(CodeUnauthenticated, "authentication required")
	}
	return a, nil
}

// CanSee reports whether a may read a resource owned by owner: its owner,
// or an admin (admins read all).
func (a Actor) CanSee(owner string) bool { return a.Admin || a.UserID == owner }

// CanChange reports whether a may change a resource owned by owner, or
// spend on it: only its owner. An admin reads a user's nest, alerts and
// endpoints but does not set their watch, buy their documents, upload to
// them, acknowledge their alerts or take their webhook secrets.
func (a Actor) CanChange(owner string) bool { return a.UserID == owner }
