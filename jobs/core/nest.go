package core

import (
	"context"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
)

// NewNest is the input of CreateNest.
type NewNest struct {
	Title            string
	Address          string
	RegistryUniqueNo string
}

var uniqueNoPattern = regexp.MustCompile(`^(?:\d{4}-\d{4}-\d{6}|\d{14})$`)

// NormalizeUniqueNo validates a registry unique number (부동산 고유번호),
// given as 14 digits or as 1234-5678-901234, and returns its 14 digits.
// issuer.FormatUniqueNo is its inverse.
func NormalizeUniqueNo(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if !uniqueNoPattern.MatchString(s) {
		return "", false
	}
	return strings.ReplaceAll(s, "-", ""), true
}

// ParseID checks that id is a UUID as the API writes one (36 characters,
// in either case) and returns it in canonical form: the other spellings
// uuid.Parse takes ({…}, urn:uuid:…, 32 digits without dashes) are not ids
// the API ever gave out.
func ParseID(field, id string) (string, error) {
	u, err := uuid.Parse(id)
	if err != nil || len(id) != 36 {
		return "", InvalidInput(field, "%s is not a valid id", field)
	}
	return u.String(), nil
}

func NewID() string { return uuid.Must(uuid.NewV7()).String() }

// plainText reports whether s is one line of visible text: no control
// character (a newline, a bell, an escape), no line or paragraph separator
// (U+2028, U+2029), no format character (Unicode's Cf): the bidirectional
// marks, embeddings, overrides and isolates, which make a title shown
// elsewhere read other than it is ("\u202egnp.exe" shows as "exe.png"),
// and the invisible ones (zero-width space U+200B, U+FEFF, the soft
// hyphen, the tag characters), which make two titles that look alike
// differ; no private-use character, noncharacter or unpaired surrogate;
// no blank that draws nothing (the Hangul fillers, the braille blank, the
// combining grapheme joiner, U+FFFC). An emoji's joiner (U+200D between
// two symbols) and variation selector (after a symbol, a digit, # or *)
// are kept. And something must show: a letter, a digit, a mark of
// punctuation or a symbol.
func plainText(s string) bool {
	rs := []rune(s)
	visible := false
	for i, r := range rs {
		prev, next := rune(0), rune(0)
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		switch {
		case r == '\u200d':
			// The zero-width joiner joins an emoji's parts (👨‍👩‍👧,
			// 🏳️‍🌈) and nothing else.
			if !(unicode.Is(unicode.So, prev) || unicode.Is(unicode.Sk, prev) || prev == '\ufe0f') || !unicode.Is(unicode.So, next) {
				return false
			}
		case r >= '\ufe00' && r <= '\ufe0f' || r >= 0xE0100 && r <= 0xE01EF:
			// A variation selector chooses how the character before it
			// is drawn: an emoji's (❤️, 1️⃣), not a syllable's.
			if !(unicode.Is(unicode.So, prev) || unicode.Is(unicode.Sk, prev) || unicode.IsDigit(prev) || prev == '#' || prev == '*') {
				return false
			}
		case unicode.IsControl(r), r == '\u2028', r == '\u2029', unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r),
			r&0xFFFE == 0xFFFE, r >= '\ufdd0' && r <= '\ufdef',
			r == '\u115f', r == '\u1160', r == '\u3164', r == '\uffa0', r == '\u2800', r == '\u034f', r == '\ufffc',
			r >= '\u180b' && r <= '\u180f':
			return false
		case unicode.IsLetter(r), unicode.IsNumber(r), unicode.IsPunct(r), unicode.IsSymbol(r):
			visible = true
		}
	}
	return visible || s == ""
}

