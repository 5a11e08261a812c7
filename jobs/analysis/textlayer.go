package analysis

import (
	"fmt"
	"slices"
	"unicode/utf8"
)

// A text layer is only what the PDF says its pages say. A registry office
// PDF's is exact; a copy's may be anything (a forger edits the text layer,
// and a viewer shows the image). CheckTextLayer compares what the text layer
// of a copy says with what its pages' images read as, fact by fact, and
// reports each key fact they disagree on. OCR misreads too, so a fact is
// compared only where the image's reading of it is clean: an amount read
// without a guess, a name within one syllable.

// CheckTextLayer returns the conflicts between text, a copy read from its
// text layer, and image, the same pages read from their images (nil when
// they could not be read: that is a conflict too, the text layer then
// being unchecked).
func CheckTextLayer(text, image *Registry) []Conflict {
	if text == nil {
		return nil
	}
	if image == nil {
		return []Conflict{{Code: ReasonTextLayerUnchecked, Message: "The copy's text layer could not be checked against its page images (they could not be read): what it says is taken as read, but a copy's text layer need not be what its pages show."}}
	}
	var out []Conflict
	add := func(e Entry, msg string) {
		if len(out) < 10 {
			out = append(out, Conflict{Code: ReasonTextLayerMismatch, Section: e.Section, Rank: e.Rank,
				Message: msg + " The copy's text layer is not what its pages show: it may have been altered."})
		}
	}
	for _, s := range []struct {
		text, image []Entry
	}{{text.Ownership, image.Ownership}, {text.Rights, image.Rights}} {
		imageAt := map[string]*Entry{}
		for i := range s.image {
			imageAt[s.image[i].Rank] = &s.image[i]
		}
		textAt := map[string]*Entry{}
		for i := range s.text {
			e := s.text[i]
			textAt[e.Rank] = &s.text[i]
			if !e.Live() || !keyKind(e.Kind) {
				continue
			}
			where := fmt.Sprintf("%s %s (%s)", sectionLabel(e.Section), e.Rank, e.Purpose)
			// The same entry on the image: by its 접수, else by its rank
			// when the image read no other 접수번호 there.
			im := imageAt[e.Rank]
			if i := slices.IndexFunc(s.image, func(o Entry) bool { return sameEntry(e, o) }); i >= 0 {
				im = &s.image[i]
			} else if im != nil && im.ReceiptNo > 0 && e.ReceiptNo > 0 && im.ReceiptNo != e.ReceiptNo {
				im = nil
			}
			switch {
			case im == nil:
				// Not read on the image: nothing to compare.
			case im.Kind != KindUnknown && im.Kind != e.Kind && im.Kind != KindCancellation:
				add(e, fmt.Sprintf("%s: the text layer says %s; the page image reads %s.", where, e.Purpose, im.Purpose))
			case e.Amount > 0 && im.Amount > 0 && im.Amount != e.Amount && !corrected(im, FieldAmount):
				add(e, fmt.Sprintf("%s: the text layer says %s; the page image reads %s.", where, formatWon(e.Amount), formatWon(im.Amount)))
			default:
				// Only a name the image read as a name is set against the
				// text layer's: OCR that made Latin letters of a Hangul
				// name (SEALS for 한지훈) read nothing, and said nothing of
				// the copy.
				read := slices.DeleteFunc(slices.Clone(im.Holders), func(o Party) bool { return !hangulName(o.Name) })
				for _, h := range e.Holders {
					if len(read) > 0 && !slices.ContainsFunc(read, func(o Party) bool { return NearName(o.Name, h.Name) }) {
						add(e, fmt.Sprintf("%s: the text layer names %s; the page image reads %s.", where, h.Name, read[0].Name))
						break
					}
				}
			}
		}
		// A live entry the image shows and the text layer does not show
		// live. The image's 순위번호 may be misread: an entry of the text
		// layer received on the same day as the same kind, or under the
		// same 접수번호, is the same entry.
		for _, im := range s.image {
			if !im.Live() || !keyKind(im.Kind) {
				continue
			}
			e := textAt[im.Rank]
			if same := slices.IndexFunc(s.text, func(t Entry) bool { return sameEntry(t, im) }); same >= 0 {
				e = &s.text[same]
			}
			switch {
			case e == nil:
				add(im, fmt.Sprintf("%s %s (%s) is on the page image but not in the text layer.", sectionLabel(im.Section), im.Rank, im.Purpose))
			case !e.Live() && e.Kind != KindUnknown && e.Rank == im.Rank:
				// (Under another rank, the image misread the 순위번호, and
				// the 말소 naming the entry's did not find it there.)
				add(im, fmt.Sprintf("%s %s: the page image reads a live %s; the text layer has %s, %s.", sectionLabel(im.Section), im.Rank, im.Purpose, e.Purpose, map[bool]string{true: "cancelled", false: "a 말소"}[e.Cancelled]))
			}
		}
	}
	return out
}

// sameEntry reports whether a and b, read from the text layer and the
// image, are one entry by its 접수: the same 접수번호, or the same day and
// kind.
func sameEntry(a, b Entry) bool {
	if a.ReceiptNo > 0 && a.ReceiptNo == b.ReceiptNo {
		return true
	}
	return !a.Received.IsZero() && a.Received.Equal(b.Received) && a.Kind == b.Kind
}

// keyKind reports whether entries of kind k carry a fact a tenant acts on.
func keyKind(k Kind) bool {
	switch k {
	case KindPreservation, KindTransfer, KindTrust, KindMortgage, KindJeonse, KindAmendment, KindRightTransfer:
		return true
	}
	return flagged(k)
}

// corrected reports whether e's field was not taken as read.
func corrected(e *Entry, field CorrectionField) bool {
	return slices.ContainsFunc(e.Corrections, func(c Correction) bool { return c.Field == field }) || field == FieldAmount && e.AmountUnread != ""
}

// hangulName reports whether name reads as a name: two Hangul syllables
// at least, and nothing but Hangul, spaces and the brackets and dots of a
// company's name.
func hangulName(name string) bool {
	n := 0
	for _, r := range name {
		switch {
		case r >= '가' && r <= '힣':
			n++
		case r == ' ' || r == '(' || r == ')' || r == '.' || r == '·':
		default:
			return false
		}
	}
	return n >= 2
}

// NearName reports whether a and b are one name, one syllable misread at
// most: an image's OCR misreads that much, and a forger changes more.
func NearName(a, b string) bool {
	a, b = noSpace(a), noSpace(b)
	if a == b {
		return true
	}
	if utf8.RuneCountInString(a) < 3 {
		return false
	}
	return editDistanceAtMost1([]rune(a), []rune(b))
}
