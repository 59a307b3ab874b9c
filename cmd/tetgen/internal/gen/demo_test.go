package gen_test

import (
	"bytes"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetgen/internal/gen"
	"github.com/tetsql/tetsql/tetcore"
)

const demoPath = "../../../../testdata/demo.tet"

// TestDemo_regenerate checks that the committed testdata/demo.tet is
// exactly what `tetgen -o testdata/demo.tet --preset demo` writes.
func TestDemo_regenerate(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile(demoPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := gen.Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	got := fileBytes(t, cfg, 0)
	if !bytes.Equal(got, want) {
		t.Fatalf("testdata/demo.tet differs from the demo preset (%d vs %d bytes); "+
			"regenerate it with: go run ./cmd/tetgen -o testdata/demo.tet --preset demo", len(want), len(got))
	}
}

func TestDemo_contents(t *testing.T) {
	t.Parallel()
	f := open(t, demoPath)
	if f.Size() > 5<<20 {
		t.Errorf("demo.tet is %d bytes, keep it under 5 MB", f.Size())
	}
	type geo struct {
		dt           tetcore.DType
		shape, chunk []int64
		dims         []string
		units        string
	}
	want := map[string]geo{
		"temperature": {tetcore.F32, []int64{366, 50}, []int64{32, 25}, []string{"time", "station"}, "degC"},
		"pressure":    {tetcore.F32, []int64{366, 19, 36}, []int64{32, 10, 18}, []string{"time", "lat", "lon"}, "hPa"},
		"elevation":   {tetcore.I32, []int64{50}, []int64{50}, []string{"station"}, "m"},
		"location":    {tetcore.F64, []int64{50, 2}, []int64{50, 2}, []string{"station", "coord"}, "degrees"},
	}
	if len(f.Datasets) != len(want) {
		t.Fatalf("%d datasets, want %d", len(f.Datasets), len(want))
	}
	for _, ds := range f.Datasets {
		w := want[ds.Name]
		got := geo{ds.DType, ds.Shape, ds.ChunkShape, ds.DimNames, ds.Attrs["units"]}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s: %+v, want %+v", ds.Name, got, w)
		}
		for a := range ds.Rank() {
			if ds.Labels == nil || int64(len(ds.Labels[a])) != ds.Shape[a] {
				t.Errorf("%s: axis %d is not fully labelled", ds.Name, a)
			}
		}
	}
	temp, _ := f.Dataset("temperature")
	pres, _ := f.Dataset("pressure")
	elev, _ := f.Dataset("elevation")
	time, stations := temp.Labels[0], temp.Labels[1]
	if time[0] != "2024-01-01" || time[59] != "2024-02-29" || time[365] != "2024-12-31" {
		t.Errorf("time labels %q … %q … %q", time[0], time[59], time[365])
	}
	if stations[0] != "Longyearbyen" || stations[6] != "Oslo" || stations[49] != "Buenos Aires" {
		t.Errorf("station labels %q", stations)
	}
	if !reflect.DeepEqual(elev.Labels[0], stations) || !reflect.DeepEqual(pres.Labels[0], time) {
		t.Error("station or time labels differ between datasets")
	}
	if l := pres.Labels; l[1][0] != "-90" || l[1][18] != "90" || l[2][0] != "-180" || l[2][35] != "170" {
		t.Errorf("lat/lon labels %q %q", l[1], l[2])
	}

	// Temperatures: plausible, coldest in January up north, NaN gaps.
	data := assemble(t, f, temp)
	var nans []string
	for d := range 366 {
		for s := range 50 {
			v := tetcore.F32.Float64(data, d*50+s)
			switch {
			case math.IsNaN(v):
				nans = append(nans, stations[s]+" "+time[d])
			case v < -60 || v > 50:
				t.Errorf("%s %s: %v °C", stations[s], time[d], v)
			}
		}
	}
	wantNaN := []string{"Moscow 2024-02-10", "Moscow 2024-02-11", "Moscow 2024-02-12", "Moscow 2024-02-13",
		"Moscow 2024-02-14", "Lagos 2024-07-01", "Lagos 2024-07-02", "Lagos 2024-07-03", "Nuuk 2024-11-20"}
	if !reflect.DeepEqual(nans, wantNaN) {
		t.Errorf("NaN at %q, want %q", nans, wantNaN)
	}
	mean := func(s, from, to int) float64 {
		sum := 0.0
		for d := from; d < to; d++ {
			sum += tetcore.F32.Float64(data, d*50+s)
		}
		return sum / float64(to-from)
	}
	for _, s := range []int{6, 14, 28} { // Oslo, London, Beijing: July warmer than January
		if jan, jul := mean(s, 0, 31), mean(s, 182, 213); jul < jan+5 {
			t.Errorf("%s: January %.1f, July %.1f", stations[s], jan, jul)
		}
	}
	if jan, jul := mean(47, 0, 31), mean(47, 182, 213); jan < jul+5 { // Sydney
		t.Errorf("Sydney: January %.1f, July %.1f", jan, jul)
	}
	pd := assemble(t, f, pres)
	for i := range int(pres.Elements()) {
		if v := tetcore.F32.Float64(pd, i); v < 950 || v > 1060 {
			t.Fatalf("pressure[%d] = %v hPa", i, v)
		}
	}
}
