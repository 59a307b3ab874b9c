package memformat

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/tetsql/tetsql/array"
)

type fileJSON struct {
	Attrs  map[string]string `json:"attrs"`
	Arrays []arrayJSON       `json:"arrays"`
	Tables []tableJSON       `json:"tables"`
}

type arrayJSON struct {
	Name          string            `json:"name"`
	DType         string            `json:"dtype"`
	Shape         []int64           `json:"shape"`
	ChunkShape    []int64           `json:"chunk_shape"`
	DimNames      []string          `json:"dim_names"`
	Labels        [][]string        `json:"labels"`
	Attrs         map[string]string `json:"attrs"`
	Values        []json.RawMessage `json:"values"`
	Generator     string            `json:"generator"`
	MissingChunks []int64           `json:"missing_chunks"`
}

// parse checks the magic line, decodes the JSON strictly (unknown fields
// and trailing data are errors) and builds the arrays.
func parse(data []byte, o array.Options) (*source, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("memformat: file larger than %d bytes: %w", MaxBytes, array.ErrUnsupported)
	}
	if !bytes.HasPrefix(data, []byte(magicPrefix)) {
		return nil, fmt.Errorf("memformat: no %q line: %w", magicPrefix, array.ErrCorrupt)
	}
	if !bytes.HasPrefix(data, []byte(Magic)) {
		line, _, _ := bytes.Cut(data, []byte("\n"))
		return nil, fmt.Errorf("memformat: %q: want %q: %w", line, Magic[:len(Magic)-1], array.ErrUnsupported)
	}
	dec := json.NewDecoder(bytes.NewReader(data[len(Magic):]))
	dec.DisallowUnknownFields()
	var fj fileJSON
	if err := dec.Decode(&fj); err != nil {
		return nil, fmt.Errorf("memformat: JSON: %v: %w", err, array.ErrCorrupt)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("memformat: data after the JSON object: %w", array.ErrCorrupt)
	}
	s := &source{attrs: fj.Attrs}
	seen := map[string]bool{}
	total := int64(0)
	for i := range fj.Arrays {
		aj := &fj.Arrays[i]
		if aj.Name == "" || seen[aj.Name] {
			return nil, fmt.Errorf("memformat: array %d: name %q empty or used twice: %w", i, aj.Name, array.ErrCorrupt)
		}
		seen[aj.Name] = true
		a, err := buildArray(s, aj, &total)
		if err != nil {
			return nil, fmt.Errorf("memformat: %w", err)
		}
		a.maxBytes = o.MaxChunkBytes
		s.arrays = append(s.arrays, a)
	}
	for i := range fj.Tables {
		t, err := buildTable(&fj.Tables[i])
		if err != nil {
			return nil, fmt.Errorf("memformat: %w", err)
		}
		s.tables = append(s.tables, t)
	}
	return s, nil
}

