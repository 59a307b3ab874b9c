package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/tetsql/tetsql/tetcore"
)

// cmdGen writes an ERA5-like 2 m temperature cube t2m(time, lat, lon) in
// kelvin: a latitude gradient (300 K at the equator, 250 K at the poles),
// a seasonal cycle growing towards the poles and opposite in the two
// hemispheres, a zonal wave, and Gaussian noise (sd 2 K), rounded to
// 1/1024 K (ERA5's packing precision is of that order). Rounding makes
// every value exact in f32 and f64 alike, so a threshold between two
// multiples of 1/1024 compares the same in every engine. Labels: time =
// ISO dates from 2023-01-01, lat = 90 … -90 (1° steps for 181 rows),
// lon = 0 … 359. The same flags always give the same bytes.
func cmdGen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	out := fs.String("o", "", "file to write")
	shapeS := fs.String("shape", "730,181,360", "time,lat,lon sizes")
	chunkS := fs.String("chunk", "30,181,360", "chunk shape")
	codec := fs.String("codec", "zstd", "zstd or raw")
	nanP := fs.Float64("nan", 0, "fraction of values set to NaN")
	seed := fs.Uint64("seed", 1, "noise seed")
	fs.Parse(args)
	if *out == "" {
		return fmt.Errorf("gen: -o FILE is required")
	}
	shape, err := ints(*shapeS)
	if err != nil {
		return err
	}
	chunk, err := ints(*chunkS)
	if err != nil {
		return err
	}
	if len(shape) != 3 || len(chunk) != 3 {
		return fmt.Errorf("gen: -shape and -chunk want three sizes")
	}
	c := tetcore.CodecZstd
	if *codec == "raw" {
		c = tetcore.CodecRaw
	}
	nt, ny, nx := shape[0], shape[1], shape[2]
	labels := [][]string{make([]string, nt), make([]string, ny), make([]string, nx)}
	day0 := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for t := range labels[0] {
		labels[0][t] = day0.AddDate(0, 0, t).Format("2006-01-02")
	}
	dlat := 180 / float64(max(ny-1, 1))
	lat := make([]float64, ny)
	for y := range lat {
		lat[y] = 90 - float64(y)*dlat
		labels[1][y] = strconv.FormatFloat(lat[y], 'f', -1, 64)
	}
	dlon := 360 / float64(nx)
	lon := make([]float64, nx)
	for x := range lon {
		lon[x] = float64(x) * dlon
		labels[2][x] = strconv.FormatFloat(lon[x], 'f', -1, 64)
	}
	w, err := tetcore.Create(*out)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	err = w.AddDataset(tetcore.DatasetSpec{Name: "t2m", DType: tetcore.F32,
		Shape: []int64{nt, ny, nx}, ChunkShape: []int64{chunk[0], chunk[1], chunk[2]}, Codec: c,
		DimNames: []string{"time", "lat", "lon"}, Labels: labels,
		Attrs: map[string]string{"units": "K", "long_name": "2 metre temperature (synthetic)"}})
	if err != nil {
		w.Abort()
		return fmt.Errorf("gen: %w", err)
	}
	rng := rand.New(rand.NewPCG(*seed, 0x7e75))
	var buf []byte
	for {
		_, _, start, extent, ok := w.NextChunk()
		if !ok {
			break
		}
		n := extent[0] * extent[1] * extent[2]
		buf = buf[:0]
		for t := start[0]; t < start[0]+extent[0]; t++ {
			season := -math.Cos(2 * math.Pi * (float64(t) - 15) / 365.25)
			for y := start[1]; y < start[1]+extent[1]; y++ {
				phi := lat[y] * math.Pi / 180
				s := math.Sin(phi)
				base := 300 - 50*s*s + 15*s*season
				for x := start[2]; x < start[2]+extent[2]; x++ {
					v := base + 3*math.Sin(2*math.Pi*lon[x]/120)*math.Cos(phi) + 2*rng.NormFloat64()
					v = math.Round(v*1024) / 1024
					if *nanP > 0 && rng.Float64() < *nanP {
						v = math.NaN()
					}
					buf = appendF32(buf, float32(v))
				}
			}
		}
		if int64(len(buf)) != 4*n {
			w.Abort()
			return fmt.Errorf("gen: chunk of %d bytes, want %d", len(buf), 4*n)
		}
		if err := w.WriteChunk(buf); err != nil {
			w.Abort()
			return fmt.Errorf("gen: %w", err)
		}
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	return nil
}

func appendF32(b []byte, v float32) []byte {
	u := math.Float32bits(v)
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
}

func ints(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("gen: %q: want positive sizes such as 730,181,360", s)
		}
		out = append(out, n)
	}
	return out, nil
}
