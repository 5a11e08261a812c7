// Command benchtable turns the output of `go test -v -bench` (what make
// bench runs) into one markdown table for BENCHMARKS.md: each figure beside
// its baseline from the same run, under a header naming the date, the
// commit, the machine, the Go and PostgreSQL versions and the settings.
//
//	go test -v -run '^$' -bench . -benchtime 1x ./... | go run ./server/cmd/benchtable -db "$TEST_DATABASE_URL"
//	go run ./server/cmd/benchtable .data/bench/raw.txt
//
// It reads standard input, or the files named. A figure the output lacks is
// never left blank: its cell says why (skipped and the benchmark's reason,
// failed, its package did not build, not in the output), and results no row
// shows are listed under the table. -v matters: without it go test prints
// nothing for a skipped benchmark.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	dbURL := flag.String("db", os.Getenv("TEST_DATABASE_URL"), "PostgreSQL URL the benchmarks ran against, for its version")
	source := flag.String("source", "", "where the raw output is kept, named in the header")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: benchtable [-db URL] [-source PATH] [file ...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := tabulate(*dbURL, *source, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func tabulate(dbURL, source string, files []string) error {
	var in io.Reader = os.Stdin
	if len(files) > 0 {
		readers := make([]io.Reader, len(files))
		for i, name := range files {
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			defer f.Close()
			readers[i] = f
		}
		in = io.MultiReader(readers...)
		if source == "" && len(files) == 1 {
			source = files[0]
		}
	}
	r, err := parse(in)
	if err != nil {
		return err
	}
	m := probe(context.Background(), r, dbURL, os.Getenv)
	m.Source = source
	rows, unplaced := build(r, m.Cores)
	return write(os.Stdout, m, rows, unplaced)
}
