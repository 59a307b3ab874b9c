package tetsql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/array"
)

// TestTgmSQL_messagePushdown: a condition on the message axis of
// many.tgm (12 messages, one object per chunk) decodes only the
// selected messages' objects.
func TestTgmSQL_messagePushdown(t *testing.T) {
	t.Parallel()
	_, conn := openConn(t, tgmPath("many.tgm")+"?agg_rewrite=false")
	_, diff := openConn(t, tgmPath("many.tgm")) // the differential queries' own statistics
	ctx := context.Background()
	for _, tc := range []struct {
		where  string
		chunks int64
	}{
		{"message = 5", 1},
		{"message IN (2, 7)", 2},
		{"message BETWEEN 3 AND 5", 3},
		{"message >= 10", 2},
		{"d0 = 1", 12},
	} {
		var n int64
		var lo float64
		q := "SELECT count(*), min(value) FROM z WHERE " + tc.where
		if err := conn.QueryRowContext(ctx, q).Scan(&n, &lo); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		scans, err := tetsql.Scans(ctx, conn)
		if err != nil || len(scans) != 1 || scans[0].ChunksDecoded != tc.chunks || scans[0].ChunksTotal != 12 {
			t.Errorf("%s: %+v %v; want %d of 12 chunks decoded", q, scans, err, tc.chunks)
		}
		if want := tc.chunks * 21; !strings.HasPrefix(tc.where, "d0") && n != want {
			t.Errorf("%s: %d rows, want %d", q, n, want)
		}
		// Differential: the same answer with the condition hidden from
		// the planner (+column: every chunk read, SQLite filters).
		agg := "SELECT count(*), sum(value), min(value), max(value), group_concat(rowid) FROM z WHERE "
		hidden := "+" + tc.where
		if got, want := oneRow(t, diff, agg+tc.where), oneRow(t, diff, agg+hidden); got != want {
			t.Errorf("%s: %s, unpushed %s", tc.where, got, want)
		}
	}
	// The message's own values: its object, not its neighbours'.
	var v5, v6 float64
	if err := conn.QueryRowContext(ctx, "SELECT (SELECT value FROM z WHERE message = 5 AND d0 = 0 AND d1 = 0), (SELECT value FROM z WHERE rowid = 6*21)").Scan(&v5, &v6); err != nil || v5 == v6 {
		t.Errorf("message 5 first value %v, message 6 first value %v, %v", v5, v6, err)
	}
}

// TestTgmSQL_refusals: truncated and lying files fail at open with
// errors of the words expected.json lists; a flipped byte fails the read
// of its object naming the hash; an unsupported compression fails the
// read of that object naming it while the other dataset answers.
func TestTgmSQL_refusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mentions := func(err error, words []string) bool {
		for _, w := range words {
			if err != nil && strings.Contains(strings.ToLower(err.Error()), w) {
				return true
			}
		}
		return false
	}
	for _, r := range loadTgm(t).Refuse {
		t.Run(strings.TrimSuffix(r.File, ".tgm"), func(t *testing.T) {
			t.Parallel()
			conn, err := tryConn(t, tgmPath(r.File))
			switch {
			case strings.Contains(r.File, "truncated") || strings.Contains(r.File, "lying"):
				if !mentions(err, r.Mentions) || !(errors.Is(err, array.ErrCorrupt) || errors.Is(err, array.ErrTruncated)) {
					t.Errorf("open: %v, want an error mentioning one of %v", err, r.Mentions)
				}
				return
			case err != nil:
				t.Fatalf("open: %v", err)
			}
			if strings.Contains(r.File, "badhash") {
				// Object 0 of the one message (t2m) has the flipped byte.
				err := conn.QueryRowContext(ctx, "SELECT sum(value) FROM t2m").Scan(new(any))
				if !mentions(err, r.Mentions) {
					t.Errorf("read: %v, want an error mentioning one of %v", err, r.Mentions)
				}
				var n int64
				if err := conn.QueryRowContext(ctx, "SELECT count(value) FROM msl").Scan(&n); err != nil || n != 24 {
					t.Errorf("msl (intact): %d values, %v", n, err)
				}
				return
			}
			var sum float64
			if err := conn.QueryRowContext(ctx, "SELECT sum(value) FROM ok").Scan(&sum); err != nil || sum != 15 {
				t.Errorf("ok: sum %v, %v", sum, err)
			}
			err = conn.QueryRowContext(ctx, "SELECT sum(value) FROM packed").Scan(new(any))
			if !mentions(err, r.Mentions) {
				t.Errorf("packed: %v, want an error naming %v", err, r.Mentions)
			}
		})
	}
}
