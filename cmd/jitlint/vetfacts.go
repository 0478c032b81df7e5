package main

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/types"
	"os"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// factRecord is one fact in this driver's .vetx files: a gob-encoded list
// of records, the package's own facts followed by those of its direct
// dependencies (so that facts reach packages further up).
type factRecord struct {
	Pkg  string // path of the package of the object
	Obj  string // objectpath of the object; "" for a package fact
	Type string // fact type (see factType)
	Data []byte // gob encoding of the fact
}

type factKey struct{ pkg, obj, typ string }

// factType names the dynamic type of a fact.
func factType(f analysis.Fact) string {
	t := reflect.TypeOf(f)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() + "." + t.Name()
}

// readVetx reads the fact files of the direct dependencies.
func readVetx(files map[string]string) (map[factKey]factRecord, error) {
	facts := map[factKey]factRecord{}
	for path, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("reading the facts of %s: %v", path, err)
		}
		if len(data) == 0 {
			continue
		}
		var recs []factRecord
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&recs); err != nil {
			return nil, fmt.Errorf("decoding the facts of %s (%s): %v", path, file, err)
		}
		for _, r := range recs {
			facts[factKey{r.Pkg, r.Obj, r.Type}] = r
		}
	}
	return facts, nil
}

// writeOrFail writes the package's facts and its dependencies' facts to
// file and returns the exit status.
func writeOrFail(file string, deps map[factKey]factRecord, own []factRecord) int {
	if file == "" {
		return 0
	}
	recs := append([]factRecord(nil), own...)
	for _, r := range deps {
		recs = append(recs, r)
	}
	var buf bytes.Buffer
	if len(recs) > 0 {
		if err := gob.NewEncoder(&buf).Encode(recs); err != nil {
			fmt.Fprintf(os.Stderr, "jitlint: encoding facts: %v\n", err)
			return 1
		}
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o666); err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: writing facts: %v\n", err)
		return 1
	}
	return 0
}

// localFact is a fact exported by the package being analysed.
type localFact struct {
	obj  types.Object // nil for a package fact
	fact analysis.Fact
}

// importFact finds the fact of ptr's type about obj (nil: the package
// pkgPath) and copies it into ptr.
func (v *vetPass) importFact(obj types.Object, pkgPath string, ptr analysis.Fact) bool {
	typ := factType(ptr)
	if (obj == nil && pkgPath == v.pkg.Path()) || (obj != nil && obj.Pkg() == v.pkg) {
		for _, lf := range v.local {
			if lf.obj == obj && factType(lf.fact) == typ {
				reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(lf.fact).Elem())
				return true
			}
		}
		return false
	}
	key := factKey{pkg: pkgPath, typ: typ}
	if obj != nil {
		if obj.Pkg() == nil {
			return false
		}
		p, err := objectpath.For(obj)
		if err != nil {
			return false
		}
		key.pkg, key.obj = obj.Pkg().Path(), string(p)
	}
	rec, ok := v.deps[key]
	if !ok {
		return false
	}
	return gob.NewDecoder(bytes.NewReader(rec.Data)).Decode(ptr) == nil
}

// exportFact records a fact about obj (nil: the package) and encodes it
// for the .vetx file when other packages can name obj.
func (v *vetPass) exportFact(obj types.Object, fact analysis.Fact) {
	for i, lf := range v.local {
		if lf.obj == obj && factType(lf.fact) == factType(fact) {
			v.local = append(v.local[:i], v.local[i+1:]...)
			break
		}
	}
	v.local = append(v.local, localFact{obj, fact})
	rec := factRecord{Pkg: v.pkg.Path(), Type: factType(fact)}
	if obj != nil {
		p, err := objectpath.For(obj)
		if err != nil {
			return // not reachable from other packages
		}
		rec.Obj = string(p)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(fact); err != nil {
		return
	}
	rec.Data = buf.Bytes()
	v.exported = append(v.exported, rec)
}
