package tgm

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/tetsql/tetsql/array"
)

// oneObject scans a message holding one object with descriptor desc and
// payload region region, and returns the object.
func oneObject(t testing.TB, desc map[string]any, region []byte) *Object {
	t.Helper()
	f, err := Scan(message([]tframe{objectFrame(t, desc, region, true)}, false, 0))
	if err != nil {
		t.Fatal(err)
	}
	return &f.Messages[0].Objects[0]
}

// desc is a descriptor of shape and dtype with extra keys.
func desc(shape []int, dtype string, kv ...any) map[string]any {
	d := map[string]any{"type": "ntensor", "ndim": len(shape), "shape": shape, "dtype": dtype}
	for i := 0; i+1 < len(kv); i += 2 {
		d[kv[i].(string)] = kv[i+1]
	}
	return d
}

// zstdOf compresses b as one zstd frame.
func zstdOf(t testing.TB, b []byte) []byte {
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(b, nil)
}

// lz4Of writes b in the size-prepended layout as one literal-only LZ4
// block (valid LZ4, whatever the data).
func lz4Of(b []byte) []byte {
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(b)))
	if len(b) < 15 {
		out = append(out, byte(len(b)<<4))
	} else {
		out = append(out, 0xF0)
		n := len(b) - 15
		for ; n >= 255; n -= 255 {
			out = append(out, 255)
		}
		out = append(out, byte(n))
	}
	return append(out, b...)
}

// shuffled is b with the shuffle filter of element size es applied.
func shuffled(b []byte, es int) []byte {
	n := len(b) / es
	out := make([]byte, len(b))
	for j := 0; j < n; j++ {
		for k := 0; k < es; k++ {
			out[k*n+j] = b[j*es+k]
		}
	}
	return out
}

func TestDecodePipelines(t *testing.T) {
	vals := []float64{1.5, -2, 0, 1e300, -math.SmallestNonzeroFloat64, 7}
	le := f64le(vals...)
	be := make([]byte, len(le))
	for i := 0; i < len(le); i += 8 {
		binary.BigEndian.PutUint64(be[i:], binary.LittleEndian.Uint64(le[i:]))
	}
	for _, c := range []struct {
		name   string
		desc   map[string]any
		region []byte
	}{
		{"raw", desc([]int{2, 3}, "float64"), le},
		{"big-endian", desc([]int{2, 3}, "float64", "byte_order", "big"), be},
		{"zstd", desc([]int{6}, "float64", "compression", "zstd"), zstdOf(t, le)},
		{"lz4", desc([]int{6}, "float64", "compression", "lz4"), lz4Of(le)},
		{"shuffle", desc([]int{6}, "float64", "filter", "shuffle", "shuffle_element_size", 8), shuffled(le, 8)},
		{"shuffle, size from the dtype", desc([]int{6}, "float64", "filter", "shuffle"), shuffled(le, 8)},
		{"big-endian shuffle zstd", desc([]int{3, 2}, "float64", "byte_order", "big", "filter", "shuffle",
			"shuffle_element_size", 8, "compression", "zstd"), zstdOf(t, shuffled(be, 8))},
		{"strides of size-1 axes are free", desc([]int{1, 6}, "float64", "strides", []int{99, 1}), le},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := oneObject(t, c.desc, c.region)
			out, err := o.Decode(nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, le) {
				t.Errorf("decoded %x, want %x", out, le)
			}
			// Into a caller's buffer, which the result then shares.
			dst := make([]byte, 0, 64)
			out2, err := o.Decode(dst, 0)
			if err != nil || !bytes.Equal(out2, le) || &out2[0] != &dst[:1][0] {
				t.Errorf("decoding into dst: %v, shares dst %v", err, err == nil && &out2[0] == &dst[:1][0])
			}
			// The result never aliases the file: writing it changes nothing.
			out2[0] ^= 0xFF
			if again, err := o.Decode(nil, 0); err != nil || !bytes.Equal(again, le) {
				t.Errorf("after writing a result: %v", err)
			}
		})
	}
}

func TestDecodeCBORBeforePayload(t *testing.T) {
	d := canon(t, desc([]int{2}, "int16"))
	body := append(append([]byte{}, d...), 1, 0, 0xFF, 0xFF)
	f, err := Scan(message([]tframe{{typ: FrameDataObject, body: body, cborAt: 16, hash: true}}, false, 0))
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Messages[0].Objects[0].Decode(nil, 0)
	if err != nil || !bytes.Equal(out, []byte{1, 0, 0xFF, 0xFF}) {
		t.Fatalf("%x %v", out, err)
	}
}

