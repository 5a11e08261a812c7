package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
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
