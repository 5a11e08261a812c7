package graph

import (
	"context"
	"errors"

	"github.com/vikstrous/dataloadgen"

	"github.com/dungji/dungji/graph/model"
	"github.com/dungji/dungji/jobs/core"
)

// nodes answers Query.node and Query.nodes: the object of each id the
// caller may see, nil for any other id. The caller's own user id is its
// User; any other id must be a UUID (BAD_USER_INPUT otherwise, as a
// malformed id is everywhere), and is looked for in every table at once
// through the response's node loader, so that the node fields of one
// request share one lookup.
func (r *Resolver) nodes(ctx context.Context, ids []string, field string) ([]model.Node, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	if len(ids) > core.MaxNodes {
		return nil, core.InvalidInput(field, "at most %d ids can be asked for at once", core.MaxNodes)
	}
	out := make([]model.Node, len(ids))
	var rowIDs []string
	var at []int
	for i, id := range ids {
		if id == actor.UserID {
			out[i] = &model.User{ID: actor.UserID, Admin: actor.Admin}
			continue
		}
		canonical, err := core.ParseID(field, id)
		if err != nil {
			if field == "ids" {
				return nil, core.InvalidInput(field, "ids[%d] is not a valid id", i)
			}
			return nil, err
		}
		rowIDs = append(rowIDs, canonical)
		at = append(at, i)
	}
	if len(rowIDs) == 0 {
		return out, nil
	}
	rows, err := r.loadersOf(ctx).node.LoadAll(ctx, rowIDs)
	if err != nil {
		// The batch's one error, not a copy per id.
		var each dataloadgen.ErrorSlice
		if errors.As(err, &each) {
			for _, e := range each {
				if e != nil {
					return nil, e
				}
			}
		}
		return nil, err
	}
	for k, row := range rows {
		out[at[k]] = row
	}
	return out, nil
}
