package vtab_test

import (
	"path/filepath"
	"strings"
	"testing"
)

func ref(name string) string { return filepath.Join("..", "testdata", "reference", name) }

func TestReferenceFixturesThroughSQL(t *testing.T) {
	t.Parallel()
	db, _ := openDB(t, map[string]string{"s": ref("sample.tet"), "u8": ref("multichunk_u8.tet"),
		"u32": ref("multichunk_u32.tet"), "p": ref("plan.tet")})
	for _, q := range []string{
		"SELECT sum(value), avg(value), avg(value*value)-avg(value)*avg(value), count(*) FROM s.temperature",
		"SELECT sum(value), avg(value), avg(value*value)-avg(value)*avg(value), count(*) FROM u8.a",
		"SELECT sum(value), avg(value), avg(value*value)-avg(value)*avg(value), count(*) FROM u32.a",
		"SELECT sum(value), avg(value), avg(value*value)-avg(value)*avg(value), count(*) FROM p.a",
	} {
		got := rowsOf(t, db, q)
		if len(got) != 1 || !strings.HasPrefix(got[0], "21|3.5|2.91666666666666") || !strings.HasSuffix(got[0], "|6") {
			t.Errorf("%s = %v", q, got)
		}
	}
	got := rowsOf(t, db, "SELECT d0, d1, rowid, value, typeof(value) FROM s.temperature ORDER BY rowid")
	want := []string{"0|0|0|1|real", "0|1|1|2|real", "0|2|2|3|real", "1|0|3|4|real", "1|1|4|5|real", "1|2|5|6|real"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("rows %v", got)
	}
	if got := rowsOf(t, db, "SELECT typeof(value) FROM u8.a LIMIT 1"); got[0] != "integer" {
		t.Errorf("u8 typeof %v", got)
	}
	if got := rowsOf(t, db, "SELECT footer LIKE 'damaged: %', dataset_count FROM p.tet_file"); got[0] != "1|1" {
		t.Errorf("plan footer %v", got)
	}
	if got := rowsOf(t, db, "SELECT name, dtype, shape, chunk_shape, grid_shape, chunk_count FROM s.tet_datasets"); got[0] != `temperature|f32|[2,3]|[2,2]|[1,2]|2` {
		t.Errorf("datasets %v", got)
	}
	if got := rowsOf(t, db, "SELECT chunk, coords, start, extent, raw_byte_len, codec FROM s.tet_chunks WHERE dataset = 'temperature'"); strings.Join(got, ",") != `0|[0,0]|[0,0]|[2,2]|16|raw,1|[0,1]|[0,2]|[2,1]|8|raw` {
		t.Errorf("chunks %v", got)
	}
}
