package main

import (
	"fmt"
	"io"
	"slices"
)

// usage is what `dungji help`, `dungji -h` and `dungji --help` print (also
// after a subcommand, as in `dungji serve --help`), to stdout, exiting 0.
const usage = `Dungji tasks: the GraphQL API, the River workers, River UI and the console in one binary.

Usage:
  dungji [serve] [--role=all|api|worker]       run the service (default: serve --role=all)
  dungji migrate up|down|status                apply, roll back or list the database migrations
  dungji token --user ID [--admin] [--ttl 24h] print a signed bearer token for user ID
  dungji pg up|down                            start/stop the development PostgreSQL under DATA_DIR
  dungji ocr-engine                            run the built-in OCR engine alone (on OCR_ENGINE_ADDR)
  dungji reset                                 drop this checkout's development database and delete its
                                               state under DATA_DIR (secrets, S3 objects, cluster; not bin/)
  dungji help                                  print this help (also -h, --help)

Roles of serve:
  all     API and workers in one process (the default; what make run starts)
  api     GraphQL, REST, River UI, the console and the OCR callback; inserts jobs, works none
  worker  works the queues (issuance, OCR, the reconciler); serves only /healthz, /readyz,
          /metrics, the OCR callback and the built-in OCR engine

Configuration is read from the environment; the main variables:
  ENV           required by serve: development (embedded S3, simulated bot, built-in OCR; make run
                sets it) or production (every external part named, or serve refuses to start)
  ADDR          listen address (default 127.0.0.1:8080)
  DATA_DIR      development state: secrets, S3 objects, PostgreSQL cluster (default .data)
  DATABASE_URL  PostgreSQL; unset in development: a per-DATA_DIR database on 127.0.0.1:5432,
                or a private cluster under DATA_DIR/postgres
  LOG_LEVEL     debug, info (default), warn or error
docs/operations.md ("Configuration") lists every variable.
`

// wantsHelp reports whether args ask for the usage: help as the command, or
// -h/-help/--help anywhere before a "--".
func wantsHelp(args []string) bool {
	if len(args) > 0 && args[0] == "help" {
		return true
	}
	for _, a := range args {
		if a == "--" {
			return false
		}
		if slices.Contains([]string{"-h", "-help", "--help"}, a) {
			return true
		}
	}
	return false
}

func printUsage(w io.Writer) { fmt.Fprint(w, usage) }
