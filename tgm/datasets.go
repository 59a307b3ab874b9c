package tgm

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/tetsql/tetsql/array"
)

// placement is where an object is in its dataset: the dataset and the
// chunk id (the message, for a stacked dataset; 0 otherwise).
type placement struct {
	ds *Dataset
	id int64
}

// coords is the placement's chunk grid coordinates.
func (p placement) coords() []int64 {
	c := make([]int64, p.ds.info.Rank())
	if p.ds.stacked {
		c[0] = p.id
	}
	return c
}

// group is the objects of one name, in file order.
type group struct {
	name string
	objs []*Object
}

// build groups the objects by name and makes the datasets (see Source).
// An object whose dataset cannot be made (no element type, a rank above
// array.MaxRank, a stacked size that overflows) is left out and named in
// the "unmapped" attribute, so that it costs the file nothing else.
func (s *Source) build() error {
	var groups []*group
	byName := map[string]*group{}
	for i := range s.file.Messages {
		m := &s.file.Messages[i]
		for j := range m.Objects {
			o := &m.Objects[j]
			g := byName[o.Name]
			if g == nil {
				g = &group{name: o.Name}
				byName[o.Name] = g
				groups = append(groups, g)
			}
			g.objs = append(g.objs, o)
		}
	}
	s.place = map[*Object]placement{}
	s.attrs = map[string]string{"messages": strconv.Itoa(len(s.file.Messages))}
	taken := map[string]bool{}
	for _, g := range groups { // stacked datasets keep their names first
		taken[g.name] = true
	}
	claim := func(base string) string {
		name := base
		for k := 2; taken[name]; k++ {
			name = base + "_" + strconv.Itoa(k)
		}
		taken[name] = true
		return name
	}
	var unmapped []any
	s.left = map[*Object]error{}
	leave := func(o *Object, err error) {
		s.left[o] = err
		unmapped = append(unmapped, fmt.Sprintf("message %d, object %d (%s): %v", o.Message, o.Index, o.Name, err))
	}
	for _, g := range groups {
		stacked := s.stacks(g)
		perMessage := map[int]int{} // objects of the name in each message
		for _, o := range g.objs {
			perMessage[o.Message]++
		}
		for i, o := range g.objs {
			if _, err := o.Type(); err != nil {
				leave(o, err)
				continue
			}
			if stacked {
				if i == 0 {
					if err := s.addDataset(g.name, true, g.objs); err != nil {
						for _, o := range g.objs {
							leave(o, err)
						}
					}
				}
				continue
			}
			name := g.name + "_m" + strconv.Itoa(o.Message)
			if perMessage[o.Message] > 1 { // the name repeats inside the message
				name += "_o" + strconv.Itoa(o.Index)
			}
			if err := s.addDataset(claim(name), false, []*Object{o}); err != nil {
				leave(o, err)
			}
		}
	}
	if len(unmapped) > 0 {
		s.attrs["unmapped"] = JSON(unmapped)
	}
	return nil
}

// stacks reports whether a group forms one dataset along the message
// axis: exactly one object in every message, all of one dtype, one
// decoded element type (simple_packing decodes to f64 whatever the
// dtype) and one shape. The pipelines may differ.
func (s *Source) stacks(g *group) bool {
	if len(g.objs) != len(s.file.Messages) {
		return false
	}
	first := g.objs[0]
	typ, _ := first.Type()
	if len(first.Shape) >= array.MaxRank {
		return false // no room for the message axis
	}
	for i, o := range g.objs {
		t, _ := o.Type()
		if o.Message != i || o.DType != first.DType || t != typ || !slices.Equal(o.Shape, first.Shape) {
			return false
		}
	}
	return true
}

// Dataset is one array of the file: a stacked group of objects (one per
// message, chunk k = message k) or a single object (one chunk). Its
// methods are safe for concurrent use.
type Dataset struct {
	src     *Source
	info    array.Info
	stacked bool
	objs    []*Object // chunk id → object
}

// addDataset makes the dataset of objs named name.
func (s *Source) addDataset(name string, stacked bool, objs []*Object) error {
	first := objs[0]
	typ, _ := first.Type()
	shape, chunk := slices.Clone(first.Shape), slices.Clone(first.Shape)
	for a := range chunk {
		chunk[a] = max(chunk[a], 1) // an empty extent still has a chunk size
	}
	dims := dimNames(objs, len(shape))
	if stacked {
		shape = append([]int64{int64(len(objs))}, shape...)
		chunk = append([]int64{1}, chunk...)
		if dims == nil {
			dims = make([]string, len(first.Shape))
			for a := range dims {
				dims[a] = "d" + strconv.Itoa(a)
			}
		}
		dims = append([]string{"message"}, dims...)
	}
	d := &Dataset{src: s, stacked: stacked, objs: objs, info: array.Info{
		Name: name, DType: typ, Shape: shape, ChunkShape: chunk, DimNames: dims, Attrs: commonAttrs(objs),
	}}
	if err := d.info.Validate(); err != nil {
		return fmt.Errorf("tgm: dataset %s: %w", name, err)
	}
	for i, o := range objs {
		s.place[o] = placement{ds: d, id: int64(i)}
	}
	s.arrays = append(s.arrays, d)
	return nil
}

// dimNames is the objects' metadata dim_names when every object gives
// the same list of rank distinct non-empty strings, none "message"; nil
// otherwise.
func dimNames(objs []*Object, rank int) []string {
	var names []string
	for i, o := range objs {
		list, ok := o.Metadata["dim_names"].([]any)
		if !ok || len(list) != rank {
			return nil
		}
		cur := make([]string, rank)
		for a, v := range list {
			s, ok := v.(string)
			if !ok || s == "" || s == "message" || slices.Contains(cur[:a], s) {
				return nil
			}
			cur[a] = s
		}
		if i > 0 && !slices.Equal(cur, names) {
			return nil
		}
		names = cur
	}
	if rank == 0 {
		return nil
	}
	return names
}

// commonAttrs is the objects' metadata as attributes, one JSON value per
// key, keeping the keys whose value is the same in every object (the
// others differ per message: tgm_objects has them); nil when none.
func commonAttrs(objs []*Object) map[string]string {
	var out map[string]string
	for k, v := range objs[0].Metadata {
		js := JSON(v)
		same := true
		for _, o := range objs[1:] {
			w, ok := o.Metadata[k]
			if !ok || JSON(w) != js {
				same = false
				break
			}
		}
		if same {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = js
		}
	}
	return out
}
