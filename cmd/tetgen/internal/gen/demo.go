package gen

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/tetsql/tetsql/tetcore"
)

// Preset returns the configuration of a named preset.
func Preset(name string) (*Config, error) {
	if name == "demo" {
		return demo(), nil
	}
	return nil, fmt.Errorf("--preset %q: unknown preset (want demo)", name)
}

// demoSeed seeds the demo's weather noise.
const demoSeed uint64 = 2024

// demo is the configuration of testdata/demo.tet: synthetic weather-like
// data for 2024 (see testdata/README.md). It is deterministic: values are
// rounded to 0.1 so that last-bit differences in math functions between
// CPU architectures cannot change the bytes.
func demo() *Config {
	days := dateLabels(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), 366)
	names := make([]string, len(demoStations))
	elev := make([]byte, 0, 4*len(demoStations))
	loc := make([]byte, 0, 16*len(demoStations))
	for i, s := range demoStations {
		names[i] = s.name
		elev = binary.LittleEndian.AppendUint32(elev, uint32(s.elevation))
		loc = binary.LittleEndian.AppendUint64(loc, math.Float64bits(s.lat))
		loc = binary.LittleEndian.AppendUint64(loc, math.Float64bits(s.lon))
	}
	lats, lons := degreeLabels(-90, 90, 10), degreeLabels(-180, 170, 10)
	return &Config{
		FileMeta: map[string]string{
			"tool":        "tetgen",
			"preset":      "demo",
			"description": "synthetic weather-like data for 2024 (not real observations)",
		},
		Datasets: []*Dataset{{
			Name: "temperature", DType: tetcore.F32, Codec: tetcore.CodecZstd,
			Shape: []int64{366, 50}, Chunk: []int64{32, 25},
			Dims: []string{"time", "station"}, Labels: [][]string{days, names},
			Attrs: map[string]string{
				"units":         "degC",
				"long_name":     "daily mean air temperature at 2 m",
				"standard_name": "air_temperature",
				"comment":       "synthetic; NaN marks a missing reading",
			},
			Data: demoTemperature(),
		}, {
			Name: "pressure", DType: tetcore.F32, Codec: tetcore.CodecZstd,
			Shape: []int64{366, int64(len(lats)), int64(len(lons))}, Chunk: []int64{32, 10, 18},
			Dims: []string{"time", "lat", "lon"}, Labels: [][]string{days, lats, lons},
			Attrs: map[string]string{
				"units":         "hPa",
				"long_name":     "daily mean sea level pressure",
				"standard_name": "air_pressure_at_mean_sea_level",
				"comment":       "synthetic; lat in degrees north, lon in degrees east",
			},
			Data: demoPressure(lats, lons),
		}, {
			Name: "elevation", DType: tetcore.I32, Codec: tetcore.CodecRaw,
			Shape: []int64{50}, Chunk: []int64{50},
			Dims: []string{"station"}, Labels: [][]string{names},
			Attrs: map[string]string{"units": "m", "long_name": "station elevation above mean sea level"},
			Data:  elev,
		}, {
			Name: "location", DType: tetcore.F64, Codec: tetcore.CodecRaw,
			Shape: []int64{50, 2}, Chunk: []int64{50, 2},
			Dims: []string{"station", "coord"}, Labels: [][]string{names, {"lat", "lon"}},
			Attrs: map[string]string{"units": "degrees", "long_name": "station latitude (north) and longitude (east)"},
			Data:  loc,
		}},
	}
}

func dateLabels(t0 time.Time, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = t0.AddDate(0, 0, i).Format(time.DateOnly)
	}
	return out
}

func degreeLabels(from, to, step int) []string {
	var out []string
	for v := from; v <= to; v += step {
		out = append(out, strconv.Itoa(v))
	}
	return out
}

// normals is a deterministic stream of standard normal numbers.
type normals struct{ state uint64 }

func (n *normals) next() float64 {
	n.state += golden
	u1 := 1 - unit(mix(n.state)) // (0, 1]
	n.state += golden
	u2 := unit(mix(n.state))
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// round1 rounds to one decimal, as a float32.
func round1(v float64) float32 { return float32(math.Round(v*10) / 10) }

// demoTemperature is [366 days, 50 stations]: each station's seasonal
// cycle (coldest around 20 January, or July in the south) plus weather
// noise that persists for a few days (AR(1), larger away from the
// tropics), rounded to 0.1 °C, with the NaN gaps of demoGaps.
func demoTemperature() []byte {
	const days = 366
	nst := len(demoStations)
	v := make([]float32, days*nst)
	for s, st := range demoStations {
		rng := normals{state: mix(demoSeed<<32 | uint64(s))}
		sigma := min(4, 0.8+3.2*math.Abs(st.lat)/65)
		x := sigma * rng.next()
		for d := range days {
			season := st.mean - st.amp*math.Cos(2*math.Pi*float64(d-19)/days)
			v[d*nst+s] = round1(season + x)
			x = 0.75*x + sigma*0.66*rng.next()
		}
	}
	for _, g := range demoGaps {
		for s, st := range demoStations {
			for d := g.day; st.name == g.station && d < g.day+g.count; d++ {
				v[d*nst+s] = float32(math.NaN())
			}
		}
	}
	out := make([]byte, 0, 4*len(v))
	for _, x := range v {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
	}
	return out
}

// gauss is a bell of width w around c.
func gauss(x, c, w float64) float64 { return math.Exp(-((x - c) / w) * ((x - c) / w)) }

// demoPressure is [366 days, lat, lon]: a zonal climatology (subtropical
// highs, subpolar lows deeper in winter, an equatorial trough, a Siberian
// winter high) plus eastward-travelling mid-latitude waves and noise,
// rounded to 0.1 hPa.
func demoPressure(lats, lons []string) []byte {
	out := make([]byte, 0, 366*len(lats)*len(lons)*4)
	rng := normals{state: mix(demoSeed<<32 | 1000)}
	periods := [...]float64{5, 6.5, 8}
	var phase [2][3]float64 // per hemisphere and wave
	for h := range phase {
		for k := range phase[h] {
			phase[h][k] = 2 * math.Pi * unit(mix(demoSeed+uint64(10*h+k)))
		}
	}
	for t := range 366 {
		season := math.Cos(2 * math.Pi * float64(t-19) / 366) // +1 in northern winter
		for _, ls := range lats {
			phi, _ := strconv.ParseFloat(ls, 64)
			hemi, h := 1.0, 0
			if phi < 0 {
				hemi, h = -1, 1
			}
			winter := 1 + 0.3*season*hemi
			a := math.Abs(phi)
			zonal := 1013 + 7*gauss(a, 32, 12) - 14*winter*gauss(a, 62, 10) + 5*gauss(a, 88, 10) - 4*gauss(phi, 0, 10)
			env := 10 * winter * gauss(a, 50, 15) / 3
			for _, ms := range lons {
				lam, _ := strconv.ParseFloat(ms, 64)
				p := zonal + 12*season*gauss(phi, 50, 12)*gauss(lam, 100, 25)
				for k, per := range periods {
					p += env * math.Sin(float64(k+4)*lam*math.Pi/180-2*math.Pi*float64(t)/per+phase[h][k])
				}
				p += 0.7 * math.Cos(phi*math.Pi/180) * rng.next() // calm at the poles
				out = binary.LittleEndian.AppendUint32(out, math.Float32bits(round1(p)))
			}
		}
	}
	return out
}
