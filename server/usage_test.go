package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/localpg"
)

func TestHelpPrintsTheWholeUsageAndSucceeds(t *testing.T) {
	t.Parallel()
	cases := [][]string{
		{"help"}, {"-h"}, {"--help"}, {"-help"},
		{"serve", "--help"}, {"serve", "-h"}, {"--role=worker", "-h"},
		{"migrate", "-h"}, {"token", "--help"}, {"pg", "--help"}, {"ocr-engine", "-h"}, {"reset", "-h"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			// An environment that would fail any real command: help must not
			// read it.
			env := func(k string) string { return map[string]string{"ENV": "nonsense"}[k] }
			if err := Main(context.Background(), args, env, &out, &errOut); err != nil {
				t.Fatalf("err %v, want nil (exit 0)", err)
			}
			if errOut.Len() != 0 {
				t.Errorf("stderr %q, want nothing", errOut.String())
			}
			for _, want := range []string{"dungji [serve] [--role=all|api|worker]", "dungji migrate up|down|status",
				"dungji token --user ID", "dungji pg up|down", "dungji ocr-engine", "dungji reset", "DATA_DIR", "DATABASE_URL"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("usage lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}

func TestUnknownCommandPointsAtHelp(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	err := Main(context.Background(), []string{"serv"}, func(string) string { return "" }, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), `"serv"`) || !strings.Contains(err.Error(), "--help") {
		t.Fatalf("err %v, want the unknown command named and --help suggested", err)
	}
	// A "-h" after "--" is an argument, not a request for help.
	if wantsHelp([]string{"serve", "--", "-h"}) {
		t.Fatal(`"-h" after "--" was taken for help`)
	}
}

var bannerURL = regexp.MustCompile(`http://[^\s#)]+`)

// TestDevBannerListsOnlyWhatTheRoleServes starts each role and requests
// every address its banner prints (none may be 404), and checks that what a
// role does not serve is not printed.
func TestDevBannerListsOnlyWhatTheRoleServes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		role       Role
		printed    []string // paths the banner must name
		notPrinted []string // paths it must not name
	}{
		{RoleAll, []string{"/graphql", "/graphiql", "/riverui/", "/#token=", "/healthz"}, []string{"/internal/ocr-engine/", "works no jobs"}},
		{RoleAPI, []string{"/graphql", "/graphiql", "/riverui/", "/#token=", "/healthz", "works no jobs"}, []string{"/internal/ocr-engine/"}},
		{RoleWorker, []string{"/healthz", "/readyz", "/metrics", "serves no API"}, []string{"/graphql", "/graphiql", "/riverui/", "#token=", "Dev token"}},
	}
	for _, tc := range cases {
		t.Run(string(tc.role), func(t *testing.T) {
			t.Parallel()
			a := startApp(t, map[string]string{"ROLE": string(tc.role)})
			tok := a.token(t, "dev", false)
			banner := devBanner(tc.role, a.base, a.riverUIUser, a.riverUIPassword, tok)
			for _, p := range tc.printed {
				if !strings.Contains(banner, p) {
					t.Errorf("banner lacks %q:\n%s", p, banner)
				}
			}
			for _, p := range tc.notPrinted {
				if strings.Contains(banner, p) {
					t.Errorf("banner names %q, which role %s does not serve:\n%s", p, tc.role, banner)
				}
				if strings.HasPrefix(p, "/") && !strings.Contains(p, "ocr-engine") {
					resp, _ := a.do(t, getRequest(t, a.base+p))
					if resp.StatusCode != http.StatusNotFound {
						t.Errorf("%s answered %d on role %s; the banner leaves it out, so it should be 404", p, resp.StatusCode, tc.role)
					}
				}
			}
			urls := bannerURL.FindAllString(banner, -1)
			if len(urls) == 0 {
				t.Fatalf("no address in the banner:\n%s", banner)
			}
			for _, u := range urls {
				resp, _ := a.do(t, getRequest(t, u))
				if resp.StatusCode == http.StatusNotFound {
					t.Errorf("the banner of role %s prints %s, which answers 404", tc.role, u)
				}
			}
		})
	}
}

func getRequest(t *testing.T, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func TestDevDatabaseNameIsPerCheckout(t *testing.T) {
	t.Parallel()
	ident := regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)
	cases := []struct {
		dataDir string
		prefix  string
	}{
		{"/home/ana/dungji/.data", "dungji_dungji_"},
		{"/work/wt20/.data", "dungji_wt20_"},
		{"/work/main/.data", "dungji_main_"},
		{"/srv/Dungji Tasks (copy)/.data", "dungji_dungji_tasks_copy_"},
		{"/tmp/state-b", "dungji_state_b_"},
		{"/" + strings.Repeat("x", 200) + "/.data", "dungji_" + strings.Repeat("x", 40) + "_"},
		{"/.data", "dungji_"},
	}
	seen := map[string]string{}
	for _, tc := range cases {
		name := devDatabaseName(tc.dataDir)
		if !ident.MatchString(name) || !strings.HasPrefix(name, tc.prefix) {
			t.Errorf("devDatabaseName(%q) = %q, want an identifier starting %q", tc.dataDir, name, tc.prefix)
		}
		if other, ok := seen[name]; ok {
			t.Errorf("%q and %q share database %s", tc.dataDir, other, name)
		}
		seen[name] = tc.dataDir
		if again := devDatabaseName(tc.dataDir); again != name {
			t.Errorf("devDatabaseName(%q) is not stable: %q then %q", tc.dataDir, name, again)
		}
	}
}

// TestMakeHelpIsPlainWhenPiped runs `make help` with its output in a pipe:
// no colour codes, and every description starts in the same column.
func TestMakeHelpIsPlainWhenPiped(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	out, err := exec.Command("make", "-s", "--no-print-directory", "-C", "..", "help").Output()
	if err != nil {
		t.Fatalf("make help: %v", err)
	}
	if bytes.Contains(out, []byte("\x1b")) {
		t.Fatalf("make help wrote terminal escape codes into a pipe: %q", out)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	row := regexp.MustCompile(`^  ([a-z-]+) +(\S.*)$`)
	col, targets := -1, 0
	for _, l := range lines[1:] {
		m := row.FindStringSubmatchIndex(l)
		if m == nil {
			t.Fatalf("unexpected line %q", l)
		}
		targets++
		if col == -1 {
			col = m[4]
		}
		if m[4] != col {
			t.Errorf("description of %q starts at column %d, others at %d", l[m[2]:m[3]], m[4], col)
		}
	}
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if want := len(regexp.MustCompile(`(?m)^[a-zA-Z_-]+:.*## `).FindAll(mk, -1)); targets != want {
		t.Errorf("make help lists %d targets, the Makefile documents %d", targets, want)
	}
}

// TestResetForgetsTheCheckoutsState creates a checkout's development state
// on the PostgreSQL server on 127.0.0.1:5432 (as make run does), resets it,
// and checks that the database and the files under DATA_DIR are gone while
// bin/ and another checkout's database stay.
func TestResetForgetsTheCheckoutsState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, err := localpg.Ensure(ctx, localpg.Options{}) // the shared server only, never a private cluster
	if err != nil {
		t.Skipf("no PostgreSQL server on %s: %v", localpg.DefaultProbe, err)
	}
	admin, err := db.Open(ctx, srv.AdminURL, db.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	exists := func(name string) bool {
		var ok bool
		if err := admin.Bun.NewRaw("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = ?)", name).Scan(ctx, &ok); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	checkout := func() (dir string, env func(string) string) {
		dir = filepath.Join(t.TempDir(), ".data")
		return dir, func(k string) string { return map[string]string{"DATA_DIR": dir, "LOG_LEVEL": "error"}[k] }
	}
	mine, myEnv := checkout()
	other, otherEnv := checkout()
	var out, errOut bytes.Buffer
	for _, env := range []func(string) string{myEnv, otherEnv} {
		if err := Main(ctx, []string{"migrate", "up"}, env, &out, &errOut); err != nil {
			t.Fatalf("migrate up: %v\n%s", err, errOut.String())
		}
		if err := Main(ctx, []string{"token", "--user", "dev"}, env, &out, &errOut); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _ = Main(ctx, []string{"reset"}, otherEnv, io.Discard, io.Discard) })
	if err := os.MkdirAll(filepath.Join(mine, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	myDB, otherDB := devDatabaseName(mine), devDatabaseName(other)
	if myDB == otherDB || !exists(myDB) || !exists(otherDB) {
		t.Fatalf("databases %s and %s: want two, both created", myDB, otherDB)
	}

	out.Reset()
	if err := Main(ctx, []string{"reset"}, myEnv, &out, &errOut); err != nil {
		t.Fatalf("reset: %v\n%s", err, errOut.String())
	}
	if exists(myDB) {
		t.Errorf("database %s still exists after reset", myDB)
	}
	if !exists(otherDB) {
		t.Errorf("reset dropped another checkout's database %s", otherDB)
	}
	if _, err := os.Stat(filepath.Join(mine, "jwt-secret")); !os.IsNotExist(err) {
		t.Errorf("jwt-secret survived reset: %v", err)
	}
	if _, err := os.Stat(filepath.Join(mine, "bin")); err != nil {
		t.Errorf("reset removed bin/: %v", err)
	}
	if !strings.Contains(out.String(), "dropped database "+myDB) {
		t.Errorf("reset printed %q", out.String())
	}
	// Not for a configured database.
	withURL := func(k string) string {
		return map[string]string{"DATA_DIR": mine, "DATABASE_URL": srv.URL(otherDB)}[k]
	}
	if err := Main(ctx, []string{"reset"}, withURL, io.Discard, io.Discard); err == nil || !exists(otherDB) {
		t.Errorf("reset with DATABASE_URL set: err %v, database kept %v; want a refusal", err, exists(otherDB))
	}
}
