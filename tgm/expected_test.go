package tgm

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// expectedDoc is expected.json as make.py writes it (see
// testdata/README.md); numbers stay json.Number so 64-bit integers and
// their sums compare exactly.
type expectedDoc struct {
	Files  []expectedFile   `json:"files"`
	Refuse []expectedRefuse `json:"refuse"`
}

type expectedFile struct {
	File         string            `json:"file"`
	Size         int64             `json:"size"`
	MessageCount int               `json:"message_count"`
	Messages     []expectedMessage `json:"messages"`
}

type expectedMessage struct {
	Offset        int64            `json:"offset"`
	Length        int64            `json:"length"`
	Streaming     bool             `json:"streaming"`
	PreambleFlags uint16           `json:"preamble_flags"`
	Hashes        bool             `json:"hashes"`
	Frames        []string         `json:"frames"`
	Metadata      map[string]any   `json:"metadata"`
	Objects       []expectedObject `json:"objects"`
}

type expectedObject struct {
	Object      int            `json:"object"`
	Name        string         `json:"name"`
	DType       string         `json:"dtype"`
	Shape       []int64        `json:"shape"`
	ByteOrder   string         `json:"byte_order"`
	Encoding    string         `json:"encoding"`
	Filter      string         `json:"filter"`
	Compression string         `json:"compression"`
	Params      map[string]any `json:"params"`
	Metadata    map[string]any `json:"metadata"`
	Expected    expectedValues `json:"expected"`
}

type expectedValues struct {
	SHA256   string          `json:"sha256_c_order_le"`
	Count    int64           `json:"count"`
	Complex  bool            `json:"complex"`
	NaN      int64           `json:"nan_count"`
	PosInf   int64           `json:"posinf_count"`
	NegInf   int64           `json:"neginf_count"`
	Sum      json.Number     `json:"sum"`
	Min      json.Number     `json:"min"`
	Max      json.Number     `json:"max"`
	Probes   []expectedProbe `json:"probes"`
	Tolerace float64         `json:"tolerance"`
}

type expectedProbe struct {
	RowID int64 `json:"rowid"`
	Value any   `json:"value"`
}

type expectedRefuse struct {
	File     string   `json:"file"`
	Reason   string   `json:"reason"`
	Mentions []string `json:"error_mentions_any"`
}

// loadExpected reads dir/expected.json.
func loadExpected(t testing.TB, dir string) expectedDoc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc expectedDoc
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	if len(doc.Files) == 0 || len(doc.Refuse) == 0 {
		t.Fatalf("expected.json lists %d files and %d refusals", len(doc.Files), len(doc.Refuse))
	}
	return doc
}

func TestExpectedFiles(t *testing.T) {
	checkExpectedDir(t, "testdata")
}

// checkExpectedDir checks every file and refusal expected.json of dir lists.
func checkExpectedDir(t *testing.T, dir string) {
	doc := loadExpected(t, dir)
	decoded := 0
	for _, fx := range doc.Files {
		t.Run(strings.TrimSuffix(fx.File, ".tgm"), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, fx.File))
			if err != nil {
				t.Fatal(err)
			}
			f, err := Scan(data)
			if err != nil {
				t.Fatal(err)
			}
			if f.Size != fx.Size || len(f.Messages) != fx.MessageCount || len(fx.Messages) != fx.MessageCount {
				t.Fatalf("size %d, %d messages; want %d, %d", f.Size, len(f.Messages), fx.Size, fx.MessageCount)
			}
			if f.Skipped != 0 {
				t.Errorf("skipped %d bytes of a file with no garbage", f.Skipped)
			}
			if err := f.Verify(); err != nil {
				t.Errorf("Verify: %v", err)
			}
			for mi, em := range fx.Messages {
				m := &f.Messages[mi]
				checkMessage(t, m, em)
				for oi, eo := range em.Objects {
					o := &m.Objects[oi]
					d := checkObject(t, o, eo)
					decoded += d
				}
			}
		})
	}
	t.Logf("%d objects decoded and checked value by value", decoded)
	if decoded == 0 {
		t.Fatal("no object was checked")
	}
	checkRefusals(t, dir, doc.Refuse)
}

// checkMessage holds a message's layout and metadata to expected.json.
func checkMessage(t *testing.T, m *Message, em expectedMessage) {
	t.Helper()
	if m.Offset != em.Offset || m.Length != em.Length || m.Streaming != em.Streaming ||
		m.Hashed != em.Hashes || m.Flags != em.PreambleFlags {
		t.Errorf("message %d: offset %d length %d streaming %v hashed %v flags %#x; want %d %d %v %v %#x",
			m.Index, m.Offset, m.Length, m.Streaming, m.Hashed, m.Flags,
			em.Offset, em.Length, em.Streaming, em.Hashes, em.PreambleFlags)
	}
	var frames []string
	for _, fr := range m.Frames {
		frames = append(frames, fr.TypeName())
	}
	if !reflect.DeepEqual(frames, em.Frames) {
		t.Errorf("message %d: frames %v, want %v", m.Index, frames, em.Frames)
	}
	if len(m.Objects) != len(em.Objects) {
		t.Fatalf("message %d: %d objects, want %d", m.Index, len(m.Objects), len(em.Objects))
	}
	extra := m.Metadata["_extra_"]
	if extra == nil {
		extra = map[string]any{}
	}
	sameJSON(t, "message _extra_", extra, em.Metadata["_extra_"])
	base, _ := em.Metadata["base"].([]any)
	for i, o := range m.Objects {
		var want any = map[string]any{}
		if i < len(base) {
			want = base[i]
		}
		sameJSON(t, "base entry", o.Metadata, want)
	}
}

