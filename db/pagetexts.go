package db

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
	"unsafe"
)

// PageTexts are the texts of an OCR result's pages (OCRTask.PageTexts),
// read from the JSON array of strings PostgreSQL gives
// (jsonb_path_query_array). It decodes what json.Unmarshal decodes into a
// []string: a page of 100 OCR tasks spent a twentieth of its CPU in the
// reflection of encoding/json (and bun's copy for it) on these strings,
// where one pass and one buffer for all of a row's texts suffice. Anything
// but an array of valid UTF-8 strings with the escapes PostgreSQL writes
// (a \u escape of a surrogate, an invalid byte, a control character)
// is left to json.Unmarshal, so the result is always what it gives.
type PageTexts []string

// Scan implements sql.Scanner: NULL is nil, an array is its strings (an
// empty array an empty, non-nil slice).
func (p *PageTexts) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
		*p = nil
		return nil
	case []byte:
		b = v
	case string:
		b = unsafe.Slice(unsafe.StringData(v), len(v)) // read only
	default:
		return fmt.Errorf("db.PageTexts: cannot scan %T", src)
	}
	if texts, ok := decodeStrings(b); ok {
		*p = texts
		return nil
	}
	var texts []string
	if err := json.Unmarshal(b, &texts); err != nil {
		return fmt.Errorf("db.PageTexts: %w", err)
	}
	*p = texts
	return nil
}

// decodeStrings decodes a JSON array of strings, ok false for anything it
// does not take (json.Unmarshal then decides). The strings share one
// buffer, never written once they are made.
func decodeStrings(b []byte) (_ []string, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	i = skipSpace(b, i+1)
	out := []string{}
	if i < len(b) && b[i] == ']' {
		return out, skipSpace(b, i+1) == len(b)
	}
	buf := make([]byte, 0, len(b))
	var ends []int
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		i++
		for {
			// A run of plain bytes, then a quote or an escape.
			start := i
			for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
				i++
			}
			if i >= len(b) || b[i] < 0x20 || !utf8.Valid(b[start:i]) {
				return nil, false
			}
			buf = append(buf, b[start:i]...)
			if b[i] == '"' {
				i++
				break
			}
			if i+1 >= len(b) {
				return nil, false
			}
			switch c := b[i+1]; c {
			case '"', '\\', '/':
				buf = append(buf, c)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := hex4(b, i+2)
				if !ok || utf16IsSurrogate(r) {
					return nil, false
				}
				buf = utf8.AppendRune(buf, r)
				i += 4
			default:
				return nil, false
			}
			i += 2
		}
		ends = append(ends, len(buf))
		i = skipSpace(b, i)
		if i >= len(b) {
			return nil, false
		}
		if b[i] == ']' {
			if skipSpace(b, i+1) != len(b) {
				return nil, false
			}
			break
		}
		if b[i] != ',' {
			return nil, false
		}
		i = skipSpace(b, i+1)
	}
	all := unsafe.String(unsafe.SliceData(buf), len(buf))
	out = make([]string, len(ends))
	start := 0
	for k, end := range ends {
		out[k] = all[start:end]
		start = end
	}
	return out, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func utf16IsSurrogate(r rune) bool { return 0xd800 <= r && r < 0xe000 }
