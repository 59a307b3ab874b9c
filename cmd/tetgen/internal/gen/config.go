package gen

import (
	"fmt"
	"strings"
	"time"
)

// Pattern selects how element values are computed.
type Pattern int

// Patterns.
const (
	// Wave is a smooth sin/cos field over the coordinates plus 1% noise:
	// floats lie in about [-1, 1], rounded to multiples of 1/1024;
	// integers are scaled (±100 for u8, ±10⁴ for 16-bit, ±10⁶ for wider
	// types; unsigned ones shifted to be non-negative).
	Wave Pattern = iota
	// Ramp is the global row-major index converted to the dtype (small
	// integers wrap; f16 becomes +Inf past 65504).
	Ramp
	// Random is uniform random: floats in [0, 1), integers over the
	// dtype's whole range.
	Random
)

var patternNames = [...]string{Wave: "wave", Ramp: "ramp", Random: "random"}

// String is the pattern's name.
func (p Pattern) String() string { return patternNames[p] }

// ParsePattern maps ramp, wave or random to a Pattern.
func ParsePattern(s string) (Pattern, error) {
	for p, n := range patternNames {
		if n == s {
			return Pattern(p), nil
		}
	}
	return 0, fmt.Errorf("--pattern %q: unknown pattern (want ramp, wave or random)", s)
}

// Config is everything needed to write one file.
type Config struct {
	Datasets []*Dataset
	Pattern  Pattern
	Seed     uint64
	FileMeta map[string]string // metadata.file; nil for none
}

// AddDataset parses a --dataset spec NAME:DTYPE:SHAPE:CHUNK[:CODEC[:DIM,DIM,…]]
// (see parseDataset) and appends it.
func (c *Config) AddDataset(spec string) error {
	d, err := parseDataset(spec)
	if err != nil {
		return err
	}
	if c.dataset(d.Name) != nil {
		return fmt.Errorf("--dataset %q: dataset %q is declared twice", spec, d.Name)
	}
	c.Datasets = append(c.Datasets, &d)
	return nil
}

func (c *Config) dataset(name string) *Dataset {
	for _, d := range c.Datasets {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// splitTarget splits "NAME.REST=VALUE" where NAME is a declared dataset
// (the longest one that matches, since names may contain dots).
func (c *Config) splitTarget(flag, s string) (d *Dataset, rest, value string, err error) {
	lhs, value, ok := strings.Cut(s, "=")
	if !ok {
		return nil, "", "", fmt.Errorf("%s %q: missing '='", flag, s)
	}
	for _, cand := range c.Datasets {
		if strings.HasPrefix(lhs, cand.Name+".") && (d == nil || len(cand.Name) > len(d.Name)) {
			d = cand
		}
	}
	if d == nil {
		var names []string
		for _, cand := range c.Datasets {
			names = append(names, cand.Name)
		}
		return nil, "", "", fmt.Errorf("%s %q: %q does not start with a declared dataset name and a dot (datasets: %s)",
			flag, s, lhs, strings.Join(names, ", "))
	}
	rest = lhs[len(d.Name)+1:]
	if rest == "" {
		return nil, "", "", fmt.Errorf("%s %q: nothing after %q", flag, s, d.Name+".")
	}
	return d, rest, value, nil
}

// AddLabels applies a --labels spec NAME.DIM=KIND:ARG, KIND being
// dates:YYYY-MM-DD (consecutive days), seq:FMT (fmt.Sprintf(FMT, i)) or
// list:a,b,c (exactly one label per index). Datasets must be added first.
func (c *Config) AddLabels(s string) error {
	d, dim, value, err := c.splitTarget("--labels", s)
	if err != nil {
		return err
	}
	axis := d.dimIndex(dim)
	if axis < 0 {
		var dims []string
		for a := range d.Shape {
			dims = append(dims, d.dimName(a))
		}
		return fmt.Errorf("--labels %q: dataset %q has no dim %q (dims: %s)", s, d.Name, dim, strings.Join(dims, ", "))
	}
	if d.Labels != nil && d.Labels[axis] != nil {
		return fmt.Errorf("--labels %q: dim %q of %q already has labels", s, dim, d.Name)
	}
	labels, err := makeLabels(value, d.Shape[axis])
	if err != nil {
		return fmt.Errorf("--labels %q: %v", s, err)
	}
	if d.Labels == nil {
		d.Labels = make([][]string, len(d.Shape))
	}
	d.Labels[axis] = labels
	return nil
}

// maxLabels bounds a labelled axis: the labels live in the footer JSON,
// which readers cap at 16 MiB.
const maxLabels = 1 << 20

func makeLabels(spec string, n int64) ([]string, error) {
	kind, arg, ok := strings.Cut(spec, ":")
	if !ok {
		return nil, fmt.Errorf("want dates:YYYY-MM-DD, seq:FMT or list:a,b,c after '='")
	}
	if n > maxLabels && kind != "list" {
		return nil, fmt.Errorf("axis has %d positions; at most %d can be labelled", n, maxLabels)
	}
	switch kind {
	case "dates":
		t0, err := time.Parse(time.DateOnly, arg)
		if err != nil {
			return nil, fmt.Errorf("dates: start %q is not a date like 2024-01-01", arg)
		}
		out := make([]string, n)
		for i := range out {
			out[i] = t0.AddDate(0, 0, i).Format(time.DateOnly)
		}
		return out, nil
	case "seq":
		if first := fmt.Sprintf(arg, 0); strings.Contains(first, "%!") || first == arg {
			return nil, fmt.Errorf("seq: format %q must contain one integer verb such as %%d or %%04d", arg)
		}
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf(arg, i)
		}
		return out, nil
	case "list":
		out := strings.Split(arg, ",")
		if int64(len(out)) != n {
			return nil, fmt.Errorf("list: %d labels for an axis of size %d", len(out), n)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown label kind %q (want dates, seq or list)", kind)
}

// AddAttr applies an --attr spec NAME.KEY=VALUE.
func (c *Config) AddAttr(s string) error {
	d, key, value, err := c.splitTarget("--attr", s)
	if err != nil {
		return err
	}
	if _, dup := d.Attrs[key]; dup {
		return fmt.Errorf("--attr %q: attribute %q of %q is set twice", s, key, d.Name)
	}
	if d.Attrs == nil {
		d.Attrs = map[string]string{}
	}
	d.Attrs[key] = value
	return nil
}
