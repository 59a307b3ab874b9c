package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// The command line is read in the manner of sqlite3 and DuckDB, whose
// options have one dash or two alike (-csv, --csv), with tetsql's long
// flags beside them: every argument that starts with a dash before "--"
// is one flag, looked up by its whole name. A single dash and one
// letter is a short flag (-c, -f, -o, -h); a single dash and a longer
// word is a long flag, never a cluster of short ones or a short flag
// with its value attached (pflag would read -csv as -c sv and -batch as
// -b atch). An argument that starts with a dash, holds white space
// anywhere and whose name (before any "=") is no flag tetsql or the
// shells know ("-- a comment\nSELECT 1", "--note=x\nSELECT 5") is the
// SQL argument, not a flag; --null="a b" stays a flag.

// noDashValue are the flags whose value never starts with a dash: when
// the argument after one is a flag, its value was left out.
var noDashValue = map[string]bool{
	"mode": true, "compression": true, "on-error": true, "partition-by": true,
	"max-chunk-bytes": true, "cache-budget": true, "mem-limit": true, "read-ahead": true,
	"read-ahead-bytes": true, "statement-timeout": true, "max-rows": true, "output": true,
}

// normalizeArgs returns args as pflag reads them: each flag as --name
// or --name=VALUE (a shell option replaced by the tetsql flag it stands
// for), then "--" and the positional arguments in their order. An
// unknown or refused flag, or one without its value, is a usage error
// in tetsql's words.
func normalizeArgs(fs *pflag.FlagSet, args []string) ([]string, error) {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if !isFlagArg(fs, a) {
			rest = append(rest, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "--") && len(name) == 1 {
			return nil, unknownFlag(fs, a) // --c: short flags take one dash
		}
		f := fs.Lookup(name)
		if f == nil && len(name) == 1 && !strings.HasPrefix(a, "--") {
			f = fs.ShorthandLookup(name)
		}
		var long []string // the tetsql flag, without its value
		takesValue := false
		switch sf, ok := shellFlags[name]; {
		case f != nil:
			long, takesValue = []string{"--" + f.Name}, f.NoOptDefVal == ""
		case ok && sf.why != "":
			return nil, fmt.Errorf("%s: %s", a, sf.why)
		case ok:
			long, takesValue = append([]string(nil), sf.args...), sf.value
		default:
			return nil, unknownFlag(fs, a)
		}
		if f == nil && !takesValue && hasValue && len(long) == 1 && strings.Contains(long[0], "=") {
			// A mode option with a value (-line=true, -tabs=false), as
			// -csv=true: on, or no effect.
			on, err := strconv.ParseBool(value)
			if err != nil {
				return nil, fmt.Errorf("%s %q: want true or false", strings.SplitN(a, "=", 2)[0], value)
			}
			if on {
				flags = append(flags, long...)
			}
			continue
		}
		if !takesValue || hasValue {
			if hasValue && len(long) > 0 {
				long[len(long)-1] += "=" + value
			}
			flags = append(flags, long...)
			continue
		}
		if i+1 == len(args) {
			return nil, fmt.Errorf("%s needs a value", a)
		}
		v := args[i+1]
		if f != nil && noDashValue[f.Name] && isFlagArg(fs, v) && !startsNumber(v) {
			return nil, fmt.Errorf("%s needs a value, not the flag %s", a, v)
		}
		i++
		flags = append(flags, long[:len(long)-1]...)
		flags = append(flags, long[len(long)-1]+"="+v)
	}
	for i, f := range flags {
		flags[i] = lastWins(f)
	}
	return append(append(flags, "--"), rest...), nil
}

// lastWins spells --csv and --json as --mode, and --no-header as
// --header, so that of several mode or header flags the last one
// counts, as in sqlite3 (-csv -json is json, -header -noheader no
// header). A value that is not a bool is left for pflag to refuse.
func lastWins(flag string) string {
	name, value, hasValue := strings.Cut(flag, "=")
	on := true
	if hasValue {
		b, err := strconv.ParseBool(value)
		if err != nil {
			return flag
		}
		on = b
	}
	switch name {
	case "--csv", "--json":
		if !on {
			return name + "=false" // no effect
		}
		return "--mode=" + name[2:]
	case "--no-header":
		return "--header=" + strconv.FormatBool(!on)
	}
	return flag
}

// isFlagArg tells a flag from a positional argument: "-" (standard
// input) is positional, and so is an argument with white space unless
// its name is a known flag's (SQL starting with a comment, even one
// holding "="); --command="SELECT 1" is a flag.
func isFlagArg(fs *pflag.FlagSet, a string) bool {
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	if !strings.ContainsAny(a, " \t\r\n\f\v") {
		return true
	}
	before, _, _ := strings.Cut(a, "=")
	return knownFlag(fs, strings.TrimLeft(before, "-"))
}

// knownFlag reports whether name (without dashes) is a flag of tetsql,
// a shorthand of one, or an option of sqlite3 or DuckDB, taken or
// refused.
func knownFlag(fs *pflag.FlagSet, name string) bool {
	if name == "" {
		return false
	}
	if _, ok := shellFlags[name]; ok {
		return true
	}
	return fs.Lookup(name) != nil || (len(name) == 1 && fs.ShorthandLookup(name) != nil)
}

// startsNumber reports whether a, an argument starting with a dash, is
// a negative number rather than a flag ("-5").
func startsNumber(a string) bool {
	return len(a) > 1 && a[1] >= '0' && a[1] <= '9'
}

// unknownFlag is the error of a flag neither tetsql nor the shells it
// mimics know, offering close flag names.
func unknownFlag(fs *pflag.FlagSet, a string) error {
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, "--"+f.Name) })
	for name, sf := range shellFlags {
		if sf.why == "" && len(name) > 1 {
			names = append(names, "-"+name)
		}
	}
	// Map order is random: the nearest come first, ties in name order.
	slices.Sort(names)
	return errors.New("unknown flag " + a + repl.DidYouMean(a, names))
}

// flagWants says what a flag's value should be, for the error of a
// value pflag cannot parse.
var flagWants = map[string]string{
	"max-rows":   "a number of rows (0 = any)",
	"read-ahead": "a number of chunks from 0 to 64 (0 = off)",
}

// flagError words pflag's error of a value it cannot parse as tetsql
// does ("--max-rows \"abc\": want a number of rows (0 = any)"), not as
// strconv does.
func flagError(err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return err
	}
	f := iv.GetFlag()
	want, ok := flagWants[f.Name]
	switch {
	case ok:
	case f.Value.Type() == "bool":
		want = "true or false"
	default:
		return fmt.Errorf("--%s %q: %s", f.Name, iv.GetValue(), repl.Message(errors.Unwrap(err)))
	}
	return fmt.Errorf("--%s %q: want %s", f.Name, iv.GetValue(), want)
}
