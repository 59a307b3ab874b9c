package tetsql_test

import (
	"context"
	"slices"
	"testing"

	"github.com/tetsql/tetsql"
)

// TestParameters: the parameters of a statement by index, as SQLite
// names and numbers them; nothing runs.
func TestParameters(t *testing.T) {
	_, conn := openConn(t, "")
	ctx := context.Background()
	if _, err := conn.ExecContext(ctx, "CREATE TEMP TABLE t(x)"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q    string
		want []string
	}{
		{"SELECT 1", []string{}},
		{"SELECT :x, $y, @z, :x", []string{":x", "$y", "@z"}},
		{"SELECT ?, ?3, ?", []string{"", "", "?3", ""}},
		{"SELECT ':x', \"?\" FROM t -- :c", []string{}},
		{"INSERT INTO t VALUES (:v); SELECT :w", []string{":v"}}, // the first statement only
		{"  ", nil},
	}
	for _, tc := range tests {
		got, err := tetsql.Parameters(ctx, conn, tc.q)
		if err != nil || !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("Parameters(%q) = %q, %v; want %q", tc.q, got, err, tc.want)
		}
	}
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 0 {
		t.Errorf("rows in t: %d, %v; want 0 (nothing runs)", n, err)
	}
	if _, err := tetsql.Parameters(ctx, conn, "SELECT FROM WHERE"); err == nil {
		t.Error("a statement that does not prepare: no error")
	}
}
