package graph

import "io"

// fromStart reads an uploaded file from its start: the same file
// variable given to two fields of one request is one reader, and the
// second field found it read to its end ("the file is empty").
func fromStart(f io.ReadSeeker) io.Reader {
	_, _ = f.Seek(0, io.SeekStart) // gqlgen's are in memory or a temporary file: seekable
	return f
}