func TestDecodeNonCanonicalDescriptor(t *testing.T) {
	// An indefinite-length map, keys out of order, a 64-bit wide integer
	// for a small value, and keys nobody knows.
	item := func(k string, v any) []byte { return append(canon(t, k), canon(t, v)...) }
	var d []byte
	d = append(d, 0xBF)
	d = append(d, item("zzz_unknown", map[string]any{"deep": []int{1}})...)
	d = append(d, canon(t, "shape")...)
	d = append(d, 0x9F, 0x1B, 0, 0, 0, 0, 0, 0, 0, 3, 0xFF) // [_ 3 as u64]
	d = append(d, item("dtype", "uint8")...)
	d = append(d, item("compression", "none")...)
	d = append(d, 0xFF)
	payload := []byte{7, 8, 9}
	body := append(append([]byte{}, payload...), d...)
	f, err := Scan(message([]tframe{{typ: FrameDataObject, flags: frameFlagCBORAfter, body: body, cborAt: 16 + 3}}, false, 0))
	if err != nil {
		t.Fatal(err)
	}
	o := &f.Messages[0].Objects[0]
	out, err := o.Decode(nil, 0)
	if err != nil || !bytes.Equal(out, payload) || o.Params["zzz_unknown"] == nil {
		t.Fatalf("%x %v %v", out, err, o.Params)
	}
}

func TestDecodeDTypes(t *testing.T) {
	h := []byte{0x00, 0x3C, 0x00, 0xC0}  // float16 1, -2 little-endian
	bf := []byte{0x80, 0x3F, 0xC0, 0x40} // bfloat16 1, 6 (top halves of float32)
	for _, c := range []struct {
		name   string
		desc   map[string]any
		region []byte
		want   []byte
		typ    array.DType
	}{
		{"float16", desc([]int{2}, "float16"), h, h, array.F16},
		{"float16 big", desc([]int{2}, "float16", "byte_order", "big"), []byte{0x3C, 0, 0xC0, 0}, h, array.F16},
		{"bfloat16 widened", desc([]int{2}, "bfloat16"), bf, f32le(1, 6), array.F32},
		{"bfloat16 big", desc([]int{2}, "bfloat16", "byte_order", "big"), []byte{0x3F, 0x80, 0x40, 0xC0}, f32le(1, 6), array.F32},
		{"int8 ignores byte order", desc([]int{2}, "int8", "byte_order", "big"), []byte{0x80, 1}, []byte{0x80, 1}, array.I8},
		{"uint32 big", desc([]int{1}, "uint32", "byte_order", "big"), []byte{1, 2, 3, 4}, []byte{4, 3, 2, 1}, array.U32},
		{"int64 scalar", desc([]int{}, "int64"), []byte{1, 0, 0, 0, 0, 0, 0, 0x80}, []byte{1, 0, 0, 0, 0, 0, 0, 0x80}, array.I64},
		{"empty", desc([]int{0, 4}, "float32", "compression", "zstd"), zstdOf(t, nil), []byte{}, array.F32},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := oneObject(t, c.desc, c.region)
			if typ, err := o.Type(); err != nil || typ != c.typ {
				t.Errorf("Type %v %v, want %v", typ, err, c.typ)
			}
			out, err := o.Decode(nil, 0)
			if err != nil || !bytes.Equal(out, c.want) {
				t.Fatalf("%x %v, want %x", out, err, c.want)
			}
			if o.DecodedBytes() != int64(len(c.want)) {
				t.Errorf("DecodedBytes %d", o.DecodedBytes())
			}
		})
	}
}

