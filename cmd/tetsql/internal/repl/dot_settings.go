package repl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// onOff parses the argument of .headers, .timer and .stats.
func onOff(cmd, arg string) (bool, error) {
	switch strings.ToLower(arg) {
	case "on", "yes", "true", "1":
		return true, nil
	case "off", "no", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("usage: .%s on|off (got %q)", cmd, arg)
}

func (s *Shell) dotMode(_ context.Context, args []string) error {
	if len(args) == 0 {
		names := make([]string, 0, 8)
		for _, m := range output.Modes() {
			names = append(names, m.String())
		}
		names = append(names, output.Parquet.String(), output.Arrow.String())
		how := "default"
		switch {
		case s.userMode(s.out):
			how = "set"
		case s.out != nil && s.out.fromExt:
			how = "from the extension of " + s.out.path
		}
		fmt.Fprintf(s.opt.Stdout, "current output mode: %s (%s); available: %s\n", s.currentMode(), how, strings.Join(names, " "))
		return nil
	}
	m, err := output.ParseMode(args[0])
	if err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "output: "))
	}
	s.mode, s.modeSet, s.flagMode = m, true, false
	for _, k := range []*sink{s.out, s.once} { // chosen for the current output too
		if k != nil {
			k.modeSet = true
		}
	}
	return nil
}

func (s *Shell) dotHeaders(_ context.Context, args []string) (err error) {
	s.header, err = onOff("headers", args[0])
	return err
}

func (s *Shell) dotTimer(_ context.Context, args []string) (err error) {
	s.timer, err = onOff("timer", args[0])
	return err
}

func (s *Shell) dotStats(_ context.Context, args []string) (err error) {
	s.stats, err = onOff("stats", args[0])
	return err
}

func (s *Shell) dotNull(_ context.Context, args []string) error {
	s.null = args[0]
	return nil
}

func (s *Shell) dotOutput(_ context.Context, args []string) error {
	path := ""
	if len(args) == 1 {
		path = args[0]
	}
	return s.setOutput(path, sinkSession, true)
}

func (s *Shell) dotOnce(_ context.Context, args []string) error {
	k, err := s.openSink(args[0], sinkOnce)
	if err != nil {
		return err
	}
	if s.once != nil { // a .once no statement used: discarded
		s.closeSink(s.once, false)
	}
	s.once = k
	s.announce(k)
	return nil
}

// maxReadDepth bounds .read nesting (a script that reads itself).
const maxReadDepth = 16

func (s *Shell) dotRead(ctx context.Context, args []string) error {
	if s.depth >= maxReadDepth {
		return fmt.Errorf(".read nested more than %d deep", maxReadDepth)
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	s.depth++
	defer func() { s.depth-- }()
	return s.RunScript(ctx, f, args[0])
}

// dotOpen attaches a file: ".open FILE", ".open FILE AS alias" or
// ".open alias=FILE". Without an alias one is derived from the file
// name, with _2, _3, … added when the name is taken. A glob
// (".open 'era5/**/*.tet'") attaches every file it matches as one
// schema, named after the glob's directory unless an alias is given.
func (s *Shell) dotOpen(ctx context.Context, args []string) error {
	path, alias := args[0], ""
	switch {
	case len(args) == 3 && strings.EqualFold(args[1], "as"):
		alias = args[2]
	case len(args) != 1:
		return errors.New("usage: .open FILE [AS ALIAS]")
	default:
		fs := tetsql.SplitAlias(path)
		alias, path = fs.Alias, fs.Path
	}
	glob := tetsql.FileSpec{Path: path}.IsGlob() // its files are listed by Attach
	if _, err := os.Stat(path); err != nil && !glob {
		return err
	}
	used, err := s.schemas(ctx)
	if err != nil {
		return err
	}
	taken := map[string]bool{"main": true, "temp": true}
	for _, u := range used {
		taken[strings.ToLower(u.name)] = true
	}
	// A taken alias is refused before anything is opened: the session
	// stays as it was (SQLite's ATTACH would refuse it too).
	if alias != "" && taken[strings.ToLower(alias)] {
		return fmt.Errorf("alias %q is already in use; choose another: .open %s AS OTHER", alias, path)
	}
	if alias == "" {
		base := tetsql.DefaultAlias(path)
		if glob {
			base = tetsql.GlobAlias(path)
		}
		alias = base
		for n := 2; taken[strings.ToLower(alias)]; n++ {
			alias = fmt.Sprintf("%s_%d", base, n)
		}
	}
	err = s.conn.Raw(func(dc any) error {
		c, ok := dc.(*tetsql.Conn)
		if !ok {
			return errors.New(".open needs a tetsql connection")
		}
		return c.Attach(ctx, alias, path)
	})
	if err != nil {
		return err
	}
	if s.interact {
		return s.describeSchema(ctx, s.opt.Stdout, alias)
	}
	return nil
}

// Reassert applies again the settings of the Options the shell was made
// with that are named (mode, header, null, timer, stats, echo, bail),
// over whatever an init file set: the command line's flags win over the
// init file, as in sqlite3. Other names are ignored.
func (s *Shell) Reassert(names ...string) {
	for _, name := range names {
		switch name {
		case "mode":
			if m, err := output.ParseMode(s.opt.Mode); err == nil && s.opt.Mode != "" {
				s.mode, s.modeSet, s.flagMode = m, true, true
			}
		case "header":
			s.header = s.opt.Header
		case "null":
			s.null = s.opt.Null
		case "timer":
			s.timer = s.opt.Timer
		case "stats":
			s.stats = s.opt.Stats
		case "echo":
			s.echo = s.opt.Echo
		case "bail":
			s.bail = s.opt.Bail
		}
	}
}