// sameJSON compares a metadata value with its expected.json counterpart
// through their JSON texts.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(AppendJSON(nil, got), &g); err != nil {
		t.Fatalf("%s: our JSON does not parse: %v", what, err)
	}
	wb, _ := json.Marshal(want)
	_ = json.Unmarshal(wb, &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: %s\nwant %s", what, AppendJSON(nil, got), wb)
	}
}

// checkObject holds an object's descriptor, metadata and decoded values
// to expected.json. It returns 1 when the values were checked.
func checkObject(t *testing.T, o *Object, eo expectedObject) int {
	t.Helper()
	if o.Index != eo.Object || o.Name != eo.Name || o.DType != eo.DType || o.ByteOrder != eo.ByteOrder ||
		o.Encoding != eo.Encoding || o.Filter != eo.Filter || o.Compression != eo.Compression ||
		!reflect.DeepEqual(append([]int64{}, o.Shape...), append([]int64{}, eo.Shape...)) {
		t.Errorf("object %d: %d %q %s %v %s %s/%s/%s; want %+v", o.Index, o.Index, o.Name, o.DType, o.Shape,
			o.ByteOrder, o.Encoding, o.Filter, o.Compression, eo)
	}
	sameJSON(t, "params", o.Params, eo.Params)
	sameJSON(t, "metadata", o.Metadata, eo.Metadata)
	out, err := o.Decode(nil, 0)
	switch {
	case eo.Expected.Complex:
		if err == nil || !errors.Is(err, array.ErrUnsupported) || !strings.Contains(err.Error(), eo.DType) {
			t.Errorf("object %d (%s): err %v, want unsupported naming %s", o.Index, o.DType, err, eo.DType)
		}
		return 0
	case err != nil:
		t.Errorf("object %d: %v", o.Index, err)
		return 0
	}
	typ, err := o.Type()
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(out); hex.EncodeToString(sum[:]) != eo.Expected.SHA256 {
		t.Errorf("object %d (%s): sha256 of the decoded values differs", o.Index, o.Name)
	}
	checkValues(t, o.Name, typ, out, eo.Expected)
	return 1
}

// checkValues compares statistics and probes of decoded elements.
func checkValues(t *testing.T, what string, typ array.DType, out []byte, ev expectedValues) {
	t.Helper()
	n := int64(len(out) / typ.Size())
	if n != ev.Count {
		t.Fatalf("%s: %d elements, want %d", what, n, ev.Count)
	}
	var nan, pinf, ninf int64
	fsum, isum := 0.0, new(big.Int)
	fmin, fmax := math.Inf(1), math.Inf(-1)
	for i := range int(n) {
		if typ.IsFloat() {
			v := typ.Float64(out, i)
			switch {
			case math.IsNaN(v):
				nan++
			case math.IsInf(v, 1):
				pinf++
			case math.IsInf(v, -1):
				ninf++
			default:
				fsum += v
				fmin, fmax = math.Min(fmin, v), math.Max(fmax, v)
			}
			continue
		}
		isum.Add(isum, intValue(typ, out, i))
	}
	if nan != ev.NaN || pinf != ev.PosInf || ninf != ev.NegInf {
		t.Errorf("%s: NaN/+Inf/-Inf %d/%d/%d, want %d/%d/%d", what, nan, pinf, ninf, ev.NaN, ev.PosInf, ev.NegInf)
	}
	if typ.IsFloat() && ev.Sum != "" {
		want, _ := ev.Sum.Float64()
		lo, _ := ev.Min.Float64()
		hi, _ := ev.Max.Float64()
		if math.Abs(fsum-want) > 1e-9*math.Max(1, math.Abs(want)) || fmin != lo || fmax != hi {
			t.Errorf("%s: sum %v min %v max %v, want %v %v %v", what, fsum, fmin, fmax, want, lo, hi)
		}
	}
	if !typ.IsFloat() && ev.Sum != "" && isum.String() != ev.Sum.String() {
		t.Errorf("%s: sum %s, want %s", what, isum, ev.Sum)
	}
	for _, p := range ev.Probes {
		if got := cellJSON(typ, out, int(p.RowID)); got != probeJSON(p.Value) {
			t.Errorf("%s: element %d = %s, want %s", what, p.RowID, got, probeJSON(p.Value))
		}
	}
}

// intValue is integer element i as a big.Int.
func intValue(typ array.DType, out []byte, i int) *big.Int {
	if typ == array.U64 {
		return new(big.Int).SetUint64(typ.Uint64(out, i))
	}
	return big.NewInt(typ.Int64(out, i))
}

// cellJSON is element i as make.py's cell() writes it.
func cellJSON(typ array.DType, out []byte, i int) string {
	if !typ.IsFloat() {
		return intValue(typ, out, i).String()
	}
	v := typ.Float64(out, i)
	switch {
	case math.IsNaN(v):
		return "null"
	case math.IsInf(v, 1):
		return `"inf"`
	case math.IsInf(v, -1):
		return `"-inf"`
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// probeJSON is an expected probe value in the form cellJSON writes.
func probeJSON(v any) string {
	if n, ok := v.(json.Number); ok {
		if f, err := n.Float64(); err == nil && strings.ContainsAny(n.String(), ".eE") {
			b, _ := json.Marshal(f)
			return string(b)
		}
		return n.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}
