package gen

// Hooks for the external tests.

// ParseDataset parses one --dataset spec.
func ParseDataset(s string) (Dataset, error) { return parseDataset(s) }
