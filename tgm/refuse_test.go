package tgm

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// checkRefusals holds each file of expected.json's refuse list to an
// error mentioning one of its words. For the unsupported compressions the
// file scans, object 0 decodes and object 1 is refused; a bad hash
// scans and fails on decoding; truncated and lying files fail to scan.
func checkRefusals(t *testing.T, dir string, refuse []expectedRefuse) {
	for _, r := range refuse {
		t.Run(strings.TrimSuffix(r.File, ".tgm"), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, r.File))
			if err != nil {
				t.Fatal(err)
			}
			f, scanErr := Scan(data)
			var refused error
			switch {
			case strings.HasPrefix(r.File, "refuse_sz") || strings.HasPrefix(r.File, "refuse_zfp"):
				if scanErr != nil {
					t.Fatalf("scan: %v (the file must stay readable)", scanErr)
				}
				objs := f.Messages[0].Objects
				if len(objs) != 2 {
					t.Fatalf("%d objects, want 2", len(objs))
				}
				ok, err := objs[0].Decode(nil, 0)
				if err != nil || len(ok) != 48 || array.F64.Float64(ok, 5) != 5 {
					t.Errorf("object 0 (ok): %v, %d bytes", err, len(ok))
				}
				_, refused = objs[1].Decode(nil, 0)
				if !errors.Is(refused, array.ErrUnsupported) {
					t.Errorf("object 1: %v, want ErrUnsupported", refused)
				}
			case r.File == "refuse_badhash.tgm":
				if scanErr != nil {
					t.Fatalf("scan: %v", scanErr)
				}
				_, refused = f.Messages[0].Objects[0].Decode(nil, 0)
				if !errors.Is(refused, array.ErrCorrupt) {
					t.Errorf("decode: %v, want ErrCorrupt", refused)
				}
				if err := f.Verify(); err == nil || !strings.Contains(err.Error(), "message 0, object 0") {
					t.Errorf("Verify: %v, want a mismatch naming message 0, object 0", err)
				}
				if _, err := f.Messages[0].Objects[1].Decode(nil, 0); err != nil {
					t.Errorf("object 1 has an intact hash: %v", err)
				}
			default:
				refused = scanErr
				want := array.ErrCorrupt
				if strings.Contains(r.File, "truncated") {
					want = array.ErrTruncated
				}
				if !errors.Is(scanErr, want) {
					t.Errorf("scan: %v, want %v", scanErr, want)
				}
			}
			if refused == nil {
				t.Fatalf("no error (%s)", r.Reason)
			}
			msg := strings.ToLower(refused.Error())
			for _, w := range r.Mentions {
				if strings.Contains(msg, strings.ToLower(w)) {
					return
				}
			}
			t.Errorf("error %q mentions none of %q", refused, r.Mentions)
		})
	}
}