// f32le is the little-endian bytes of float32 values.
func f32le(vs ...float32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

func TestDecodeRefusals(t *testing.T) {
	le := f64le(1, 2, 3)
	big := f64le(1, 2, 3, 4)
	for _, c := range []struct {
		name     string
		desc     map[string]any
		region   []byte
		limit    int64
		sentinel error
		word     string
	}{
		{"complex64", desc([]int{1}, "complex64"), make([]byte, 8), 0, array.ErrUnsupported, "complex64"},
		{"bitmask", desc([]int{8}, "bitmask"), []byte{1}, 0, array.ErrUnsupported, "bitmask"},
		{"unknown dtype", desc([]int{1}, "float8"), []byte{1}, 0, array.ErrUnsupported, "float8"},
		{"object type", desc([]int{3}, "float64", "type", "sparse"), le, 0, array.ErrUnsupported, "sparse"},
		{"strides", desc([]int{2, 2}, "float64", "strides", []int{1, 2}), big, 0, array.ErrUnsupported, "C-contiguous"},
		{"stride count", desc([]int{2, 2}, "float64", "strides", []int{1}), big, 0, array.ErrCorrupt, "strides"},
		{"byte order", desc([]int{3}, "float64", "byte_order", "middle"), le, 0, array.ErrUnsupported, "middle"},
		{"encoding", desc([]int{3}, "float64", "encoding", "grib_ccsds"), le, 0, array.ErrUnsupported, "grib_ccsds"},
		{"filter", desc([]int{3}, "float64", "filter", "bitshuffle"), le, 0, array.ErrUnsupported, "bitshuffle"},
		{"szip", desc([]int{3}, "float64", "compression", "szip"), le, 0, array.ErrUnsupported, "szip"},
		{"zfp", desc([]int{3}, "float64", "compression", "zfp"), le, 0, array.ErrUnsupported, "zfp"},
		{"sz3", desc([]int{3}, "float64", "compression", "sz3"), le, 0, array.ErrUnsupported, "sz3"},
		{"unknown compression", desc([]int{3}, "float64", "compression", "brotli"), le, 0, array.ErrUnsupported, "brotli"},
		{"rle on floats", desc([]int{3}, "float64", "compression", "rle"), le, 0, array.ErrUnsupported, "bitmask"},
		{"blosc2 pending", desc([]int{3}, "float64", "compression", "blosc2"), le, 0, array.ErrUnsupported, "blosc2"},
		{"short payload", desc([]int{4}, "float64"), le, 0, array.ErrCorrupt, "holds 24 bytes, 32 expected"},
		{"zstd too long", desc([]int{3}, "float64", "compression", "zstd"), zstdOf(t, big), 0, array.ErrCorrupt, "more than the 24 bytes"},
		{"zstd too short", desc([]int{4}, "float64", "compression", "zstd"), zstdOf(t, le), 0, array.ErrCorrupt, "24 bytes, 32 expected"},
		{"zstd garbage", desc([]int{3}, "float64", "compression", "zstd"), []byte("not zstd at all"), 0, array.ErrCorrupt, "zstd"},
		{"lz4 size", desc([]int{4}, "float64", "compression", "lz4"), lz4Of(le), 0, array.ErrCorrupt, "declares 24 bytes, 32 expected"},
		{"lz4 no prefix", desc([]int{4}, "float64", "compression", "lz4"), []byte{1}, 0, array.ErrCorrupt, "size prefix"},
		{"lz4 broken", desc([]int{3}, "float64", "compression", "lz4"), lz4Of(le)[:20], 0, array.ErrCorrupt, "lz4"},
		{"shuffle remainder", desc([]int{3}, "float64", "filter", "shuffle", "shuffle_element_size", 5), le, 0, array.ErrCorrupt, "5-byte elements"},
		{"shuffle size 0", desc([]int{3}, "float64", "filter", "shuffle", "shuffle_element_size", 0), le, 0, array.ErrCorrupt, "shuffle_element_size"},
		{"limit", desc([]int{3}, "float64"), le, 23, array.ErrTooLarge, "24 bytes, above the limit of 23"},
		{"zero bits, huge shape", desc([]int{1 << 40}, "float64", "encoding", "simple_packing", "sp_reference_value", 1.0,
			"sp_binary_scale_factor", 0, "sp_decimal_scale_factor", 0, "sp_bits_per_value", 0), nil, 0, array.ErrTooLarge, "above the limit"},
		{"packing bits", desc([]int{1}, "float64", "encoding", "simple_packing", "sp_reference_value", 1.0,
			"sp_binary_scale_factor", 0, "sp_decimal_scale_factor", 0, "sp_bits_per_value", 65), nil, 0, array.ErrUnsupported, "sp_bits_per_value 65"},
		{"packing params", desc([]int{1}, "float64", "encoding", "simple_packing", "sp_reference_value", "one"), nil, 0, array.ErrCorrupt, "sp_reference_value"},
		{"packing short", desc([]int{3}, "float64", "encoding", "simple_packing", "sp_reference_value", 1.0,
			"sp_binary_scale_factor", 0, "sp_decimal_scale_factor", 0, "sp_bits_per_value", 12), []byte{1, 2, 3, 4}, 0, array.ErrCorrupt, "4 bytes, 5 expected"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := oneObject(t, c.desc, c.region)
			_, err := o.Decode(nil, c.limit)
			wantErr(t, err, c.sentinel, c.word)
			wantErr(t, err, c.sentinel, "message 0, object 0")
		})
	}
}

func TestCodecNames(t *testing.T) {
	for _, c := range []struct {
		d    map[string]any
		want string
	}{
		{desc([]int{1}, "int8"), "raw"},
		{desc([]int{1}, "int8", "filter", "shuffle", "compression", "lz4"), "shuffle+lz4"},
		{desc([]int{1}, "float64", "encoding", "simple_packing", "filter", "none", "compression", "zstd"), "simple_packing+zstd"},
	} {
		o := oneObject(t, c.d, []byte{1})
		if o.Codec() != c.want || o.StoredBytes() != 1 {
			t.Errorf("Codec %q StoredBytes %d, want %q 1", o.Codec(), o.StoredBytes(), c.want)
		}
	}
}