// CreateNest creates a nest owned by the caller.
func (s *Core) CreateNest(ctx context.Context, in NewNest) (*db.Nest, error) {
	actor, err := RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	title := strings.TrimSpace(in.Title)
	address := strings.TrimSpace(in.Address)
	switch {
	case title == "":
		return nil, InvalidInput("input.title", "title is required")
	case utf8.RuneCountInString(title) > 200:
		return nil, InvalidInput("input.title", "title is longer than 200 characters")
	case !plainText(title):
		return nil, InvalidInput("input.title", "title has a control, format or invisible character (a newline, a bidirectional mark, a zero-width space, a Hangul filler), or nothing visible: it is one line of plain text")
	case address == "":
		return nil, InvalidInput("input.address", "address is required")
	case utf8.RuneCountInString(address) > 500:
		return nil, InvalidInput("input.address", "address is longer than 500 characters")
	}
	if !plainText(address) {
		return nil, InvalidInput("input.address", "address has a control, format or invisible character (a newline, a bidirectional mark, a zero-width space, a Hangul filler), or nothing visible: it is one line of plain text")
	}
	uniqueNo, ok := NormalizeUniqueNo(in.RegistryUniqueNo)
	if !ok {
		return nil, InvalidInput("input.registryUniqueNo", "registry unique number must be 14 digits, as 1234-5678-901234 or without dashes")
	}
	n := &db.Nest{ID: NewID(), OwnerID: actor.UserID, Title: title, Address: address,
		RegistryUniqueNo: uniqueNo, CreatedAt: s.Clock()}
	if _, err := s.DB.Bun.NewInsert().Model(n).Exec(ctx); err != nil {
		return nil, Internal("create nest", err)
	}
	return n, nil
}

// Nest returns a nest the caller may see: NOT_FOUND when it does not exist,
// FORBIDDEN when it is another user's.
func (s *Core) Nest(ctx context.Context, id string) (*db.Nest, error) {
	actor, err := RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	return s.VisibleNest(ctx, s.DB.Bun, actor, id, false)
}

// visibleNest loads a nest and checks the caller may see it; with lock it is
// read FOR NO KEY UPDATE. That serializes requests for one nest like FOR
// UPDATE would, without blocking the FOR KEY SHARE that every insert
// referencing the nest (a task, an event from a worker) takes.
// The nest lookups of visibleNest, prepared (scanPrepared): every request
// that names a nest runs one.
const (
	selectNest          = "SELECT id, owner_id, title, address, registry_unique_no, created_at FROM nests WHERE id = $1"
	selectNestForUpdate = selectNest + " FOR NO KEY UPDATE"
)

func (s *Core) VisibleNest(ctx context.Context, idb bun.IDB, actor Actor, id string, lock bool) (*db.Nest, error) {
	id, err := ParseID("nestId", id)
	if err != nil {
		return nil, err
	}
	n := new(db.Nest)
	q := selectNest
	if lock {
		q = selectNestForUpdate
	}
	if err := s.ScanPrepared(ctx, idb, n, q, id); err != nil {
		if db.ErrNoRows(err) {
			return nil, Errorf(CodeNotFound, "nest not found")
		}
		return nil, Internal("load nest", err)
	}
	if !actor.CanSee(n.OwnerID) {
		return nil, Errorf(CodeForbidden, "this nest belongs to another user")
	}
	return n, nil
}

// OwnNest is VisibleNest for a change to the nest or a spend on it: only
// its owner passes (Actor.CanChange); an admin who may read it is
// FORBIDDEN too.
func (s *Core) OwnNest(ctx context.Context, idb bun.IDB, actor Actor, id string, lock bool) (*db.Nest, error) {
	n, err := s.VisibleNest(ctx, idb, actor, id, lock)
	if err != nil {
		return nil, err
	}
	if !actor.CanChange(n.OwnerID) {
		return nil, Errorf(CodeForbidden, "this nest belongs to another user: an admin may read it, not change it")
	}
	return n, nil
}

// Nests lists the caller's nests, newest first.
func (s *Core) Nests(ctx context.Context, args PageArgs) (Page[*db.Nest], error) {
	actor, err := RequireActor(ctx)
	if err != nil {
		return Page[*db.Nest]{}, err
	}
	return ListPage(ctx, s.DB.Bun, args, "list nests",
		func(n *db.Nest) string { return n.ID },
		func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("owner_id = ?", actor.UserID) })
}