// buildArray validates one array, fills its values and cuts its chunks.
// total counts the decoded bytes of the file so far, against MaxBytes.
func buildArray(s *source, aj *arrayJSON, total *int64) (*memArray, error) {
	dt, err := array.ParseDType(aj.DType)
	if err != nil {
		return nil, fmt.Errorf("array %q: %v: %w", aj.Name, err, array.ErrUnsupported)
	}
	a := &memArray{src: s, info: array.Info{Name: aj.Name, DType: dt, Shape: aj.Shape, ChunkShape: aj.ChunkShape,
		DimNames: aj.DimNames, Labels: aj.Labels, Attrs: aj.Attrs}}
	in := &a.info
	if err := in.Validate(); err != nil {
		return nil, err
	}
	size := int64(dt.Size())
	// Validate made Elements × size fit in int64; compare it alone first so
	// that the sum cannot overflow.
	if in.Elements()*size > MaxBytes-*total {
		return nil, fmt.Errorf("array %q: more than %d bytes or chunks: %w", aj.Name, MaxBytes, array.ErrUnsupported)
	}
	*total += in.Elements() * size
	whole := make([]byte, in.Elements()*size)
	switch {
	case aj.Generator != "" && aj.Values != nil:
		return nil, fmt.Errorf("array %q: both values and a generator: %w", aj.Name, array.ErrCorrupt)
	case aj.Generator == "ramp":
		for i := range in.Elements() {
			putRamp(dt, whole[i*size:], i)
		}
	case aj.Generator == "zeros":
	case aj.Generator != "":
		return nil, fmt.Errorf("array %q: unknown generator %q: %w", aj.Name, aj.Generator, array.ErrUnsupported)
	case int64(len(aj.Values)) != in.Elements():
		return nil, fmt.Errorf("array %q: %d values for %d elements: %w", aj.Name, len(aj.Values), in.Elements(), array.ErrCorrupt)
	default:
		for i, raw := range aj.Values {
			if err := putValue(dt, whole[int64(i)*size:], raw); err != nil {
				return nil, fmt.Errorf("array %q value %d: %v: %w", aj.Name, i, err, array.ErrCorrupt)
			}
		}
	}
	a.chunks = make([][]byte, in.ChunkCount())
	r := in.Rank()
	start, extent := make([]int64, r), make([]int64, r)
	for id := range in.ChunkCount() {
		in.ChunkBox(id, start, extent)
		a.chunks[id] = array.ExtractChunk(nil, whole, in.Shape, start, extent, int(size))
	}
	for _, id := range aj.MissingChunks {
		if id < 0 || id >= in.ChunkCount() {
			return nil, fmt.Errorf("array %q: missing chunk %d outside the grid of %d: %w", aj.Name, id, in.ChunkCount(), array.ErrCorrupt)
		}
		a.chunks[id] = nil
	}
	return a, nil
}

// putRamp stores i converted to dt as Go converts (wrapping integers).
func putRamp(dt array.DType, b []byte, i int64) {
	switch dt {
	case array.F16:
		binary.LittleEndian.PutUint16(b, array.Float32ToHalf(float32(i)))
	case array.F32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(i)))
	case array.F64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(float64(i)))
	default:
		putInt(b, dt.Size(), uint64(i))
	}
}

// putValue parses one JSON value exactly for dt and stores it.
func putValue(dt array.DType, b []byte, raw json.RawMessage) error {
	text := string(raw)
	if dt.IsFloat() {
		if len(text) > 0 && text[0] == '"' {
			if err := json.Unmarshal(raw, &text); err != nil {
				return err
			}
			if text != "NaN" && text != "Inf" && text != "-Inf" {
				return fmt.Errorf("string %q, want a number, \"NaN\", \"Inf\" or \"-Inf\"", text)
			}
		}
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return err
		}
		if f := float32(v); dt != array.F64 && !math.IsInf(v, 0) && (math.IsInf(float64(f), 0) ||
			dt == array.F16 && math.IsInf(float64(array.HalfToFloat32(array.Float32ToHalf(f))), 0)) {
			return fmt.Errorf("%s overflows %v", text, dt)
		}
		switch dt {
		case array.F16:
			binary.LittleEndian.PutUint16(b, array.Float32ToHalf(float32(v)))
		case array.F32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
		default:
			binary.LittleEndian.PutUint64(b, math.Float64bits(v))
		}
		return nil
	}
	bits := dt.Size() * 8
	if dt.IsSigned() {
		v, err := strconv.ParseInt(text, 10, bits)
		if err != nil {
			return err
		}
		putInt(b, dt.Size(), uint64(v))
		return nil
	}
	v, err := strconv.ParseUint(text, 10, bits)
	if err != nil {
		return err
	}
	putInt(b, dt.Size(), v)
	return nil
}

// putInt stores the low size bytes of v little-endian.
func putInt(b []byte, size int, v uint64) {
	for k := range size {
		b[k] = byte(v >> (8 * k))
	}
}
