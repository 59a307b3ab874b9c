package gen_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetgen/internal/gen"
)

// newConfig declares the given dataset specs or fails the test.
func newConfig(t *testing.T, specs ...string) *gen.Config {
	t.Helper()
	cfg := &gen.Config{}
	for _, s := range specs {
		if err := cfg.AddDataset(s); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}

func TestAddLabels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec string
		axis int
		want []string
	}{
		{"t.time=dates:2024-02-27", 0, []string{"2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"}},
		{"t.time=dates:2023-12-30", 0, []string{"2023-12-30", "2023-12-31", "2024-01-01", "2024-01-02"}},
		{"t.station=seq:S%04d", 1, []string{"S0000", "S0001", "S0002"}},
		{"t.station=seq:%d", 1, []string{"0", "1", "2"}},
		{"t.station=list:Oslo,Rome,New York", 1, []string{"Oslo", "Rome", "New York"}},
		{"t.station=list:a=b,c:d,", 1, []string{"a=b", "c:d", ""}},
		{"u.d1=seq:k%x", 1, []string{"k0", "k1"}}, // default dim names
		{"a.b.x=list:p", 0, []string{"p"}},        // the longest dataset name wins
	}
	for _, tt := range tests {
		cfg := newConfig(t, "t:f32:4x3:2x2:raw:time,station", "u:u8:1x2:1x1", "a:f32:1:1:raw:b", "a.b:f32:1:1:raw:x")
		if err := cfg.AddLabels(tt.spec); err != nil {
			t.Errorf("AddLabels(%q): %v", tt.spec, err)
			continue
		}
		name, _, _ := strings.Cut(tt.spec, ".")
		if name == "a" {
			name = "a.b"
		}
		var got []string
		for _, d := range cfg.Datasets {
			if d.Name == name {
				got = d.Labels[tt.axis]
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("AddLabels(%q): labels %q, want %q", tt.spec, got, tt.want)
		}
	}
}

func TestAddLabels_errors(t *testing.T) {
	t.Parallel()
	tests := []struct{ spec, want string }{
		{"t.time", "missing '='"},
		{"nope.time=seq:%d", `does not start with a declared dataset name`},
		{"t.=seq:%d", `nothing after "t."`},
		{"t.lat=seq:%d", `dataset "t" has no dim "lat" (dims: time, station)`},
		{"u.x=seq:%d", `dataset "u" has no dim "x" (dims: d0, d1)`},
		{"t.time=2024-01-01", "want dates:YYYY-MM-DD"},
		{"t.time=days:2024-01-01", `unknown label kind "days"`},
		{"t.time=dates:2024-13-01", `start "2024-13-01" is not a date`},
		{"t.time=dates:", `start "" is not a date`},
		{"t.time=seq:S", "must contain one integer verb"},
		{"t.time=seq:%s", "must contain one integer verb"},
		{"t.time=seq:%d-%d", "must contain one integer verb"},
		{"t.station=list:a,b", "list: 2 labels for an axis of size 3"},
		{"t.station=list:", "list: 1 labels for an axis of size 3"},
	}
	for _, tt := range tests {
		cfg := newConfig(t, "t:f32:4x3:2x2:raw:time,station", "u:u8:1x2:1x1")
		err := cfg.AddLabels(tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("AddLabels(%q) error = %v, want it to contain %q", tt.spec, err, tt.want)
		}
	}
	cfg := newConfig(t, "t:f32:4x3:2x2:raw:time,station")
	if err := cfg.AddLabels("t.time=seq:%d"); err != nil {
		t.Fatal(err)
	}
	if err := cfg.AddLabels("t.time=seq:x%d"); err == nil || !strings.Contains(err.Error(), "already has labels") {
		t.Errorf("second labels for one dim: error = %v", err)
	}
	big := newConfig(t, "big:u8:2000000:1000")
	if err := big.AddLabels("big.d0=seq:%d"); err == nil || !strings.Contains(err.Error(), "at most 1048576 can be labelled") {
		t.Errorf("labels for a huge axis: error = %v", err)
	}
}

func TestAddAttr(t *testing.T) {
	t.Parallel()
	cfg := newConfig(t, "t:f32:4:2")
	for _, s := range []string{"t.units=degC", "t.long_name=air temperature = nice", "t.empty="} {
		if err := cfg.AddAttr(s); err != nil {
			t.Fatalf("AddAttr(%q): %v", s, err)
		}
	}
	want := map[string]string{"units": "degC", "long_name": "air temperature = nice", "empty": ""}
	if got := cfg.Datasets[0].Attrs; !reflect.DeepEqual(got, want) {
		t.Errorf("attrs = %q, want %q", got, want)
	}
	for _, tt := range []struct{ spec, want string }{
		{"t.units=K", `attribute "units" of "t" is set twice`},
		{"x.units=K", "does not start with a declared dataset name"},
		{"t.units", "missing '='"},
		{"t.=K", "nothing after"},
	} {
		if err := cfg.AddAttr(tt.spec); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("AddAttr(%q) error = %v, want it to contain %q", tt.spec, err, tt.want)
		}
	}
}

func TestAddDataset_duplicate(t *testing.T) {
	t.Parallel()
	cfg := newConfig(t, "t:f32:4:2")
	if err := cfg.AddDataset("t:u8:9:3"); err == nil || !strings.Contains(err.Error(), `dataset "t" is declared twice`) {
		t.Errorf("error = %v", err)
	}
}
