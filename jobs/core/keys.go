package core

// Batch reads: one query for many parents, for the GraphQL API's data
// loaders, so that a page of tasks with their nested fields costs a fixed
// number of statements whatever the page size. Each returns one value and
// one error per key, in the keys' order (a nil error with a nil value:
// none). The callers reached every key through an object the caller may
// see, as the single-key reads they replace assume; NestsByID checks each
// nest against the caller itself, all in the one query's result. The
// batch reads live with their rows' capability; these are their helpers.

// ValidIDs keeps the keys that are UUIDs: ids reach a batch from rows, but
// a malformed one must not fail every key with it.
func ValidIDs(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if _, err := ParseID("id", id); err == nil {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		out = append(out, "00000000-0000-0000-0000-000000000000")
	}
	return out
}

func Index[T any](rows []T, key func(T) string) map[string]T {
	m := make(map[string]T, len(rows))
	for _, r := range rows {
		m[key(r)] = r
	}
	return m
}

func ByKeys[T any](ids []string, byID map[string]*T, what string) ([]*T, []error) {
	out, errs := make([]*T, len(ids)), make([]error, len(ids))
	for i, id := range ids {
		if out[i] = byID[id]; out[i] == nil {
			errs[i] = Errorf(CodeNotFound, "%s not found", what)
		}
	}
	return out, errs
}
