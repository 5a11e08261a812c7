package engine

import "os"

// fullCorpus reports whether the tests read every degraded copy and every
// generated document of their corpora (DUNGJI_TEST_FULL_CORPUS=1), rather
// than the copies that test the verdict hardest. make test reads the
// subset: each page is seconds of Tesseract and preprocessing on shared
// cores. make bench reads every copy of three documents
// (BenchmarkDegradedOCR) and fails on a wrong COMPLETE as the tests do.
var fullCorpus = os.Getenv("DUNGJI_TEST_FULL_CORPUS") == "1"
