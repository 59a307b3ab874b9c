package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/tetcore"
)

// dotVerify checks every attached file (tetcore's report for .tet files,
// the format's array.Verifier for others) and prints one summary line
// per file plus its findings. It fails when a finding is an error.
func (s *Shell) dotVerify(ctx context.Context, args []string) error {
	mode := tetcore.VerifyQuick
	if len(args) == 1 {
		if args[0] != "--deep" && args[0] != "deep" {
			return errors.New("usage: .verify [--deep]")
		}
		mode = tetcore.VerifyDeep
	}
	scs, err := s.tetSchemas(ctx, "")
	if err != nil {
		return err
	}
	if len(scs) == 0 {
		return errors.New("no .tet file attached")
	}
	bad := 0
	for _, sc := range scs {
		r, err := verifyFile(sc.path, mode, s.opt.MaxChunkBytes)
		if err != nil {
			fmt.Fprintf(s.opt.Stdout, "%s: %s: %v\n", sc.name, displayPath(sc.path), err)
			bad++
			continue
		}
		status := "ok"
		if !r.OK() {
			status = "FAILED"
			bad++
		} else if len(r.Findings) > 0 {
			status = "ok with warnings"
		}
		detail := fmt.Sprintf("%s, %s", plural(r.Datasets, "dataset"), plural(r.Chunks, "chunk"))
		if mode == tetcore.VerifyDeep {
			detail += fmt.Sprintf(", %d decoded", r.DecodedChunks)
		}
		fmt.Fprintf(s.opt.Stdout, "%s: %s: %s (%s)\n", sc.name, displayPath(sc.path), status, detail)
		for _, f := range r.Findings {
			fmt.Fprintf(s.opt.Stdout, "  %s\n", f)
		}
	}
	if bad > 0 {
		return fmt.Errorf("verify: %s failed", plural(bad, "file"))
	}
	return nil
}

// verifyFile verifies the file through the process's shared mapping
// (the one its tables use; opened read-only if it is not open yet),
// decoding no chunk above the shell's chunk size limit.
func verifyFile(path string, mode tetcore.VerifyMode, maxChunkBytes int64) (r *tetcore.Report, err error) {
	err = tetsql.UseFile(path, func(src array.Source) error {
		if f, ok := src.(*tetcore.File); ok {
			r, err = f.VerifyReportLimit(mode, maxChunkBytes)
			return err
		}
		v, ok := src.(array.Verifier)
		if !ok {
			return fmt.Errorf("verify: %s: its format cannot be verified", path)
		}
		r, err = verifyOther(src, v, mode == tetcore.VerifyDeep, maxChunkBytes)
		return err
	})
	return r, err
}

// verifyOther runs a format's own verification and reports it in the
// shape of tetcore's: a deep check decoded every chunk that has no error
// finding.
func verifyOther(src array.Source, v array.Verifier, deep bool, maxChunkBytes int64) (*tetcore.Report, error) {
	fs, err := v.Verify(deep, maxChunkBytes)
	if err != nil {
		return nil, err
	}
	r := &tetcore.Report{Datasets: len(src.Arrays())}
	for _, a := range src.Arrays() {
		r.Chunks += int(a.Info().ChunkCount())
	}
	bad := 0
	for _, f := range fs {
		r.Findings = append(r.Findings, tetcore.Finding{Severity: f.Severity, Dataset: f.Array, Chunk: f.Chunk, Message: f.Message})
		if f.Severity == "error" && f.Chunk != nil {
			bad++
		}
	}
	if deep {
		r.DecodedChunks = r.Chunks - bad
	}
	return r, nil
}

// describeSchema prints one line about an attached file: its alias,
// path and datasets; or about a glob's schema (describeGlob).
func (s *Shell) describeSchema(ctx context.Context, w io.Writer, alias string) error {
	if all, err := s.schemas(ctx); err == nil {
		for _, sc := range all {
			if strings.EqualFold(sc.name, alias) && s.describeGlob(ctx, w, sc) {
				return nil
			}
		}
	}
	scs, err := s.tetSchemas(ctx, alias)
	if err != nil || len(scs) == 0 {
		return err
	}
	var names []string
	err = s.queryRows(ctx, "SELECT name FROM "+quoteIdent(scs[0].name)+".tet_datasets", func(v []any) error {
		names = append(names, quoteIfNeeded(str(v[0])))
		return nil
	})
	if err != nil {
		return err
	}
	list := strings.Join(names, ", ")
	if len(names) > 6 {
		list = strings.Join(names[:5], ", ") + ", …"
	}
	fmt.Fprintf(w, "%s: %s — %s: %s\n", scs[0].name, displayPath(scs[0].path), plural(len(names), "dataset"), list)
	return nil
}

// Greet prints the interactive banner to w: version, the attached files
// and a hint.
func (s *Shell) Greet(ctx context.Context, w io.Writer, version string) error {
	fmt.Fprintf(w, "tetsql %s — SQL over .tet tensor files\n", version)
	all, err := s.schemas(ctx)
	if err != nil {
		return err
	}
	n := 0
	for _, sc := range all {
		if !sc.tet && !s.describeGlob(ctx, w, sc) {
			continue
		}
		n++
		if sc.tet {
			if err := s.describeSchema(ctx, w, sc.name); err != nil {
				return err
			}
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "No file attached: .open FILE.tet attaches one.")
	}
	fmt.Fprintln(w, `Enter ".help" for usage hints, ".datasets" for the catalog. End statements with ';'.`)
	return nil
}
